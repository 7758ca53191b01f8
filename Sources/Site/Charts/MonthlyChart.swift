/// A bar chart of tweets per month as static SVG (SPEC 7): no script, no library. Colours come
/// from the page's CSS (`currentColor` and classes), so it follows light, dark and forced
/// colours; the words come in already translated.
struct MonthlyChart {
    /// One bar.
    struct Bar: Equatable, Sendable {
        /// `2023-06`, or `2023` when bars are years.
        let key: String
        let count: Int
        /// A January (or the first bar): where a year's mark goes.
        let startsYear: Bool
        let year: Int
        /// 1…12; nil when bars are years.
        var month: Int? = nil
    }

    /// The texts the picture carries.
    struct Words: Sendable {
        /// The picture's title.
        let title: String
        /// One sentence that says what it shows (the text alternative in short).
        let summary: String
        /// The vertical axis.
        let axis: String
        /// Short month names (`month.1` … `month.12`), under the bars when there are few.
        var monthNames: [String] = []
        /// A bar's tooltip.
        let bar: @Sendable (Bar) -> String
    }

    /// Up to this many bars, each carries its month's name.
    static let maxNamedMonths = 24

    /// Over this many months the bars are years: a chart of a century of months is no picture.
    static let maxMonthBars = 240

    let bars: [Bar]
    /// The first bar with the most tweets.
    var busiest: Bar? {
        guard let largest = bars.map(\.count).max(), largest > 0 else { return nil }
        return bars.first { $0.count == largest }
    }

    init(series: [(month: Month, count: Int)]) {
        if series.count <= Self.maxMonthBars {
            bars = series.enumerated().map { i, entry in
                Bar(
                    key: entry.month.yearText + "-" + entry.month.monthText, count: entry.count,
                    startsYear: i == 0 || entry.month.month == 1, year: entry.month.year, month: entry.month.month)
            }
        } else {
            var years: [Bar] = []
            for entry in series {
                if let last = years.last, last.year == entry.month.year {
                    years[years.count - 1] = Bar(
                        key: last.key, count: last.count + entry.count, startsYear: true, year: last.year)
                } else {
                    years.append(
                        Bar(key: entry.month.yearText, count: entry.count, startsYear: true, year: entry.month.year))
                }
            }
            bars = years
        }
    }

    // The picture's geometry, in viewBox units.
    static let width = 640.0
    static let height = 240.0
    static let left = 52.0
    static let right = 12.0
    static let top = 14.0
    static let bottom = 34.0

    /// The top of the vertical axis: 1, 2 or 5 times a power of ten, at least the largest count.
    static func scaleTop(_ largest: Int) -> Int {
        var step = 1
        while true {
            for m in [1, 2, 5] where m * step >= largest { return m * step }
            step *= 10
        }
    }

    /// The SVG element; `id` makes its title's and description's ids unique on the page.
    func svg(id: String, words: Words) -> String {
        let w = Self.width
        let h = Self.height
        let plotW = w - Self.left - Self.right
        let plotH = h - Self.top - Self.bottom
        let largest = bars.map(\.count).max() ?? 0
        let scale = Self.scaleTop(max(1, largest))
        let base = Self.top + plotH
        var out = """
            <svg class="chart" viewBox="0 0 \(SVGText.number(w)) \(SVGText.number(h))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" xmlns="http://www.w3.org/2000/svg">\
            <title id="\(id)-title">\(SVGText.escaped(words.title))</title>\
            <desc id="\(id)-desc">\(SVGText.escaped(words.summary))</desc>

            """
        // Horizontal grid lines with their counts: 0, half (when a whole number: no "0.5
        // tweets"), top.
        for fraction in scale % 2 == 0 ? [0.0, 0.5, 1.0] : [0.0, 1.0] {
            let y = base - plotH * fraction
            let value = Double(scale) * fraction
            let label = value == value.rounded() ? String(Int(value)) : SVGText.number(value)
            out += """
                <line class="chart-grid" x1="\(SVGText.number(Self.left))" y1="\(SVGText.number(y))" \
                x2="\(SVGText.number(w - Self.right))" y2="\(SVGText.number(y))"/>\
                <text class="chart-tick" x="\(SVGText.number(Self.left - 6))" y="\(SVGText.number(y + 4))" \
                text-anchor="end">\(label)</text>

                """
        }
        out += """
            <text class="chart-axis" transform="translate(14 \(SVGText.number(Self.top + plotH / 2))) rotate(-90)" \
            text-anchor="middle">\(SVGText.escaped(words.axis))</text>

            """
        let slot = bars.isEmpty ? plotW : plotW / Double(bars.count)
        let gap = slot > 4 ? slot * 0.2 : 0
        let busiest = self.busiest
        // Year marks: at most about 12 labels, whatever the span.
        let yearsShown = max(1, bars.count(where: \.startsYear))
        let labelEvery = max(1, (yearsShown + 11) / 12)
        var yearNumber = 0
        let namesMonths = bars.count <= Self.maxNamedMonths && words.monthNames.count == 12
        // Over a year of bars, every other month's name (January, March, …): side by side
        // they would run into each other.
        let monthsNamed = bars.count > 12 ? 2 : 1
        for (i, bar) in bars.enumerated() {
            let x = Self.left + slot * Double(i)
            if namesMonths, let month = bar.month, (month - 1) % monthsNamed == 0 {
                out += """
                    <text class="chart-tick chart-month" x="\(SVGText.number(x + slot / 2))" y="\(SVGText.number(base + 15))" \
                    text-anchor="middle">\(SVGText.escaped(words.monthNames[month - 1]))</text>

                    """
            }
            if bar.startsYear {
                if yearNumber % labelEvery == 0 {
                    out += """
                        <line class="chart-year" x1="\(SVGText.number(x))" y1="\(SVGText.number(base))" \
                        x2="\(SVGText.number(x))" y2="\(SVGText.number(base + (namesMonths ? 32 : 8)))"/>\
                        <text class="chart-tick" x="\(SVGText.number(x + 4))" y="\(SVGText.number(base + (namesMonths ? 30 : 22)))">\(Month(year: bar.year, month: 1).yearText)</text>

                        """
                }
                yearNumber += 1
            }
            let barH = plotH * Double(bar.count) / Double(scale)
            let isBusiest = bar.key == busiest?.key
            out += """
                <rect class="bar\(isBusiest ? " busiest" : "")" x="\(SVGText.number(x + gap / 2))" \
                y="\(SVGText.number(base - barH))" width="\(SVGText.number(max(0.5, slot - gap)))" \
                height="\(SVGText.number(barH))" data-key="\(bar.key)" data-count="\(bar.count)">\
                <title>\(SVGText.escaped(words.bar(bar)))</title></rect>

                """
        }
        out += """
            <line class="chart-base" x1="\(SVGText.number(Self.left))" y1="\(SVGText.number(base))" \
            x2="\(SVGText.number(w - Self.right))" y2="\(SVGText.number(base))"/>
            </svg>
            """
        return out
    }
}
