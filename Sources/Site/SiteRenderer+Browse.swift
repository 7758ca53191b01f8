import Model
import Mustache
import Support

/// The pages for browsing by date and by number (SPEC 7): the archive, every hashtag, the
/// most-liked tweets, the numbers and charts.
extension SiteRenderer {
    private func archiveYearPage(_ y: Int, _ number: Int, path: String) throws -> PageView {
        let year = site.archive.years[y]
        let (range, pager) = paginate(count: year.tweets.count, number) {
            SitePaths.archive(year: year.year, page: $0)
        }
        return try titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive(year: year.year, page: number),
                kindFlag: "isArchiveYear",
                values: [
                    "year": yearView(y), "months": year.months.map { monthView($0) }.mustacheValue,
                    "tweets": try tweets(year.tweets[range]), "pager": pager.mustacheValue,
                    "archiveURL": .string(SitePaths.href(SitePaths.archive)),
                ]),
            "archiveYear")
    }

    private func archiveMonthPage(_ y: Int, _ m: Int, _ number: Int, path: String) throws -> PageView {
        let entry = site.archive.years[y].months[m]
        let (range, pager) = paginate(count: entry.tweets.count, number) { SitePaths.archive(entry.month, page: $0) }
        return try titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive(entry.month, page: number),
                kindFlag: "isArchiveMonth",
                values: [
                    "year": yearView(y), "month": monthView(entry),
                    "tweets": try tweets(entry.tweets[range]), "pager": pager.mustacheValue,
                    "archiveURL": .string(SitePaths.href(SitePaths.archive)),
                ]),
            "archiveMonth")
    }

    private func archivePage(path: String) throws -> PageView {
        try titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive, kindFlag: "isArchive",
                values: [
                    "years": site.archive.years.indices.map(yearView).mustacheValue,
                    "hasYears": .bool(!site.archive.years.isEmpty),
                ]),
            "archive")
    }

    private func tagIndexPage(path: String) throws -> PageView {
        try titled(
            PageView(
                site: site, path: path, folder: SitePaths.tagIndex, kindFlag: "isTagIndex",
                values: [
                    "tags": site.tagsByUse.map(tagView).mustacheValue, "hasTags": .bool(!site.tagsByUse.isEmpty),
                ]),
            "tagIndex")
    }

    private func topPage(path: String) throws -> PageView {
        try titled(
            PageView(
                site: site, path: path, folder: SitePaths.top, kindFlag: "isTop",
                values: ["tweets": try tweets(site.top)]),
            "top")
    }

    private func statsPage(path: String) throws -> PageView {
        let snapshot = site.snapshot
        let replies = snapshot.tweets.count { $0.isReply }
        let places = snapshot.userActivity.reduce(0) { $0 + $1.favorites.count }
        var view = PageView(
            site: site, path: path, folder: SitePaths.stats, kindFlag: "isStats",
            values: [
                "totals": [
                    "users": .int(snapshot.users.count), "tweets": .int(snapshot.tweets.count),
                    "replies": .int(replies), "likes": .int(snapshot.likeCount), "places": .int(places),
                ],
                "hasTopTags": .bool(!site.tagsByUse.isEmpty),
                "hasActiveUsers": .bool(!Self.mostActive(snapshot).isEmpty),
                "topTags": site.tagsByUse.prefix(Self.statsListLength).map(tagView).mustacheValue,
                "activeUsers": Self.mostActive(snapshot).prefix(Self.statsListLength).map { u -> MustacheValue in
                    let activity = snapshot.userActivity[u]
                    return [
                        "user": UserView(site: site, index: u).mustacheValue,
                        "count": .int(activity.tweets.count + activity.replies.count),
                    ]
                }.mustacheValue,
            ])
        view.values["chart"] = try chart(
            site.archive.monthlyCounts(of: snapshot.tweets.indices), id: "stats-chart", context: view)
        return try titled(view, "stats")
    }

    /// How many hashtags and users `/stats/` lists (SPEC 7).
    static let statsListLength = 10

    /// Users by tweets and replies, most first, ties by handle (code point order).
    static func mostActive(_ snapshot: Snapshot) -> [Int] {
        func count(_ u: Int) -> Int { snapshot.userActivity[u].tweets.count + snapshot.userActivity[u].replies.count }
        return snapshot.users.indices.filter { count($0) > 0 }.sorted { a, b in
            count(a) != count(b)
                ? count(a) > count(b)
                : codePointOrder(snapshot.users[a].handle, snapshot.users[b].handle)
        }
    }

    /// The pages of this file, by kind.
    func browsePageView(_ page: Page) throws -> PageView? {
        switch page.kind {
        case .archive: try archivePage(path: page.path)
        case .archiveYear(let y, let number): try archiveYearPage(y, number, path: page.path)
        case .archiveMonth(let y, let m, let number): try archiveMonthPage(y, m, number, path: page.path)
        case .tagIndex: try tagIndexPage(path: page.path)
        case .top: try topPage(path: page.path)
        case .stats: try statsPage(path: page.path)
        default: nil
        }
    }

    // MARK: - Parts

    func yearView(_ y: Int) -> MustacheValue {
        let year = site.archive.years[y]
        return [
            "year": .string(Month(year: year.year, month: 1).yearText),
            "url": .string(SitePaths.href(SitePaths.archive(year: year.year, page: 1))),
            "count": .int(year.tweets.count), "isOne": .bool(year.tweets.count == 1),
        ]
    }

    func monthView(_ entry: ArchiveIndex.MonthEntry) -> MustacheValue {
        var view = monthView(entry.month)
        view["count"] = .int(entry.tweets.count)
        view["isOne"] = .bool(entry.tweets.count == 1)
        return view.mustacheValue
    }

    func monthView(_ month: Month) -> [String: MustacheValue] {
        [
            "year": .string(month.yearText), "month": .int(month.month), "month2": .string(month.monthText),
            "monthName": .string(site.words.longMonthNames[month.month - 1]),
            "url": .string(SitePaths.href(SitePaths.archive(month, page: 1))),
        ]
    }

    /// The month archive of tweet `t`'s date (a tweet page links it).
    func archiveLink(of t: Int) -> MustacheValue {
        monthView(site.archive.monthOfTweet[t]).mustacheValue
    }

    func tagView(_ i: Int) -> MustacheValue {
        let tag = site.snapshot.tags[i]
        return [
            "tag": .string(tag.tag), "tagLang": site.tagLangs[i].map(MustacheValue.string) ?? .null,
            "url": .string(SitePaths.href(site.paths.tag(i, page: 1))),
            "count": .int(tag.tweets.count), "isOne": .bool(tag.tweets.count == 1),
        ]
    }

    /// A chart of `series` (`chart.*` keys, docs/templates.md): the SVG, its summary, and the
    /// months as a table; nil when there is nothing to draw. `context` is the page's, for the words.
    func chart(_ series: [(month: Month, count: Int)], id: String, context: PageView) throws -> MustacheValue {
        guard !series.isEmpty else { return .null }
        let drawn = MonthlyChart(series: series)
        let busiest = drawn.busiest.flatMap { bar in
            series.first { $0.month.yearText + "-" + $0.month.monthText == bar.key }
        }
        let total = series.reduce(0) { $0 + $1.count }
        var view = context
        let facts: [String: MustacheValue] = [
            "total": .int(total), "isOne": .bool(total == 1),
            "first": monthView(series.first!.month).mustacheValue, "last": monthView(series.last!.month).mustacheValue,
            "busiest": busiest.map { monthView($0.month).mustacheValue } ?? .null,
            "busiestCount": .int(busiest?.count ?? 0),
            "months": series.filter { $0.count > 0 }.map { entry -> MustacheValue in
                var month = monthView(entry.month)
                month["count"] = .int(entry.count)
                return month.mustacheValue
            }.mustacheValue,
        ]
        view.values["chart"] = facts.mustacheValue
        let words = site.words
        let summary = try words.text("chart.summary", view)
        let axis = try words.text("chart.axis", view)
        let title = try words.text("chart.title", view)
        let svg = drawn.svg(
            id: id,
            words: MonthlyChart.Words(title: title, summary: summary, axis: axis, monthNames: words.monthNames) {
                bar in "\(bar.key): \(bar.count)"
            })
        var result = facts
        result["summary"] = .string(summary)
        result["svgHTML"] = .string(svg)
        return result.mustacheValue
    }
}
