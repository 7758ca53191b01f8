import DefaultSite
import Foundation
import Model
import Mustache
import Site
import Support

/// A theme: its templates (`*.mustache`, named by their path without the extension) with
/// the texts of its translation tables (`i18n/<language>.json`, see `LocalizedTemplates`), its
/// `static/` files (copied as they are to `static/` in the output), and a fingerprint of
/// every file in it, which the inputs token takes as salt (the model cannot see a template
/// change; pages take only their own templates' part: see `TemplateSalts`). Made from files
/// in memory, wherever they came from: a theme folder (`init(folder:)`) or the theme built
/// into the binary (`builtIn`).
///
/// Which one a build uses (`folder(given:in:)`): the folder given (`--templates DIR`); when none
/// is given, `templates/` in the project's folder (roost.json's, else the current folder) if
/// there is one; else the built-in theme.
package struct Theme: Sendable {
    /// One file of the theme.
    package struct File: Sendable {
        /// Relative to the theme's root, `/`-separated: `partials/card.mustache`, `static/style.css`.
        package let path: String
        package let bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Where the theme came from, for messages: a folder's path, or `built-in theme`.
    package let origin: String
    /// Every file, in path order.
    package let files: [File]
    /// The templates with the English texts (see `templates(language:)`).
    package let templates: TemplateLibrary
    /// The templates once per language of the theme's translation tables.
    package let localized: LocalizedTemplates
    /// The files of `static/`, with their paths relative to it.
    package let staticFiles: [File]
    /// Every file's path and bytes, and Roost's version.
    package let fingerprint: Int

    /// A theme of `files` (any order). A template that does not parse is an error naming
    /// `origin/path`.
    package init(files: [File], origin: String) throws {
        let files = files.sorted { codePointOrder($0.path, $1.path) }
        var hasher = StableHasher()
        hasher.combine(RoostVersion.current)
        var staticFiles: [File] = []
        for file in files {
            hasher.combine(file.path)
            hasher.combine(bytes: file.bytes)
            if file.path.hasPrefix(Self.staticFolder) {
                staticFiles.append(File(path: String(file.path.dropFirst(Self.staticFolder.count)), bytes: file.bytes))
            }
        }
        self.origin = origin
        self.files = files
        localized = try LocalizedTemplates(files: files.map { ($0.path, $0.bytes) }, origin: origin)
        templates = try localized.templates(for: LocalizedTemplates.fallbackLanguage)
        self.staticFiles = staticFiles
        fingerprint = hasher.finalize()
    }

    /// Reads the theme folder at `folder`. A file that cannot be read is an error naming it.
    /// In `static/`, only regular files are taken, not behind a symbolic link, with no
    /// dot-name on the way.
    package init(folder: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MustacheError.cannotRead(path: folder, reason: "no such directory")
        }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var files: [File] = []
        for relative in manager.subpaths(atPath: folder) ?? [] {
            let path = base + "/" + relative
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            if relative.hasPrefix(Self.staticFolder), !Self.isPlainFile(relative, at: path) { continue }
            guard let bytes = try? readWholeFile(path).get() else {
                throw MustacheError.cannotRead(path: path, reason: "unreadable file")
            }
            files.append(File(path: relative, bytes: bytes))
        }
        try self.init(files: files, origin: base)
    }

    /// The theme compiled into the binary (the repository's `templates/`, see `DefaultSite`).
    package static var builtIn: Theme {
        get throws { try builtInTheme.get() }
    }

    private static let builtInTheme = Result {
        try Theme(files: DefaultSite.theme.map { File(path: $0.path, bytes: $0.bytes) }, origin: "built-in theme")
    }

    /// The folder a theme is read from when none is given, if the project's folder has it.
    package static let defaultFolder = "templates"

    /// The theme folder to read: `folder` when given; when not (nil), `templates` in `project`
    /// (the project's folder, see `ProjectFile.folder(of:)`; empty: the current folder) if it
    /// has such a folder; else nil, meaning the built-in theme. Never `templates/` of another
    /// folder than the project's: a site built from elsewhere looks as it does from its own.
    package static func folder(given folder: String?, in project: String = "") -> String? {
        if let folder { return folder }
        let path = ProjectFile.path(defaultFolder, in: project)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        return exists && isFolder.boolValue ? path : nil
    }

    /// The theme a build uses (`folder`: the one given, nil when none is): see `folder(given:in:)`,
    /// from the current folder.
    package static func load(folder: String?) throws -> Theme {
        guard let path = Self.folder(given: folder) else { return try builtIn }
        return try Theme(folder: path)
    }

    /// The text of `static/style.css`, if the theme has one (404.html carries it inline:
    /// see `SiteRenderer`'s `stylesheet`).
    package var stylesheet: String? {
        staticFiles.first { $0.path == "style.css" }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// Where static files are, in the theme and in the output.
    package static let staticFolder = "static/"

    private static func isPlainFile(_ relative: String, at path: String) -> Bool {
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return false }
        var st = stat()
        return lstat(path, &st) == 0 && FileKind(mode: st.st_mode) == .regular
    }
}

// MARK: - Languages

extension Theme {
    /// The templates with the texts of `language` (the theme's `i18n/<language>.json`, English
    /// where it has none); a language the theme has no table for is an error naming the ones it has.
    package func templates(language: String) throws(SiteError) -> TemplateLibrary {
        try localized.templates(for: language)
    }
}
