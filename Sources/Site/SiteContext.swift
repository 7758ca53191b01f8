import Markdown
import Model
import Support

/// What every view of a build shares: the snapshot, the paths, and the Markdown of
/// captions and bios rendered once per build (SPEC: each caption once, reused on every page).
final class SiteContext: Sendable {
    let snapshot: Snapshot
    let config: SiteConfig
    let paths: SitePaths
    /// Per tweet, its caption as pages show it when rendered here; nil: `known` has it.
    private let made: [CaptionRender?]
    /// Captions a build cache rendered, in this context: decoded when a page asks.
    private let known: CaptionRenders?
    /// Per tweet, `CaptionRender.digest` of its caption (card fingerprints).
    let captionDigests: [UInt64]
    /// How captions are rendered here (one the cache has is taken as it is).
    private let fallback: MarkdownRenderer
    /// Bio HTML per user.
    let bios: [String?]
    /// The `--viewer`, by user index.
    let viewer: Int?
    /// Per tweet: the viewer liked it.
    let viewerLiked: [Bool]
    /// What mention and hashtag links in Markdown depend on: every username and handle, every tag.
    let linkTargets: Int
    /// What a caption's HTML depends on besides its text, the same in every run: the link
    /// targets, the media mode and the mirrored copies, Roost's version (`CaptionRenders`).
    let captionContext: UInt64
    /// The words Roost puts on pages, in the site's language.
    let words: Words
    /// How pages show each tweet's time (`Words.date`).
    let dates: [String]
    /// The `lang` of text in another script than the site language's (`ScriptLanguage`).
    let scripts: ScriptLanguage
    /// Per tweet, the caption's `lang`.
    let captionLangs: [String?]
    /// Per user, the `lang` of their name, username and bio.
    let userLangs: [UserLangs]
    /// Per tag, its `lang`.
    let tagLangs: [String?]
    /// The tweets by year and month.
    let archive: ArchiveIndex
    /// Tag indices by use, most used first, ties by tag (`/tags/`, `/stats/`).
    let tagsByUse: [Int]
    /// The 100 most-liked tweets (`/top/`).
    let top: [Int]
    /// The mirrored copies of remote images (`config.media == .mirror`).
    let images: SiteImages
    /// Per user, the picture pages show: the remote URL, its copy, or nil for the placeholder
    /// (SPEC 9).
    let avatars: [String?]

    struct UserLangs: Sendable {
        let name: String?
        let username: String?
        let bio: String?
    }

