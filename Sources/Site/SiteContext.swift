import Markdown
import Model

/// What every view of a build shares: the snapshot, the paths, and the Markdown of
/// captions and bios rendered once per build (SPEC: each caption once, reused on every page).
final class SiteContext: Sendable {
    let snapshot: Snapshot
    let config: SiteConfig
    let paths: SitePaths
    /// Caption HTML per tweet.
    let captions: [String]
    /// Bio HTML per user.
    let bios: [String?]
    /// The `--viewer`, by user index.
    let viewer: Int?
    /// Per tweet: the viewer liked it.
    let viewerLiked: [Bool]

    init(snapshot: Snapshot, config: SiteConfig, viewer: Int?) {
        self.snapshot = snapshot
        self.config = config
        let paths = SitePaths(snapshot: snapshot)
        self.paths = paths
        self.viewer = viewer
        let markdown = MarkdownRenderer(
            mentionURL: { name in snapshot.user(mentioned: name).map { SitePaths.href(paths.user($0)) } },
            // Only tags some tweet has have a page (a bio may name others).
            tagURL: { tag in snapshot.tag(named: tag) != nil ? SitePaths.href(paths.tagFolder(tag)) : nil })
        captions = snapshot.tweets.parallelMap { markdown.render($0.caption) }
        bios = snapshot.users.map { $0.bio.map(markdown.render) }
        var liked = [Bool](repeating: false, count: snapshot.tweets.count)
        if let viewer {
            for t in snapshot.userActivity[viewer].likes { liked[t] = true }
        }
        viewerLiked = liked
    }

    /// `baseURL` + the folder: the page's public address.
    func absoluteURL(_ folder: String) -> String {
        config.baseURL + Slug.percentEncoded(folder)
    }
}
