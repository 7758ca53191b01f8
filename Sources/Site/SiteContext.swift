import Markdown
import Model
import Support

/// What every view of a build shares: the snapshot, the paths, and the Markdown of
/// captions and bios rendered once per build (SPEC: each caption once, reused on every page).
final class SiteContext: Sendable {
    let snapshot: Snapshot
    let config: SiteConfig
    let paths: SitePaths
    /// Caption HTML per tweet.
    let captions: [String]
    /// The caption's first words as plain text, per tweet (titles, feed entries).
    let excerpts: [String]
    /// Bio HTML per user.
    let bios: [String?]
    /// The `--viewer`, by user index.
    let viewer: Int?
    /// Per tweet: the viewer liked it.
    let viewerLiked: [Bool]
    /// What mention and hashtag links in Markdown depend on: every username and handle, every tag.
    let linkTargets: Int

    /// - Parameter previous: the context of the last build of a live preview; captions and bios
    ///   whose text is unchanged are taken from it when the link targets are the same.
    init(snapshot: Snapshot, config: SiteConfig, viewer: Int?, previous: SiteContext? = nil) {
        self.snapshot = snapshot
        self.config = config
        let paths = SitePaths(snapshot: snapshot)
        self.paths = paths
        self.viewer = viewer
        let markdown = Self.markdown(snapshot, paths)
        var targets = Hasher()
        for user in snapshot.users {
            targets.combine(user.username)
            targets.combine(user.handle)
        }
        for tag in snapshot.tags { targets.combine(tag.tag) }
        linkTargets = targets.finalize()
        if let previous, previous.linkTargets == linkTargets, previous.config == config {
            let old = previous.snapshot
            let rendered = snapshot.tweets.parallelMap { tweet in
                if let i = old.tweet(id: tweet.id), old.tweets[i].caption == tweet.caption {
                    return (previous.captions[i], previous.excerpts[i])
                }
                return markdown.render(tweet.caption, excerptLimit: Self.excerptLimit)
            }
            captions = rendered.map(\.0)
            excerpts = rendered.map(\.1)
            bios = snapshot.users.map { user in
                if let i = old.user(uid: user.uid), old.users[i].bio == user.bio { return previous.bios[i] }
                return user.bio.map(markdown.render)
            }
        } else {
            let rendered = snapshot.tweets.parallelMap { markdown.render($0.caption, excerptLimit: Self.excerptLimit) }
            captions = rendered.map(\.0)
            excerpts = rendered.map(\.1)
            bios = snapshot.users.map { $0.bio.map(markdown.render) }
        }
        var liked = [Bool](repeating: false, count: snapshot.tweets.count)
        if let viewer {
            for t in snapshot.userActivity[viewer].likes { liked[t] = true }
        }
        viewerLiked = liked
    }

    /// A copy of `previous` for a snapshot whose tweets at `changed` have new content and
    /// nothing else differs (`Snapshot.replacingContent`): only their Markdown is rendered.
    init(previous: SiteContext, snapshot: Snapshot, changed: [Int]) {
        self.snapshot = snapshot
        config = previous.config
        paths = previous.paths  // the same names: only content changed
        viewer = previous.viewer
        viewerLiked = previous.viewerLiked
        linkTargets = previous.linkTargets
        bios = previous.bios
        let markdown = Self.markdown(snapshot, paths)
        var captions = previous.captions
        var excerpts = previous.excerpts
        for t in changed {
            (captions[t], excerpts[t]) = markdown.render(snapshot.tweets[t].caption, excerptLimit: Self.excerptLimit)
        }
        self.captions = captions
        self.excerpts = excerpts
    }

    /// Markdown whose mentions link to profiles and hashtags to tag pages.
    private static func markdown(_ snapshot: Snapshot, _ paths: SitePaths) -> MarkdownRenderer {
        MarkdownRenderer(
            mentionURL: { name in snapshot.user(mentioned: name).map { SitePaths.href(paths.user($0)) } },
            // Only tags some tweet has have a page (a bio may name others).
            tagURL: { tag in snapshot.tag(named: tag).map { SitePaths.href(paths.tag($0, page: 1)) } })
    }

    /// Characters of a caption in titles and feed entry titles.
    static let excerptLimit = 80

    /// `baseURL` + the folder: the page's public address.
    func absoluteURL(_ folder: String) -> String {
        config.baseURL + Slug.percentEncoded(folder)
    }
}
