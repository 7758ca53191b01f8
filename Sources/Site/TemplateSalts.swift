import Mustache
import Support

/// What each kind of page takes from the theme, as fingerprints: so that an edited template
/// re-renders only the pages that can include it (a tweet page does not show `tag`).
///
/// A page's bytes depend on the theme through: its own template and every template that one
/// can include (`{{<layout}}`, partials, transitively; all of them if one names a template
/// dynamically); the card partial, when the page shows cards (rendered once per tweet, outside
/// the page's template); the texts (`t/…`), which Roost renders itself into titles, dates,
/// charts… of every HTML page, the Atom feeds and the search result data; and on 404.html, the
/// stylesheet written into it (`InlineStyle`). Other pages link static files by path, so their
/// bytes do not change with them. Roost's contexts hold no lambdas, which could name any template.
struct TemplateSalts: Sendable {
    /// Per template (not the texts), its own and those it can include.
    private let reachable: [String: Int]
    private let words: Int
    private let cards: Int
    private let stylesheet: Int
    /// `salt(for:)` of each class of kind (`kindClass`), made once: 41,000 pages hashed
    /// the same few values each.
    private var byClass: [Int] = []

    init(templates: TemplateLibrary, inlineStyle: InlineStyle?) {
        let isText = { (name: String) in name.hasPrefix(LocalizedTemplates.textPrefix) }
        var reachable: [String: Int] = [:]
        for name in templates.templateNames where !isText(name) {
            reachable[name] = templates.fingerprint(ofTemplatesReachableFrom: [name])
        }
        self.reachable = reachable
        words = templates.fingerprint(ofTemplatesReachableFrom: templates.templateNames.filter(isText))
        cards = templates.fingerprint(ofTemplatesReachableFrom: [SiteRenderer.cardTemplate])
        var h = StableHasher()
        h.combine(inlineStyle?.css)
        stylesheet = h.finalize()
        assert(Self.classes.indices.allSatisfy { Self.kindClass(Self.classes[$0]) == $0 })
        byClass = Self.classes.map(computeSalt)
    }

    /// The theme's part in the fingerprint of a page of `kind`.
    func salt(for kind: Page.Kind) -> Int { byClass[Self.kindClass(kind)] }

    /// One kind of each class: what `salt(for:)` depends on (the template, whether the page
    /// has words or cards, 404) is the same for every kind of a class.
    private static let classes: [Page.Kind] = [
        .feed(page: 1), .tweet(0), .profile(user: 0, tab: .tweets, page: 1), .favorites(user: 0), .tag(0, page: 1),
        .atom(user: nil), .sitemap, .sitemapPart(1), .notFound, .archive, .archiveYear(0, page: 1),
        .archiveMonth(year: 0, month: 0, page: 1), .tagIndex, .top, .stats, .search, .searchFile(.docs(0)),
        .searchFile(.manifest),
    ]

    /// The position in `classes` of `kind`'s class.
    private static func kindClass(_ kind: Page.Kind) -> Int {
        switch kind {
        case .feed: 0
        case .tweet: 1
        case .profile: 2
        case .favorites: 3
        case .tag: 4
        case .atom: 5
        case .sitemap: 6
        case .sitemapPart: 7
        case .notFound: 8
        case .archive: 9
        case .archiveYear: 10
        case .archiveMonth: 11
        case .tagIndex: 12
        case .top: 13
        case .stats: 14
        case .search: 15
        case .searchFile(.docs): 16
        case .searchFile: 17
        }
    }

    private func computeSalt(for kind: Page.Kind) -> Int {
        var h = StableHasher()
        // (Every page template is there: `SiteRenderer.init` checks the theme has them.)
        if let template = SiteRenderer.template(for: kind) { h.combine(reachable[template]) }
        if Self.usesWords(kind) { h.combine(words) }
        if Self.showsCards(kind) { h.combine(cards) }
        if kind == .notFound { h.combine(stylesheet) }
        return h.finalize()
    }

    /// Whether a page of `kind` holds words Roost renders from the texts (titles, descriptions,
    /// dates, month and tab names, "Unknown user").
    private static func usesWords(_ kind: Page.Kind) -> Bool {
        switch kind {
        case .sitemap, .sitemapPart: false
        case .searchFile(.docs): true  // each tweet's date as pages show it
        case .searchFile: false
        default: true
        }
    }

    /// Whether a page of `kind` shows tweets' cards (`SiteRenderer.card`).
    private static func showsCards(_ kind: Page.Kind) -> Bool {
        switch kind {
        case .feed, .tweet, .profile, .tag, .archiveYear, .archiveMonth, .top: true
        case .favorites, .atom, .sitemap, .sitemapPart, .notFound, .archive, .tagIndex, .stats, .search, .searchFile:
            false
        }
    }
}
