import Foundation
import Store
import Testing

@testable import Site

/// The SVG writers on their own (Site/Charts): what they draw for given numbers.
@Suite struct MonthlyChartDrawing {
    static func series(_ counts: [Int], from start: Month = Month(year: 2022, month: 11)) -> [(
        month: Month, count: Int
    )] {
        var month = start
        return counts.map { count in
            defer { month = month.next }
            return (month, count)
        }
    }

    static let words = MonthlyChart.Words(title: "T <1>", summary: "S & s", axis: "Tweets") { "\($0.key)=\($0.count)" }

    @Test func oneBarPerMonthWithItsCountAndHeight() throws {
        let chart = MonthlyChart(series: Self.series([3, 0, 10, 5]))
        let svg = chart.svg(id: "c", words: Self.words)
        #expect(attributeValues("data-key", in: svg) == ["2022-11", "2022-12", "2023-01", "2023-02"])
        #expect(attributeValues("data-count", in: svg) == ["3", "0", "10", "5"])
        // The axis tops at 10 (1, 2 or 5 times a power of ten): heights in proportion.
        let heights = attributeValues("height", in: svg).dropFirst(0).compactMap(Double.init)
        let plot = MonthlyChart.height - MonthlyChart.top - MonthlyChart.bottom
        #expect(heights == [plot * 0.3, 0, plot, plot * 0.5].map { Double(SVGText.number($0))! })
        #expect(svg.contains("<title>2023-01=10</title>"))
    }

    @Test func busiestMonthIsTheFirstWithTheMost() {
        let chart = MonthlyChart(series: Self.series([2, 7, 1, 7]))
        #expect(chart.busiest?.key == "2022-12")
        let svg = chart.svg(id: "c", words: Self.words)
        #expect(svg.components(separatedBy: "class=\"bar busiest\"").count == 2)
        #expect(MonthlyChart(series: Self.series([0, 0])).busiest == nil)
    }

    @Test func yearsAreMarkedAtTheFirstBarAndEachJanuary() {
        let svg = MonthlyChart(series: Self.series(Array(repeating: 1, count: 16))).svg(id: "c", words: Self.words)
        #expect(svg.contains(">2022</text>") && svg.contains(">2023</text>") && svg.contains(">2024</text>"))
        #expect(svg.components(separatedBy: "class=\"chart-year\"").count == 4)
    }

    @Test func textIsEscapedAndLabelled() {
        let svg = MonthlyChart(series: Self.series([1])).svg(id: "x", words: Self.words)
        #expect(svg.contains("<title id=\"x-title\">T &lt;1&gt;</title>"))
        #expect(svg.contains("<desc id=\"x-desc\">S &amp; s</desc>"))
        #expect(svg.contains("aria-labelledby=\"x-title x-desc\""))
        #expect(!svg.contains("style="), "colours come from the page's CSS")
    }

    @Test func aLongSpanIsDrawnByYear() {
        let counts = Array(repeating: 1, count: MonthlyChart.maxMonthBars + 1)
        let chart = MonthlyChart(series: Self.series(counts, from: Month(year: 2000, month: 7)))
        #expect(chart.bars.first?.key == "2000" && chart.bars.first?.count == 6)
        #expect(chart.bars.reduce(0) { $0 + $1.count } == counts.count)
    }

    @Test(arguments: [(1, 1), (3, 5), (10, 10), (11, 20), (45, 50), (120, 200), (999, 1000)])
    func scaleTops(largest: Int, top: Int) {
        #expect(MonthlyChart.scaleTop(largest) == top)
    }

    @Test func monthsInUTC() {
        #expect(Month(Timestamp(seconds: 1_672_531_199)) == Month(year: 2022, month: 12))  // 2022-12-31T23:59:59Z
        #expect(Month(Timestamp(seconds: 1_672_531_200)) == Month(year: 2023, month: 1))
        #expect(Month(Timestamp(seconds: -1)) == Month(year: 1969, month: 12))
        #expect(Month(Timestamp(seconds: 951_782_400)) == Month(year: 2000, month: 2))  // 2000-02-29
        #expect(Month(year: 987, month: 3).yearText == "0987")
    }
}

@Suite struct PlaceMapDrawing {
    static func point(_ n: Int, _ lat: Double, _ lon: Double) -> PlaceMap.Point {
        PlaceMap.Point(number: n, latitude: lat, longitude: lon, href: "p.html#place-\(n)", label: "\(n). <b>")
    }

