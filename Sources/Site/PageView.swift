import Mustache

/// The context of one page: the keys every page has (docs/templates.md, "Common keys")
/// and the page's own.
struct PageView: MustacheObject {
    let site: SiteContext
    /// The file's path from the root.
    let path: String
    /// The page's folder (for `absoluteURL`).
    let folder: String
    /// `isFeed`, `isProfile`…
    let kindFlag: String
    /// The page's own keys.
    var values: [String: MustacheValue]
    /// Set from the theme's texts, which render in this very context (where they are empty).
    var title = ""
    var description = ""
    /// 404.html: servers show it at any URL, so its `<base>` is the base URL itself (links
    /// relative to where it lies would break) and it is nobody's canonical copy.
    var isServedAtAnyURL = false

    func value(forKey key: String) -> MustacheValue? {
        if let value = values[key] { return value }
        switch key {
        case "root": return .string(isServedAtAnyURL ? site.config.baseURL : SitePaths.root(of: path))
        case "path": return .string(Slug.percentEncoded(path))
        case "title": return .string(title)
        case "description": return .string(description)
        case "absoluteURL": return isServedAtAnyURL ? nil : .string(site.absoluteURL(folder))
        case "site": return SiteInfo(site: site).mustacheValue
        case "viewer": return site.viewer.map { UserView(site: site, index: $0).mustacheValue }
        case "generator": return .string("Roost \(RoostVersion.current)")
        case kindFlag: return .bool(true)
        default: return nil
        }
    }
}

/// `site.*`.
struct SiteInfo: MustacheObject {
    let site: SiteContext

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "title": .string(site.config.title)
        case "language": .string(site.config.language)
        case "feedURL": .string("feed.xml")
        case "baseURL": .string(site.config.baseURL)
        // Pages may load images from other hosts (the CSP's img-src): only in `link` mode.
        case "remoteImages": .bool(site.config.media == .link)
        default: nil
        }
    }
}
