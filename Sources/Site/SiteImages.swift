/// What pages do with remote images (SPEC 9, `--media`).
package enum MediaMode: String, Sendable, CaseIterable {
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
package struct SiteImages: Sendable, Equatable {
    package struct Copy: Sendable, Hashable {
        /// `media/{hash}.{ext}`, relative to the site's root.
        package var path: String
        package var width: Int?
        package var height: Int?

        package init(path: String, width: Int? = nil, height: Int? = nil) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    package var copies: [String: Copy]

    package init(_ copies: [String: Copy] = [:]) {
        self.copies = copies
    }

    package subscript(url: String) -> Copy? { copies[url] }

    /// The theme's pictures shown where there is no image (and, by `static/media.js`, where
    /// one fails to load in the browser).
    package static let placeholderAvatar = "static/avatar.svg"
    package static let placeholderPicture = "static/picture.svg"
}
