/// The options of a build that change what pages say (SPEC 5).
package struct SiteConfig: Sendable, Equatable {
    /// The URL path or absolute URL the site is served from, ending in `/`.
    package var baseURL: String
    /// Tweets per page (at least 1).
    package var pageSize: Int
    /// Render as this user sees the app (their likes filled), by handle.
    package var viewer: String?
    /// The site's name (SPEC 10).
    package var title: String
    /// What the site is about, for the feed page's description; nil: the theme's words.
    package var description: String?
    /// The language of the theme's words and of the pages (`en`, `ko`), a BCP 47 tag.
    package var language: String
    /// What pages do with remote images (`--media`).
    package var media: MediaMode

    package init(
        baseURL: String = "/", pageSize: Int = 20, viewer: String? = nil, title: String = "Roost",
        description: String? = nil, language: String = "en", media: MediaMode = .link
    ) {
        self.media = media
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.pageSize = max(1, pageSize)
        self.viewer = viewer
        self.title = title
        self.description = description
        self.language = language
    }

    /// True when `baseURL` has a scheme and host, so feeds can carry absolute links.
    package var hasAbsoluteBase: Bool {
        baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")
    }
}
