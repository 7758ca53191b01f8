import Support

/// What the charts' SVG writers share: numbers in attributes and escaped text.
enum SVGText {
    /// `value` with at most one decimal, never in exponent notation: `12`, `-3.5`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        let whole = "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10)"
        return abs(tenths) % 10 == 0 ? whole : whole + ".\(abs(tenths) % 10)"
    }

    /// Text for an element's content or a quoted attribute.
    static func escaped(_ text: String) -> String { MarkupEscape.escaped(text) }
}
