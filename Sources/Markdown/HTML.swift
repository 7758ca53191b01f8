import Support

// HTML output buffer, escaping, and link URL policy.

/// Accumulates UTF-8 bytes; turned into a `String` once at the end.
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    /// Markup: appended as is.
    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Removes and returns what was written since `mark` (an earlier `count`).
    mutating func cut(from mark: Int) -> ArraySlice<UInt8> {
        let tail = bytes[mark...]
        bytes.removeSubrange(mark...)
        return tail
    }

    /// Bytes already escaped.
    mutating func append(_ escaped: ArraySlice<UInt8>) {
        bytes.append(contentsOf: escaped)
    }

    /// Starts a new line unless at the start of the output or of a line.
    mutating func newlineIfNeeded() {
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    }

    mutating func decimal(_ value: Int) {
        var text = String(value)
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Text or attribute value, escaped (`MarkupEscape`).
    mutating func escaped(_ text: String) {
        MarkupEscape.append(text, to: &bytes)
    }

    /// A URL from the Markdown, for an `href`: bytes that may not appear in a
    /// URL (space, controls, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`,
    /// non-ASCII) are percent-encoded (as UTF-8), existing `%XX` are kept (a
    /// `%` that starts none is `%25`: `WebAddress.encoded`), and the result is
    /// attribute-escaped. As a browser would, leading and
    /// trailing controls and spaces are dropped, and tabs and newlines removed,
    /// so the link goes where `LinkPolicy.classify` thinks it goes.
    mutating func href(_ url: String) {
        for byte in WebAddress.encoded(url).utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "'"): raw("&#39;")
            default: bytes.append(byte)
            }
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// What link and image destinations may be.
enum LinkPolicy {
    /// Schemes a link may have. Anything else with a scheme (`javascript:`,
    /// `vbscript:`, `file:`, `data:`, …) is dropped.
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    enum Kind {
        /// Not to be linked.
        case unsafe
        /// Relative to the site (path, `?query`, `#fragment`).
        case relative
        /// Another site: `http:`, `https:`, `mailto:` or `//host`.
        case external
    }

    /// Classifies `url` the way a browser would read it: leading C0 controls
    /// and spaces are ignored and tabs and newlines removed (so
    /// `" \u{1}java\tscript:"` is `javascript:`); a `:` before any `/`, `?` or
    /// `#` makes the part before it a scheme, which must be an allowed one.
    /// Empty URLs are unsafe (a link to nowhere).
    static func classify(_ url: String) -> Kind {
        let kind = classifyByScheme(url)
        // `https://`, `https://x.org:99999/`: no page can carry it as a link.
        if case .external = kind, !WebAddress.hasUsableHost(url) { return .unsafe }
        return kind
    }

    private static func classifyByScheme(_ url: String) -> Kind {
        var scheme: [UInt8] = []
        var started = false
        var sawSlashes = 0
        for byte in url.utf8 {
            if !started {
                if byte <= 0x20 { continue }
                started = true
            }
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            switch byte {
            case UInt8(ascii: ":"):
                guard let first = scheme.first, isLetter(first),
                    scheme.allSatisfy({
                        isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+")
                            || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                    })
                else { return .unsafe }
                let name = String(decoding: scheme.map { $0 | 0x20 }, as: UTF8.self)
                return allowedSchemes.contains(name) ? .external : .unsafe
            case UInt8(ascii: "/"), UInt8(ascii: "\\"):
                // `//host` (and `\\host`, `/\host`, which browsers read alike).
                if scheme.isEmpty, sawSlashes < 2 {
                    sawSlashes += 1
                    if sawSlashes == 2 { return .external }
                    continue
                }
                return .relative
            case UInt8(ascii: "?"), UInt8(ascii: "#"):
                return .relative
            default:
                if sawSlashes > 0 { return .relative }
                scheme.append(byte)
            }
        }
        return started ? .relative : .unsafe
    }

    @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
