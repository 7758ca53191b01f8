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
/// stylesheet and the script written into it (`InlineStyle`, `FileBaseScript`). Other pages
/// link static files by path, so their bytes do not change with them. Roost's contexts hold no
/// lambdas, which could name any template. Which of these a kind of page has, its
/// `PageDeclaration` says.
struct TemplateSalts: Sendable {
    /// `salt(for:)` of each kind's declaration, made once: 41,000 pages hashed the same few
    /// values each.
    private let byKind: [ObjectIdentifier: Int]

    init(templates: TemplateLibrary, inlineStyle: InlineStyle?) {
        let isText = { (name: String) in name.hasPrefix(LocalizedTemplates.textPrefix) }
        let words = templates.fingerprint(ofTemplatesReachableFrom: templates.templateNames.filter(isText))
        let cards = templates.fingerprint(ofTemplatesReachableFrom: [SiteRenderer.cardTemplate])
        var style = StableHasher()
        style.combine(inlineStyle?.css)
        style.combine(FileBaseScript.text)
        let stylesheet = style.finalize()
        var byKind: [ObjectIdentifier: Int] = [:]
        for kind in Page.Kind.declarations {
            var h = StableHasher()
            // Its own template and those it can include (every page template is there:
            // `SiteRenderer.init` checks the theme has them).
            if let template = kind.templateName {
                let reachable: Int? = templates.fingerprint(ofTemplatesReachableFrom: [template])
                h.combine(reachable)  // as an optional, as always: the same fingerprints as before
            }
            if kind.usesWords { h.combine(words) }
            if kind.showsCards { h.combine(cards) }
            if kind.inlinesStylesheet { h.combine(stylesheet) }
            byKind[ObjectIdentifier(kind)] = h.finalize()
        }
        self.byKind = byKind
    }

    /// Every kind's salt at once, in `Page.Kind.declarations` order.
    var digest: Int {
        var h = StableHasher()
        for kind in Page.Kind.declarations { h.combine(byKind[ObjectIdentifier(kind)] ?? 0) }
        return h.finalize()
    }

    /// The theme's part in the fingerprint of a page of this kind.
    func salt(for declaration: some PageDeclaration) -> Int {
        guard let salt = byKind[ObjectIdentifier(type(of: declaration))] else {
            preconditionFailure("\(type(of: declaration)) is not in Page.Kind.declarations")
        }
        return salt
    }
}
