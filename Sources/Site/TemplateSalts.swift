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
    }

    /// The theme's part in the fingerprint of a page of `kind`.
    func salt(for kind: Page.Kind) -> Int {
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
