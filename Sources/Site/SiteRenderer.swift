import Model
import Mustache
import Search
import Support

/// Renders the pages of a plan with the theme's templates. Immutable and thread-safe:
/// pages can be rendered on all cores at once.
package final class SiteRenderer: Sendable {
    /// The templates every theme has (docs/templates.md).
    package static let requiredTemplates = [
        "layout", "feed", "tweet", "profile", "favorites", "tag", "404", "atom", "partials/card", "archive",
        "archive-year", "archive-month", "tags", "top", "stats", "search",
    ]

    package let plan: SitePlan
    let site: SiteContext
    /// The snapshot the pages show.
    package var snapshot: Snapshot { site.snapshot }
    let templates: TemplateLibrary
    /// The card partial, rendered once per tweet when first shown.
    let cards: CardCache
    /// What each card shows (see Fingerprints.swift).
    let cardFingerprints: [Int]
    /// What every page's fingerprint shares.
    let shared: SharedInputs
    /// The search index's files (SPEC 8).
    package let search: SearchIndex
    /// The theme's stylesheet for 404.html (see `InlineStyle`).
    let inlineStyle: InlineStyle?

    /// Bytes of rendered cards a renderer of `tweets` tweets keeps by default: every card
    /// (~1.6 KB each) of a store of up to 100,000 tweets; past that, less the larger the store
    /// (inversely), down to 64 MiB from 600,000 tweets. What a build holds besides grows with
    /// the store, and cards are only a saving of CPU: at a million tweets, 384 MiB of them
    /// were an eighth of the peak, for a few percent of the render's CPU (`CardCache`).
    package static func defaultCardBudget(tweets: Int) -> Int {
        let most = 384 << 20
        return min(most, max(64 << 20, most * 100_000 / max(1, tweets)))
    }

    /// - Parameter templates: the theme's templates with the texts of `config.language`
    ///   (`LocalizedTemplates.templates(for:)`).
    /// - Parameter stylesheet: the theme's `static/style.css`, written into 404.html (see
    ///   `InlineStyle`); nil: that page links it like the others.
    /// - Parameter images: the copies of remote images, for `config.media == .mirror`.
    /// - Parameter previous: the renderer of the last build of a live preview with the same
    ///   templates: captions and cards whose inputs did not change are taken from it.
    /// - Parameter search: the snapshot's search index, if made already (a build times it apart).
    /// - Parameter renders: captions rendered by an earlier build (a build cache), used when
    ///   their context is this one's (`captionContext`).
    /// - Parameter cardBudget: bytes of rendered cards kept for the next page that shows them
    ///   (nil: `defaultCardBudget(tweets:)`); past it, cards are rendered at each use (see
    ///   `CardCache`).
    /// - Parameter keptCards: card fingerprints kept by an earlier build, taken where they
    ///   serve (`cardFingerprints(_:taking:shared:)`).
    package init(
        snapshot: Snapshot, config: SiteConfig, templates: TemplateLibrary, templateFolder: String = "templates",
        stylesheet: String? = nil, images: SiteImages = SiteImages(), reusing previous: SiteRenderer? = nil,
        search: SearchIndex? = nil, renders: CaptionRenders? = nil, kept: ContextParts? = nil,
        keptCards: KeptCards? = nil,
        cardBudget: Int? = nil
    ) throws(SiteError) {
        for name in Self.requiredTemplates where templates.template(named: name) == nil {
            throw .missingTemplate(name: name, folder: templateFolder)
        }
        var viewer: Int?
        if let handle = config.viewer {
            let name = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
            guard
                let index = snapshot.user(handle: handle.lowercased()) ?? snapshot.user(handle: handle)
                    ?? snapshot.user(mentioned: name)
            else {
                let alike = snapshot.users.filter { $0.username.lowercased() == name.lowercased() }.map(\.handle)
                if alike.count > 1 { throw .ambiguousViewer(handle, handles: alike.sorted(by: codePointOrder)) }
                throw .unknownViewer(handle)
            }
            viewer = index
        }
        let words = try Words(templates: templates, folder: templateFolder)
        let site: SiteContext
        do {
            site = try SiteContext(
                snapshot: snapshot, config: config, viewer: viewer, words: words, images: images,
                previous: previous?.site, renders: renders, kept: kept)
        } catch {
            throw SiteError(error)
        }
        self.site = site
        self.templates = templates
        self.inlineStyle = stylesheet.map(InlineStyle.init(css:))
        let search = search ?? SearchIndex(snapshot: snapshot)
        self.search = search
        let plan = SitePlan(
            snapshot: snapshot, paths: site.paths, archive: site.archive, config: config, search: search)
        self.plan = plan
        let shared = Self.sharedInputs(site: site, plan: plan, templates: templates, inlineStyle: inlineStyle)
        self.shared = shared
        let fingerprints =
            keptCards.flatMap { Self.cardFingerprints(site, taking: $0, shared: shared) } ?? site.cardFingerprints()
        self.cardFingerprints = fingerprints
        var seeds = [String?](repeating: nil, count: snapshot.tweets.count)
        if let previous {
            let old = previous.cards.rendered
            for index in snapshot.tweets.indices {
                if let o = previous.site.snapshot.tweet(id: snapshot.tweets[index].id),
                    previous.cardFingerprints[o] == fingerprints[index]
                {
                    seeds[index] = old[o]
                }
            }
        }
        self.cards = CardCache(seeds, budget: cardBudget ?? Self.defaultCardBudget(tweets: snapshot.tweets.count))
    }

    private init(
        plan: SitePlan, site: SiteContext, templates: TemplateLibrary, cards: CardCache, cardFingerprints: [Int],
        inlineStyle: InlineStyle?, search: SearchIndex, shared: SharedInputs? = nil
    ) {
        self.inlineStyle = inlineStyle
        self.plan = plan
        self.search = search
        self.site = site
        self.templates = templates
        self.cards = cards
        self.cardFingerprints = cardFingerprints
        self.shared =
            shared ?? Self.sharedInputs(site: site, plan: plan, templates: templates, inlineStyle: inlineStyle)
    }

    /// This renderer for `snapshot`, made from `self`'s by `Snapshot.replacingContent(of:)`:
    /// only the changed tweets' captions are rendered again (and their cards when next shown).
    /// `images`: the copies now, when the changed captions may show new ones (a superset of
    /// the old: avatars and bios keep theirs).
    package func updatingContent(of changed: [Int], in snapshot: Snapshot, images: SiteImages? = nil) throws(SiteError)
        -> SiteRenderer
    {
        let site = SiteContext(previous: self.site, snapshot: snapshot, changed: changed, images: images)
        var seeds = cards.rendered
        var fingerprints = self.cardFingerprints
        for t in changed {
            fingerprints[t] = site.cardFingerprint(t)
            seeds[t] = nil
        }
        // New words make new keys, which may cut the term shards elsewhere: the plan follows.
        let search = self.search.replacingCaptions(ofTweets: changed, old: self.snapshot, in: snapshot)
        let plan =
            search.shards.map(\.path) == self.search.shards.map(\.path)
            ? plan
            : SitePlan(
                snapshot: snapshot, paths: site.paths, archive: site.archive, config: site.config, search: search)
        return SiteRenderer(
            plan: plan, site: site, templates: templates, cards: CardCache(seeds, budget: cards.budget),
            cardFingerprints: fingerprints,
            inlineStyle: inlineStyle, search: search)
    }

    /// This renderer without the search index's term shards, for a build that has written
    /// those pages (`Page.isSearchTermShard`): at a million tweets they are some 180 MB that
    /// the rest of the render does not need. Rendering a term shard with it is an error.
    package func droppingSearchTermShards() -> SiteRenderer {
        SiteRenderer(
            plan: plan, site: site, templates: templates, cards: cards, cardFingerprints: cardFingerprints,
            inlineStyle: inlineStyle, search: search.droppingShardBytes(), shared: shared)
    }

    /// What a caption's HTML depends on besides its text (see `CaptionRenders`).
    package var captionContext: UInt64 { site.captionContext }

    /// What this renderer's context made of each tweet that a build cache keeps.
    package var contextParts: ContextParts { ContextParts(dates: site.dates, captionLangs: site.captionLangs) }

    /// Tweet `t`'s caption as rendered for this build.
    package func captionRender(ofTweet t: Int) -> CaptionRender {
        site.caption(t)
    }

    /// Tweet `t`'s card HTML.
    func card(_ t: Int) throws -> String {
        try cards.card(t) {
            String(
                decoding: try templates.render(Self.cardTemplate, TweetView(site: site, index: t, card: nil)),
                as: UTF8.self)
        }
    }

    /// The bytes of one page of the plan.
    package func render(_ page: Page) throws(SiteError) -> [UInt8] {
        do {
            return try page.kind.declaration.render(self, path: page.path)
        } catch {
            throw SiteError(error)
        }
    }

    func tweets(_ indices: some Sequence<Int>) throws -> MustacheValue {
        try indices.map { TweetView(site: site, index: $0, card: try card($0)) }.mustacheValue
    }

    /// The positions on page `number` (1-based) of a list of `count` items, and the pager.
    func paginate(count: Int, _ number: Int, folder: @escaping @Sendable (Int) -> String) -> (Range<Int>, PagerView) {
        let size = site.config.pageSize
        let pages = max(1, (count + size - 1) / size)
        let start = min(count, (number - 1) * size)
        return (start..<min(count, start + size), PagerView(number: number, count: pages, folder: folder))
    }
}