    /// - Parameter previous: the context of the last build of a live preview; captions and bios
    ///   whose text is unchanged are taken from it when the link targets are the same.
    /// - Parameter kept: the dates and caption langs of this snapshot, as a build cache kept
    ///   them (used when there is one of each per tweet).
    init(
        snapshot: Snapshot, config: SiteConfig, viewer: Int?, words: Words, images: SiteImages = SiteImages(),
        previous: SiteContext? = nil, renders: CaptionRenders? = nil, kept: ContextParts? = nil
    ) throws {
        let tweetCount = snapshot.tweets.count
        let kept = kept.flatMap { $0.dates.count == tweetCount && $0.captionLangs.count == tweetCount ? $0 : nil }
        self.snapshot = snapshot
        self.config = config
        self.images = images
        avatars = snapshot.users.map { Self.avatar(of: $0, config.media, images) }
        let paths = SitePaths(snapshot: snapshot)
        self.paths = paths
        self.viewer = viewer
        self.words = words
        let scripts = ScriptLanguage(siteLanguage: config.language)
        self.scripts = scripts
        // By index, here and below: mapping the tweets copied (retained) each whole tweet.
        captionLangs =
            kept?.captionLangs
            ?? [String?](parallelCount: tweetCount, chunk: 64) { scripts.lang(of: snapshot.tweets[$0].caption) }
        userLangs = snapshot.users.map { Self.langs(of: $0, scripts) }
        tagLangs = snapshot.tags.map { scripts.lang(of: $0.tag) }
        archive = ArchiveIndex(snapshot: snapshot)
        tagsByUse = Self.tagsByUse(snapshot)
        top = Self.top(snapshot)
        let markdown = Self.markdown(snapshot, paths, config.media, images)
        fallback = markdown
        var targets = Hasher()
        for user in snapshot.users {
            targets.combine(user.username)
            targets.combine(user.handle)
        }
        for tag in snapshot.tags { targets.combine(tag.tag) }
        linkTargets = targets.finalize()
        let captionContext = Self.captionContext(snapshot, config.media, images)
        self.captionContext = captionContext
        if let previous, previous.linkTargets == linkTargets, previous.config == config, previous.images == images {
            let old = previous.snapshot
            let made = snapshot.tweets.parallelMap { tweet -> CaptionRender? in
                if let i = old.tweet(id: tweet.id), sameBytes(old.tweets[i].caption, tweet.caption) {
                    return previous.caption(i)
                }
                return Self.render(tweet.caption, markdown)
            }
            self.made = made
            known = nil
            captionDigests = made.parallelMap { CaptionRender.digest(html: $0!.html) }
            bios = snapshot.users.map { user in
                if let i = old.user(uid: user.uid), sameBytes(old.users[i].bio, user.bio) { return previous.bios[i] }
                return user.bio.map(markdown.render)
            }
            dates = try Self.dates(snapshot, words) { t in
                let tweet = snapshot.tweets[t]
                return old.tweet(id: tweet.id).flatMap {
                    old.tweets[$0].timestamp == tweet.timestamp ? previous.dates[$0] : nil
                }
            }
        } else {
            // The cache's renders are taken as they are, and decoded only for the pages made.
            let known = renders.flatMap { $0.context == captionContext ? $0 : nil }
            let made = [CaptionRender?](parallelCount: tweetCount, chunk: 64) { t in
                known?.has(t) == true ? nil : Self.render(snapshot.tweets[t].caption, markdown)
            }
            self.made = made
            self.known = known
            captionDigests = [UInt64](parallelCount: tweetCount, chunk: 256) { t in
                made[t].map { CaptionRender.digest(html: $0.html) } ?? known!.digest(t)
            }
            bios = snapshot.users.map { $0.bio.map(markdown.render) }
            dates = try kept?.dates ?? Self.dates(snapshot, words) { _ in nil }
        }
        var liked = [Bool](repeating: false, count: snapshot.tweets.count)
        if let viewer {
            for t in snapshot.userActivity[viewer].likes { liked[t] = true }
        }
        viewerLiked = liked
    }

    /// A copy of `previous` for a snapshot whose tweets at `changed` have new content and
    /// nothing else differs (`Snapshot.replacingContent`): only their Markdown is rendered.
    init(previous: SiteContext, snapshot: Snapshot, changed: [Int], images: SiteImages? = nil) {
        self.snapshot = snapshot
        config = previous.config
        // New copies only add to the old (a changed caption's new images): avatars and bios stay.
        self.images = images ?? previous.images
        avatars = previous.avatars
        paths = previous.paths  // the same names: only content changed
        viewer = previous.viewer
        viewerLiked = previous.viewerLiked
        linkTargets = previous.linkTargets
        captionContext = previous.captionContext
        bios = previous.bios
        words = previous.words
        dates = previous.dates  // the same times: only content changed
        scripts = previous.scripts
        userLangs = previous.userLangs
        tagLangs = previous.tagLangs
        archive = previous.archive  // the same times
        tagsByUse = previous.tagsByUse  // the same hashtags
        top = previous.top  // the same likes and times
        let markdown = Self.markdown(snapshot, paths, config.media, self.images)
        var made = previous.made
        var digests = previous.captionDigests
        var captionLangs = previous.captionLangs
        for t in changed {
            let render = Self.render(snapshot.tweets[t].caption, markdown)
            made[t] = render
            digests[t] = CaptionRender.digest(html: render.html)
            captionLangs[t] = scripts.lang(of: snapshot.tweets[t].caption)
        }
        self.made = made
        known = previous.known
        captionDigests = digests
        self.captionLangs = captionLangs
        fallback = markdown
    }

    /// Tweet `t`'s caption as pages show it: its HTML and excerpt.
    func caption(_ t: Int) -> CaptionRender {
        if let render = made[t] ?? known?.render(t) { return render }
        // (A render the cache has that does not decode: made again, as it was made.)
        return Self.render(snapshot.tweets[t].caption, fallback)
    }

    private static func render(_ caption: String, _ markdown: MarkdownRenderer) -> CaptionRender {
        let (html, excerpt) = markdown.render(caption, excerptLimit: excerptLimit)
        return CaptionRender(html: html, excerpt: excerpt)
    }

