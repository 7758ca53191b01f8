/// The words of a Markdown text without its markup: for titles, descriptions and feed
/// entry titles, where markup would show as stray `*` and `_`.
package enum PlainText {
    /// Text and code, with breaks and block boundaries as single spaces; image alt
    /// text kept; raw HTML kept as the literal text the renderer shows. At most
    /// `limit` characters, cut at a word boundary where one is near, with `…`.
    package static func excerpt(_ markdown: String, limit: Int) -> String {
        var collector = PlainTextCollector(limit: limit)
        Cmark.walk(markdown) { collector.handle($0) }
        return collector.result
    }

    /// All of the text (`excerpt`'s rules, no limit) and the mentions (`HashtagsAndMentions`'
    /// rule: as written, without "@", unique, first occurrence first), from one parse: what
    /// search indexes of a caption (SPEC 8).
    package static func searchable(_ markdown: String) -> (text: String, mentions: [String]) {
        var collector = PlainTextCollector(limit: Int.max)
        var mentions: [String] = []
        var seen: Set<String> = []
        var linkDepth = 0
        Cmark.walk(markdown) { event in
            collector.handle(event)
            switch event {
            case .enter(.link), .enter(.image): linkDepth += 1
            case .exit(.link), .exit(.image): linkDepth -= 1
            case .enter(.text(let text)) where linkDepth == 0:
                Tokenizer.segments(of: text) { segment in
                    if case .mention(let name) = segment, seen.insert(name).inserted { mentions.append(name) }
                }
            default: break
            }
        }
        return (collector.result, mentions)
    }

    /// Unicode's White_Space property, spelled out: asking `properties` costs a table look-up
    /// per scalar, most of the excerpt's time.
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

/// Collects the excerpt during a walk of the tree (shared with rendering, so a caption is
/// parsed once for both).
struct PlainTextCollector {
    let limit: Int
    // Unicode scalars, not Characters: grapheme breaking of every caption was most of the
    // cost. Whole Characters are counted only on the short result, where it is cut.
    private var out = String.UnicodeScalarView()
    private var pendingSpace = false
    private var scalars = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// No Character is made of more scalars than this allows for.
    private var enough: Int { limit > Int.max / 8 ? Int.max : limit * 4 + 8 }

    mutating func handle(_ event: MarkdownEvent) {
        switch event {
        case .enter(.text(let text)), .enter(.code(let text)), .enter(.htmlInline(let text)),
            .enter(.htmlBlock(let text)):
            append(text)
        case .enter(.codeBlock(_, let code)):
            pendingSpace = !out.isEmpty
            append(code)
            pendingSpace = !out.isEmpty
        case .enter(.softBreak), .enter(.lineBreak), .exit(.paragraph), .exit(.heading), .exit(.item):
            pendingSpace = !out.isEmpty
        default:
            break
        }
    }

    private mutating func append(_ text: String) {
        for scalar in text.unicodeScalars where scalars < enough {
            if PlainText.isWhitespace(scalar) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace {
                    out.append(" ")
                    scalars += 1
                }
                pendingSpace = false
                out.append(scalar)
                scalars += 1
            }
        }
    }

    var result: String {
        let text = String(out)
        guard scalars > limit, text.count > limit else { return text }
        var cut = String(text.prefix(limit))
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < 20 {
            cut = String(cut[..<space])
        }
        return cut + "…"
    }
}
