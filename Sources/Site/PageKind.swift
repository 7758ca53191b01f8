import Model
import Support

/// A user's position in the snapshot's users (`Snapshot.users`), as a page names it.
package struct UserIndex: Sendable, Hashable, Comparable {
    package let value: Int
    package init(_ value: Int) { self.value = value }
    package static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}

/// A tweet's position in the snapshot's tweets (`Snapshot.tweets`, feed order).
package struct TweetIndex: Sendable, Hashable, Comparable {
    package let value: Int
    package init(_ value: Int) { self.value = value }
    package static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}

/// A hashtag's position in the snapshot's tags (`Snapshot.tags`).
package struct TagIndex: Sendable, Hashable, Comparable {
    package let value: Int
    package init(_ value: Int) { self.value = value }
    package static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}

/// One kind of page, declared once: the template it is rendered with, how it is rendered
/// (an HTML page: its view), and what its fingerprint hashes, side by side. A field a view
/// shows that its fingerprint does not hash leaves a stale page after a rebuild (the page is
/// not rendered again): `PageDriftTests` edits each input of a small store and checks that
/// every page whose bytes change has a new fingerprint.
///
/// Adding a kind: a `Page.Kind` case, a type conforming to this (`HTMLPage` for a page of
/// the theme), its line in `Page.Kind.declaration` and `Page.Kind.declarations`, and where
/// `SitePlan` lists its pages.
protocol PageDeclaration: Sendable {
    /// The theme's template it is rendered with (in `SiteRenderer.requiredTemplates`); nil
    /// for a file Roost writes in code. `TemplateSalts` salts the page with it.
    static var templateName: String? { get }
    /// Whether the page shows tweets' cards (`partials/card`, rendered apart: `SiteRenderer.card`).
    static var showsCards: Bool { get }
    /// Whether the page holds words Roost renders from the texts (titles, descriptions, dates,
    /// month and tab names, "Unknown user").
    static var usesWords: Bool { get }
    /// Whether the theme's stylesheet is written into the page (404.html, `InlineStyle`).
    static var inlinesStylesheet: Bool { get }

    /// The page's bytes.
    func render(_ renderer: SiteRenderer, path: String) throws -> [UInt8]

    /// Hashes everything the page shows but what every page's fingerprint has already (the
    /// options, the viewer, the theme's part, the path: `SiteRenderer.fingerprint(of:_:)`).
    func fingerprint(_ f: inout PageFingerprint)
}

extension PageDeclaration {
    static var showsCards: Bool { false }
    static var usesWords: Bool { true }
    static var inlinesStylesheet: Bool { false }
}

/// A page of the theme: its template rendered with a `PageView`.
protocol HTMLPage: PageDeclaration {
    static var template: String { get }
    /// The page's context.
    func view(_ renderer: SiteRenderer, path: String) throws -> PageView
}

extension HTMLPage {
    static var templateName: String? { template }

    func render(_ renderer: SiteRenderer, path: String) throws -> [UInt8] {
        try renderer.templates.render(Self.template, try view(renderer, path: path))
    }
}

extension Page.Kind {
    /// The declaration of this kind of page, with its own values.
    var declaration: any PageDeclaration {
        switch self {
        case .feed(let number): FeedPage(number: number)
        case .tweet(let t): TweetPage(tweet: t.value)
        case .profile(let user, let tab, let number): ProfilePage(user: user.value, tab: tab, number: number)
        case .favorites(let user): FavoritesPage(user: user.value)
        case .tag(let tag, let number): TagPage(tag: tag.value, number: number)
        case .atom(let user): AtomPage(user: user?.value)
        case .sitemap: SitemapPage(part: nil)
        case .sitemapPart(let part): SitemapPage(part: part)
        case .notFound: NotFoundPage()
        case .archive: ArchivePage()
        case .archiveYear(let y, let number): ArchiveYearPage(year: y, number: number)
        case .archiveMonth(let y, let m, let number): ArchiveMonthPage(year: y, month: m, number: number)
        case .tagIndex: TagIndexPage()
        case .top: TopPage()
        case .stats: StatsPage()
        case .search: SearchPage()
        case .searchFile(.docs(let bucket)): SearchDocsFile(bucket: bucket)
        case .searchFile(let file): SearchIndexFile(file: file)
        }
    }

    /// Every type `declaration` gives (what `TemplateSalts` makes a salt for).
    static let declarations: [any PageDeclaration.Type] = [
        FeedPage.self, TweetPage.self, ProfilePage.self, FavoritesPage.self, TagPage.self, AtomPage.self,
        SitemapPage.self, NotFoundPage.self, ArchivePage.self, ArchiveYearPage.self, ArchiveMonthPage.self,
        TagIndexPage.self, TopPage.self, StatsPage.self, SearchPage.self, SearchDocsFile.self, SearchIndexFile.self,
    ]
}

/// What the fingerprints of one computation share: made once, read by every page's.
final class FingerprintInputs: Sendable {
    let renderer: SiteRenderer
    /// `renderer.snapshot`, taken once: taken per page, it was copied (retained) per page.
    let snapshot: Snapshot
    let shared: SiteRenderer.SharedInputs

    init(renderer: SiteRenderer, shared: SiteRenderer.SharedInputs) {
        self.renderer = renderer
        snapshot = renderer.site.snapshot
        self.shared = shared
    }
}

/// One page's fingerprint as it is made (`PageDeclaration.fingerprint`): the hasher, the
/// inputs all pages share, and which tweets the page shows, when asked.
struct PageFingerprint {
    let inputs: FingerprintInputs
    private var hasher = StableHasher()
    /// Each tweet whose card or content the page includes, when the caller asks (non-nil).
    var shown: [Int]?

    init(_ inputs: FingerprintInputs, recordingShown: Bool) {
        self.inputs = inputs
        shown = recordingShown ? [] : nil
    }

    var site: SiteContext { inputs.renderer.site }
    var snapshot: Snapshot { inputs.snapshot }

    func finalize() -> Int { hasher.finalize() }

    mutating func combine(_ value: Int) { hasher.combine(value) }
    mutating func combine(_ value: Int?) { hasher.combine(value) }
    mutating func combine(_ value: Bool) { hasher.combine(value) }
    mutating func combine(_ value: Double?) { hasher.combine(value) }
    mutating func combine(_ value: String) { hasher.combine(value) }
    mutating func combine(_ value: String?) { hasher.combine(value) }
    mutating func combine(bytes: [UInt8]) { hasher.combine(bytes: bytes) }

    /// What a profile header shows of user `u` (`SiteContext.userFingerprint`).
    mutating func user(_ u: Int) { hasher.combine(inputs.shared.users[u]) }

    /// The cards of `items`, in order (and that the page shows those tweets).
    mutating func cards(_ items: some Collection<Int>) {
        let fingerprints = inputs.renderer.cardFingerprints
        for t in items {
            hasher.combine(fingerprints[t])
            shown?.append(t)
        }
    }

    /// Page `number` (1-based) of a paginated list of cards, and the pager's page count.
    mutating func slice(_ items: some RandomAccessCollection<Int>, _ number: Int) {
        let size = inputs.renderer.site.config.pageSize
        hasher.combine(items.count)
        cards(items.dropFirst((number - 1) * size).prefix(size))
    }

    /// A chart's series (`SiteRenderer.chart`).
    mutating func combine(_ series: [(month: Month, count: Int)]) {
        for entry in series {
            hasher.combine(entry.month.year)
            hasher.combine(entry.month.month)
            hasher.combine(entry.count)
        }
    }
}