    @Test func webMercator() {
        let origin = PlaceMap.project(latitude: 0, longitude: 0)
        #expect(abs(origin.x - 0.5) < 1e-12 && abs(origin.y - 0.5) < 1e-12)
        let northEast = PlaceMap.project(latitude: 85.051_128_78, longitude: 180)
        #expect(abs(northEast.x - 1) < 1e-12 && abs(northEast.y) < 1e-6)
        // Beyond the projection's latitude the point is clamped, not infinite.
        #expect(PlaceMap.project(latitude: 90, longitude: 0).y.isFinite)
    }

    @Test func pointsFillTheBoxKeepingTheirShape() {
        let map = PlaceMap(points: [Self.point(1, 37.5, 127.0), Self.point(2, 35.1, 129.0), Self.point(3, 33.5, 126.5)])
        let p = map.positions()
        for (x, y) in p {
            #expect(x >= PlaceMap.margin - 1e-9 && x <= PlaceMap.width - PlaceMap.margin + 1e-9)
            #expect(y >= PlaceMap.margin - 1e-9 && y <= PlaceMap.height - PlaceMap.margin + 1e-9)
        }
        // East is right, north is up.
        #expect(p[1].x > p[0].x && p[1].y > p[0].y && p[2].y > p[1].y)
        // One scale for both axes: the ratio of distances is the projection's.
        let a = PlaceMap.project(latitude: 37.5, longitude: 127.0)
        let b = PlaceMap.project(latitude: 35.1, longitude: 129.0)
        #expect(abs((p[1].x - p[0].x) / (p[1].y - p[0].y) - (b.x - a.x) / (b.y - a.y)) < 1e-9)
    }

    @Test func onePlaceIsInTheMiddle() {
        let p = PlaceMap(points: [Self.point(1, 10, 20)]).positions()
        #expect(abs(p[0].x - PlaceMap.width / 2) < 1e-9)
    }

    @Test func numberedLinkedPointsAndTheNote() {
        let svg = PlaceMap(points: [Self.point(1, 1, 1), Self.point(3, 2, 2)]).svg(
            id: "m", words: PlaceMap.Words(title: "Map & more", notDrawn: "1 place is not on the map"))
        #expect(attributeValues("data-place-number", in: svg) == ["1", "3"])
        #expect(attributeValues("href", in: svg) == ["p.html#place-1", "p.html#place-3"])
        #expect(attributeValues("aria-label", in: svg) == ["1. <b>", "3. <b>"])  // escaped in the file
        #expect(svg.contains("aria-label=\"1. &lt;b&gt;\""))
        #expect(svg.contains("<title id=\"m-title\">Map &amp; more</title>"))
        #expect(svg.contains(">1 place is not on the map</text>"))
        #expect(
            !PlaceMap(points: [Self.point(1, 1, 1)]).svg(id: "m", words: .init(title: "M", notDrawn: nil)).contains(
                "map-note"))
    }
}

@Suite struct MonthlyChartMonthNames {
    static let names = ["J", "F", "M", "A", "My", "Jn", "Jl", "Au", "S", "O", "N", "D"]

    @Test func fewBarsCarryTheirMonthsName() {
        let words = MonthlyChart.Words(title: "t", summary: "s", axis: "a", monthNames: Self.names) { _ in "" }
        let svg = MonthlyChart(series: MonthlyChartDrawing.series([1, 2, 3])).svg(id: "c", words: words)
        #expect(svg.components(separatedBy: "class=\"chart-tick chart-month\"").count == 4)
        #expect(svg.contains(">N</text>") && svg.contains(">D</text>") && svg.contains(">J</text>"))
        let many = MonthlyChart(series: MonthlyChartDrawing.series(Array(repeating: 1, count: 30))).svg(
            id: "c", words: words)
        #expect(!many.contains("chart-month"))
        // Two years of bars: every other month named (they ran together, "JanFebMar").
        let two = MonthlyChart(series: MonthlyChartDrawing.series(Array(repeating: 1, count: 24))).svg(
            id: "c", words: words)
        #expect(two.components(separatedBy: "class=\"chart-tick chart-month\"").count - 1 == 12)
        #expect(two.contains(">J</text>") && two.contains(">M</text>") && !two.contains(">F</text>"))
    }

    /// A count axis has whole numbers only: a top of 1 or 5 has no half line ("0.5 tweets").
    @Test func ticksAreWholeNumbers() {
        let words = MonthlyChart.Words(title: "t", summary: "s", axis: "a") { _ in "" }
        for (counts, ticks) in [
            ([1, 0], ["0", "1"]), ([3, 4], ["0", "5"]), ([2, 1], ["0", "1", "2"]), ([7], ["0", "5", "10"]),
        ] {
            let svg = MonthlyChart(series: MonthlyChartDrawing.series(counts)).svg(id: "c", words: words)
            let labels = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().map { $0.prefix { $0 != "<" } }
            #expect(labels.map(String.init) == ticks, "\(counts)")
        }
    }
}
