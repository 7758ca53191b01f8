import Model
import Mustache
import Store

/// The words Roost itself puts on pages — titles and descriptions, tab names, the empty tabs'
/// messages, "Unknown user", dates — rendered from the theme's texts (the `t/…` partials of
/// `LocalizedTemplates`), so that every word of a page comes from its translation table.
/// A text is markup like any template; here it is rendered to plain text (its character
/// references decoded) because these words go where templates escape them again.
struct Words: Sendable {
    /// The keys Roost renders itself (docs/templates.md, "Words"): every theme's English table
    /// has them.
    static let required =
        [
            "title.feed", "title.tweet", "title.profile", "title.replies", "title.likes", "title.favorites",
            "title.tag", "title.notFound", "title.search", "description.feed", "description.profile",
            "description.favorites",
            "description.tag", "description.notFound", "description.search", "empty.tweets", "empty.replies",
            "empty.likes",
            "tab.tweets", "tab.replies", "tab.likes", "tab.favorites", "unknownUser", "date",
            "title.archive", "title.archiveYear", "title.archiveMonth", "title.tagIndex", "title.top", "title.stats",
            "description.archive", "description.archiveYear", "description.archiveMonth", "description.tagIndex",
            "description.top", "description.stats", "chart.title", "chart.summary", "chart.axis", "map.title",
            "map.notDrawn", "map.point",
        ] + (1...12).map { "month.\($0)" } + (1...12).map { "monthLong.\($0)" }

    let templates: TemplateLibrary
    /// The name of an author with no user document.
    let unknownUser: String
    /// `tab.tweets`, `tab.replies`, `tab.likes`, `tab.favorites` by the tab's id.
    let tabNames: [String: String]
    /// `month.1` … `month.12`.
    let monthNames: [String]
    /// `monthLong.1` … `monthLong.12`: a month on its own (the archive).
    let longMonthNames: [String]

    /// - Parameter folder: the theme's folder, for the message when a text is missing.
    init(templates: TemplateLibrary, folder: String) throws(SiteError) {
        for key in Self.required where templates.template(named: LocalizedTemplates.textPrefix + key) == nil {
            throw .missingText(
                key: key,
                file: "\(folder)/\(LocalizedTemplates.tableFolder)\(LocalizedTemplates.fallbackLanguage).json")
        }
        self.templates = templates
        do {
            let none: MustacheValue = [:]
            func word(_ key: String) throws -> String { try Self.plainText(templates, key, none) }
            unknownUser = try word("unknownUser")
            tabNames = try Dictionary(
                uniqueKeysWithValues: ["tweets", "replies", "likes", "favorites"].map { ($0, try word("tab.\($0)")) })
            monthNames = try (1...12).map { try word("month.\($0)") }
            longMonthNames = try (1...12).map { try word("monthLong.\($0)") }
        } catch {
            throw SiteError(error)
        }
    }

    /// Text `key` rendered in `context`, as plain text.
    func text(_ key: String, _ context: some MustacheBoxable) throws -> String {
        try Self.plainText(templates, key, context)
    }

    /// How pages show `t` (the `date` text).
    func date(_ t: Timestamp) throws -> String {
        try text("date", DateText.Parts(t, monthNames: monthNames))
    }

    private static func plainText(_ templates: TemplateLibrary, _ key: String, _ context: some MustacheBoxable) throws
        -> String
    {
        decodingReferences(try templates.render(LocalizedTemplates.textPrefix + key, context))
    }

    /// `html` with its character references decoded: what `MarkupEscape` writes (`&amp;` `&lt;`
    /// `&gt;` `&quot;` `&#39;`), `&apos;`, `&nbsp;` and numeric references; in one pass, so
    /// `&amp;lt;` is `&lt;`. Anything else is kept as it is.
    static func decodingReferences(_ html: [UInt8]) -> String {
        guard html.contains(UInt8(ascii: "&")) else { return String(decoding: html, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(html.count)
        var i = 0
        while i < html.count {
            let b = html[i]
            guard b == UInt8(ascii: "&"), let semi = html[(i + 1)..<min(html.count, i + 12)].firstIndex(of: 0x3B)
            else {
                out.append(b)
                i += 1
                continue
            }
            let name = String(decoding: html[(i + 1)..<semi], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch name {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            case "nbsp": scalar = "\u{A0}"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            guard let scalar else {
                out.append(b)
                i += 1
                continue
            }
            out.append(contentsOf: String(Character(scalar)).utf8)
            i = semi + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
