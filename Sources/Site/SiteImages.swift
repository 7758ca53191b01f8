/// What pages do with remote images (SPEC 9, `--media`).
public enum MediaMode: String, Sendable, CaseIterable {
    /// Pages point at the remote URL, as the store has it.
    case link
    /// Pages point at copies written into the site (`media/{hash}.{ext}`); an image without a
    /// copy shows the placeholder.
    case mirror
    /// The placeholder everywhere: no remote URL in any page.
    case none
}

/// The images a mirrored site has copies of: per remote URL, the copy's path in the site and
/// its size in pixels when known. A URL not here shows the placeholder.
public struct SiteImages: Sendable, Equatable {
    public struct Copy: Sendable, Hashable {
        /// `media/{hash}.{ext}`, relative to the site's root.
        public var path: String
        public var width: Int?
        public var height: Int?

        public init(path: String, width: Int? = nil, height: Int? = nil) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    public var copies: [String: Copy]

    public init(_ copies: [String: Copy] = [:]) {
        self.copies = copies
    }

    public subscript(url: String) -> Copy? { copies[url] }

    /// The theme's pictures shown where there is no image (and, by `static/media.js`, where
    /// one fails to load in the browser).
    public static let placeholderAvatar = "static/avatar.svg"
    public static let placeholderPicture = "static/picture.svg"
}
