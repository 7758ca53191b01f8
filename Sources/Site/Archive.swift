import Model
import Store
import Support

/// A month of the calendar, in UTC (SPEC 7: dates are grouped in UTC).
struct Month: Hashable, Comparable, Sendable {
    let year: Int
    /// 1…12.
    let month: Int

    init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The UTC month of `t`.
    init(_ t: Timestamp) {
        let date = CivilDate.date(days: CivilDate.day(ofSeconds: t.seconds))
        self.init(year: date.year, month: date.month)
    }

    static func < (a: Month, b: Month) -> Bool { (a.year, a.month) < (b.year, b.month) }

    /// The month after this one.
    var next: Month { month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1) }

    /// `2023`, `0987`: four digits, as RFC 3339 writes years (a path segment).
    var yearText: String { Self.digits(year, 4) }
    /// `06`.
    var monthText: String { Self.digits(month, 2) }

    private static func digits(_ n: Int, _ width: Int) -> String {
        let text = String(abs(n))
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// The tweets by year and month (SPEC 7), newest first, as the archive pages show them.
struct ArchiveIndex: Sendable {
    struct MonthEntry: Sendable {
        let month: Month
        /// Feed order.
        let tweets: [Int]
    }
    struct YearEntry: Sendable {
        let year: Int
        /// Feed order.
        let tweets: [Int]
        /// Newest first.
        let months: [MonthEntry]
    }

    /// Newest first.
    let years: [YearEntry]
    /// Per tweet, its month.
    let monthOfTweet: [Month]

    init(snapshot: Snapshot) {
        // (By index: mapping the tweets copied, and retained, each whole tweet.)
        let months = snapshot.tweets.indices.map { Month(snapshot.tweets[$0].timestamp) }
        monthOfTweet = months
        // Tweets are in feed order (newest first), so each month's tweets are one run.
        var years: [YearEntry] = []
        var runs: [MonthEntry] = []
        var start = 0
        func closeYear() {
            guard let first = runs.first else { return }
            years.append(YearEntry(year: first.month.year, tweets: runs.flatMap(\.tweets), months: runs))
            runs = []
        }
        for end in 1..<(months.count + 1) where end == months.count || months[end] != months[start] {
            if let last = runs.last, last.month.year != months[start].year { closeYear() }
            runs.append(MonthEntry(month: months[start], tweets: Array(start..<end)))
            start = end
        }
        closeYear()
        self.years = years
    }

    /// Tweets per month from the first month of `tweets` to the last, months without any
    /// included (a chart's bars), oldest first.
    func monthlyCounts(of tweets: some Sequence<Int>) -> [(month: Month, count: Int)] {
        // Months as consecutive numbers (year · 12 + month − 1), counted in an array: a
        // profile's fingerprint takes this on every build.
        let numbers = tweets.map { monthOfTweet[$0].year * 12 + monthOfTweet[$0].month - 1 }
        guard let first = numbers.min(), let last = numbers.max() else { return [] }
        var counts = [Int](repeating: 0, count: last - first + 1)
        for n in numbers { counts[n - first] += 1 }
        let firstYear = first >= 0 ? first / 12 : (first - 11) / 12
        var m = Month(year: firstYear, month: first - firstYear * 12 + 1)
        var series: [(month: Month, count: Int)] = []
        series.reserveCapacity(counts.count)
        for count in counts {
            series.append((m, count))
            m = m.next
        }
        return series
    }
}
