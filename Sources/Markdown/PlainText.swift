/// The words of a Markdown text without its markup: for titles, descriptions and feed
/// entry titles, where markup would show as stray `*` and `_`.
public enum PlainText {
    /// Text and code, with breaks and block boundaries as single spaces; image alt
    /// text kept; raw HTML kept as the literal text the renderer shows. At most
    /// `limit` characters, cut at a word boundary where one is near, with `…`.
    public static func excerpt(_ markdown: String, limit: Int) -> String {
        var out = ""
        var pendingSpace = false
        func append(_ text: String) {
            for character in text {
                if character.isWhitespace {
                    pendingSpace = !out.isEmpty
                } else {
                    if pendingSpace { out.append(" ") }
                    pendingSpace = false
                    out.append(character)
                }
            }
        }
        Cmark.walk(markdown) { event in
            switch event {
            case .enter(.text(let text)), .enter(.code(let text)), .enter(.htmlInline(let text)),
                 .enter(.htmlBlock(let text)):
                append(text)
            case .enter(.codeBlock(_, let code)):
                append(" " + code + " ")
            case .enter(.softBreak), .enter(.lineBreak), .exit(.paragraph), .exit(.heading), .exit(.item):
                pendingSpace = !out.isEmpty
            default:
                break
            }
        }
        guard out.count > limit else { return out }
        var cut = String(out.prefix(limit))
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < 20 {
            cut = String(cut[..<space])
        }
        return cut + "…"
    }
}
