import Foundation

/// What `roost` carries inside its binary: the default theme (the repository's
/// `templates/`) and the sample store that `roost init` writes (its `content/`). The
/// EmbedDefaultSite build-tool plugin (`Plugins/`) generates the file data at build time,
/// so an edit to either folder is in the next `swift build`.
public enum DefaultSite {
    /// One embedded file.
    public struct File: Sendable {
        /// Relative to its folder, `/`-separated: `partials/card.mustache`, `users/u1.json`.
        public let path: String
        public let bytes: [UInt8]
    }

    /// The default theme: templates and `static/` files, in path order.
    public static let theme: [File] = embeddedTheme.map(\.file)
    /// The sample store (a directory store), in path order.
    public static let store: [File] = embeddedStore.map(\.file)
}

/// A file as the generated source spells it: text, or base64 for anything not UTF-8.
struct EmbeddedFile {
    let file: DefaultSite.File

    init(_ path: String, text: String) {
        file = DefaultSite.File(path: path, bytes: Array(text.utf8))
    }

    init(_ path: String, base64: String) {
        file = DefaultSite.File(path: path, bytes: [UInt8](Data(base64Encoded: base64) ?? Data()))
    }
}
