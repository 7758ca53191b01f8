import Foundation
import Model
import Mustache
import Site
import Support

/// A theme folder, read once: its templates (`*.mustache`, named by their path without the
/// extension), its `static/` files (copied as they are to `static/` in the output), and a
/// fingerprint of every file in it, which page fingerprints and the inputs token take as salt
/// (the model cannot see a template change).
public struct Theme: Sendable {
    /// One file of `static/`.
    public struct StaticFile: Sendable {
        /// Relative to the static folder, `/`-separated.
        public let path: String
        public let bytes: [UInt8]
    }

    public let folder: String
    public let templates: TemplateLibrary
    public let staticFiles: [StaticFile]
    /// Every file's path and bytes, and Roost's version.
    public let fingerprint: Int

    /// Reads the theme at `folder`. A file that cannot be read, or a template that does not
    /// parse, is an error naming it.
    public init(folder: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MustacheError.cannotRead(path: folder, reason: "no such directory")
        }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var hasher = StableHasher()
        hasher.combine(RoostVersion.current)
        var templates: [(name: String, file: String, bytes: [UInt8])] = []
        var staticFiles: [StaticFile] = []
        for relative in (manager.subpaths(atPath: folder) ?? []).sorted() {
            let file = base + "/" + relative
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard let data = manager.contents(atPath: file) else {
                throw MustacheError.cannotRead(path: file, reason: "unreadable file")
            }
            let bytes = [UInt8](data)
            hasher.combine(relative)
            hasher.combine(bytes: bytes)
            if relative.hasSuffix(Self.templateSuffix) {
                templates.append((String(relative.dropLast(Self.templateSuffix.count)), file, bytes))
            }
            if relative.hasPrefix(Self.staticFolder), Self.isStaticFile(relative, at: file) {
                staticFiles.append(StaticFile(path: String(relative.dropFirst(Self.staticFolder.count)), bytes: bytes))
            }
        }
        self.folder = folder
        self.templates = try TemplateLibrary(sources: templates)
        self.staticFiles = staticFiles
        fingerprint = hasher.finalize()
    }

    static let templateSuffix = ".mustache"
    /// Where static files are, in the theme and in the output.
    public static let staticFolder = "static/"

    /// Static files are regular files, not behind a symbolic link, with no dot-name on the way.
    private static func isStaticFile(_ relative: String, at file: String) -> Bool {
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return false }
        let values = try? URL(fileURLWithPath: file).resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
        return values?.isRegularFile == true && values?.isSymbolicLink != true
    }
}
