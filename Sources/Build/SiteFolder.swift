import DefaultSite
import Foundation
import JSON

/// A new site folder, from inside the binary (`DefaultSite`): `roost.json` with the settings
/// given, the sample store, a README, and when asked the built-in theme to edit (SPEC 10).
package struct SiteFolder: Sendable {
    /// The folder to create.
    package let path: String
    /// Whether the built-in theme is written to `templates/` too.
    package let withTheme: Bool

    /// Where the sample store goes (what a build reads by default).
    package static let storeFolder = BuildOptions().store

    package init(path: String, withTheme: Bool) {
        self.path = path
        self.withTheme = withTheme
    }

    /// The site's name: the folder's own name.
    package var name: String { URL(fileURLWithPath: path).standardizedFileURL.lastPathComponent }

    /// What `create` writes, as `roost.json, content/ (sample store), …`.
    package var contents: [String] {
        [ProjectFile.fileName, "\(Self.storeFolder)/ (sample store)"]
            + (withTheme ? ["\(Theme.defaultFolder)/ (the theme)"] : [])
    }

    /// Creates the folder with `roost.json` holding `settings` (in order), the sample store, a
    /// README unless there is one, and with `withTheme` the theme. Refuses a folder that
    /// exists and is not empty, unless `replacing`: then `roost.json`, the store and the theme
    /// are replaced, and the rest left.
    package func create(settings: [(key: String, value: JSONValue)], replacing: Bool) throws(SiteFolderError) {
        let manager = FileManager.default
        let destination = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: destination.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw .notAFolder(path: destination.path)
        }
        let existing = (try? manager.contentsOfDirectory(atPath: destination.path)) ?? []
        if !existing.isEmpty, !replacing { throw .notEmpty(path: destination.path) }
        // roost.json is written last: a folder in its place is found before anything is written.
        let settingsFile = destination.appendingPathComponent(ProjectFile.fileName)
        if manager.fileExists(atPath: settingsFile.path, isDirectory: &isFolder), isFolder.boolValue {
            throw .inTheWay(path: settingsFile.path)
        }
        func step(_ target: URL, _ body: () throws -> Void) throws(SiteFolderError) {
            do { try body() } catch { throw .cannotWrite(path: target.path, reason: Self.reason(error)) }
        }
        try step(destination) { try manager.createDirectory(at: destination, withIntermediateDirectories: true) }
        let store = destination.appendingPathComponent(Self.storeFolder)
        try step(store) { try Self.write(DefaultSite.store, to: store) }
        if withTheme {
            let theme = destination.appendingPathComponent(Theme.defaultFolder)
            try step(theme) { try Self.write(DefaultSite.theme, to: theme) }
        }
        let json = JSONWriter.string(.object(settings)) + "\n"
        try step(settingsFile) { try Data(json.utf8).write(to: settingsFile) }
        let readme = destination.appendingPathComponent("README.md")
        if !manager.fileExists(atPath: readme.path) {
            try step(readme) { try Data(readmeStub.utf8).write(to: readme) }
        }
    }

    /// What went wrong, in words (not Foundation's error dump).
    private static func reason(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileWriteFileExists?: "a file is in the way"
        case .fileWriteNoPermission?, .fileReadNoPermission?: "permission denied"
        case .fileWriteOutOfSpace?: "no space left on the device"
        case .fileWriteVolumeReadOnly?: "the file system is read-only"
        default: (error as NSError).localizedDescription
        }
    }

    /// Writes `files` under `folder`, replacing whatever was there.
    static func write(_ files: [DefaultSite.File], to folder: URL) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.path) { try manager.removeItem(at: folder) }
        for file in files {
            let target = folder.appendingPathComponent(file.path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: target)
        }
    }

    var readmeStub: String {
        let themeLine =
            withTheme
            ? "- `templates/`: the theme (Mustache), used instead of the one built into roost;\n"
                + "  `templates/static/` is copied to `public/static/`. Delete the folder to go back to the built-in theme.\n"
            : "- The theme is built into roost. To edit it: `roost init --theme OTHER` writes a site with\n"
                + "  the theme in `OTHER/templates/`; copy that folder here, and it replaces the built-in one.\n"
        return """
            # \(name)

            A Roost site: the data of a Twitter-like app as static pages.

            - `roost.json`: the site's settings (title, language, base URL, folders).
            - `content/`: the document store (users, tweets, likes, favorites), one JSON file per document.
              Replace it with your own export: `roost import export.json --to content --force`.
            \(themeLine)
            Commands:

                roost check              # report data problems
                roost build              # render into public/
                roost serve              # preview at http://127.0.0.1:8000/, rebuilt as files change

            """
    }
}

/// Why a site folder cannot be created (beyond the file system's errors, which pass through).
package enum SiteFolderError: Error, Sendable, CustomStringConvertible {
    /// The folder exists, is not empty, and replacing was not asked for.
    case notEmpty(path: String)
    /// There is a file, not a folder, at the path.
    case notAFolder(path: String)
    /// A folder where the site's file goes (`roost.json`).
    case inTheWay(path: String)
    /// A file or folder of the site could not be written.
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .notEmpty(let path): "\(path) is not empty; choose a new folder"
        case .notAFolder(let path): "\(path) is a file, not a folder; choose a new folder"
        case .inTheWay(let path): "\(path) is a folder; move or remove it first"
        case .cannotWrite(let path, let reason): "could not write \(path): \(reason)"
        }
    }
}