    /// See `captionContext`: every input of `markdown(…)` but the snapshot's tweets.
    private static func captionContext(_ snapshot: Snapshot, _ media: MediaMode, _ images: SiteImages) -> UInt64 {
        var h = StableHasher()
        h.combine(RoostVersion.current)
        h.combine(snapshot.users.count)
        for user in snapshot.users {
            h.combine(user.username)
            h.combine(user.handle)
        }
        h.combine(snapshot.tags.count)
        for tag in snapshot.tags { h.combine(tag.tag) }
        h.combine(media.rawValue)
        if media == .mirror {
            for (url, copy) in images.copies.sorted(by: { $0.key < $1.key }) {
                h.combine(url)
                h.combine(copy.path)
                h.combine(copy.width ?? -1)
                h.combine(copy.height ?? -1)
            }
        }
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// SPEC 7: most used first, ties by tag in code point order (the order of `tags`).
    private static func tagsByUse(_ snapshot: Snapshot) -> [Int] {
        snapshot.tags.indices.sorted { a, b in
            let (ca, cb) = (snapshot.tags[a].tweets.count, snapshot.tags[b].tweets.count)
            return ca != cb ? ca > cb : a < b
        }
    }

    /// The tweets `/top/` shows: SPEC 7, the most likes first, ties newest first, then by ID
    /// (the feed's order, which a stable sort keeps).
    static let topCount = 100
    private static func top(_ snapshot: Snapshot) -> [Int] {
        // Most likes first, ties by index: each tweet as one number (its likes, then its index
        // reversed), sorted as numbers rather than by looking both tweets up per comparison.
        var keys = snapshot.tweets.indices.map { t in
            UInt64(snapshot.likeCount(ofTweet: t)) << 32 | UInt64(UInt32.max - UInt32(t))
        }
        keys.sort(by: >)
        return keys.prefix(topCount).map { Int(UInt32.max - UInt32(truncatingIfNeeded: $0)) }
    }

    /// Each tweet's time as pages show it; `reused` gives the ones a previous context has.
    private static func dates(_ snapshot: Snapshot, _ words: Words, reused: @Sendable (Int) -> String?) throws
        -> [String]
    {
        let results = [Result<String, any Error>](parallelCount: snapshot.tweets.count, chunk: 64) { t in
            Result { () throws -> String in try reused(t) ?? words.date(snapshot.tweets[t].timestamp) }
        }
        return try results.map { try $0.get() }
    }

    private static func langs(of user: User, _ scripts: ScriptLanguage) -> UserLangs {
        UserLangs(
            name: scripts.lang(of: user.fullname), username: scripts.lang(of: user.username),
            bio: user.bio.flatMap(scripts.lang))
    }

    /// Markdown whose mentions link to profiles and hashtags to tag pages, and whose images
    /// are pictures: of the remote URL (`link`, an http(s) one with a usable host), their
    /// copies (`mirror`), else the placeholder (and always with `none`).
    private static func markdown(
        _ snapshot: Snapshot, _ paths: SitePaths, _ media: MediaMode, _ images: SiteImages
    ) -> MarkdownRenderer {
        let placeholder = InlineImage(src: SiteImages.placeholderPicture)
        let image: (@Sendable (String) -> InlineImage)?
        switch media {
        case .link: image = { url in WebAddress.httpURL(url).map { InlineImage(src: $0) } ?? placeholder }
        case .none: image = { _ in placeholder }
        case .mirror:
            image = { url in
                images[url].map { InlineImage(src: $0.path, width: $0.width, height: $0.height) } ?? placeholder
            }
        }
        return MarkdownRenderer(
            mentionURL: { name in snapshot.user(mentioned: name).map { SitePaths.href(paths.user($0)) } },
            // Only tags some tweet has have a page (a bio may name others).
            tagURL: { tag in snapshot.tag(named: tag).map { SitePaths.href(paths.tag($0, page: 1)) } },
            image: image)
    }

    /// The picture of `user` as pages show it; nil: the placeholder.
    private static func avatar(of user: User, _ media: MediaMode, _ images: SiteImages) -> String? {
        guard let url = user.profileImageURL else { return nil }
        switch media {
        case .link: return url
        case .mirror: return images[url]?.path
        case .none: return nil
        }
    }

    /// Characters of a caption in titles and feed entry titles.
    static let excerptLimit = 80

    /// `baseURL` + the folder: the page's public address.
    func absoluteURL(_ folder: String) -> String {
        config.baseURL + Slug.percentEncoded(folder)
    }
}
