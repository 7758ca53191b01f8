import Model
import Mustache
import Support

/// The declarations of the pages for browsing by date and by number (SPEC 7): the archive,
/// every hashtag, the most-liked tweets, the numbers and charts (`PageDeclaration`).
extension SiteRenderer {
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

/// `/archive/`: the years.
struct ArchivePage: HTMLPage {
    static let template = "archive"

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        return try r.titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive, kindFlag: "isArchive",
                values: [
                    "years": site.archive.years.indices.map(r.yearView).mustacheValue,
                    "hasYears": .bool(!site.archive.years.isEmpty),
                ]),
            "archive")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        for year in f.site.archive.years {
            f.combine(year.year)
            f.combine(year.tweets.count)
        }
    }
}

/// Page `number` of a year of the archive (`year`: an index into `ArchiveIndex.years`).
struct ArchiveYearPage: HTMLPage {
    static let template = "archive-year"
    static let showsCards = true
    let year: Int
    let number: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let y = year
        let year = site.archive.years[y]
        let (range, pager) = r.paginate(count: year.tweets.count, number) {
            SitePaths.archive(year: year.year, page: $0)
        }
        return try r.titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive(year: year.year, page: number),
                kindFlag: "isArchiveYear",
                values: [
                    "year": r.yearView(y), "months": year.months.map { r.monthView($0) }.mustacheValue,
                    "tweets": try r.tweets(year.tweets[range]), "pager": pager.mustacheValue,
                    "archiveURL": .string(SitePaths.href(SitePaths.archive)),
                ]),
            "archiveYear")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let year = f.site.archive.years[year]
        f.combine(year.year)
        for month in year.months {
            f.combine(month.month.month)
            f.combine(month.tweets.count)
        }
        f.slice(year.tweets, number)
    }
}

/// Page `number` of a month of the archive (indices into `ArchiveIndex.years` and its `months`).
struct ArchiveMonthPage: HTMLPage {
    static let template = "archive-month"
    static let showsCards = true
    let year: Int
    let month: Int
    let number: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let entry = site.archive.years[year].months[month]
        let (range, pager) = r.paginate(count: entry.tweets.count, number) { SitePaths.archive(entry.month, page: $0) }
        return try r.titled(
            PageView(
                site: site, path: path, folder: SitePaths.archive(entry.month, page: number),
                kindFlag: "isArchiveMonth",
                values: [
                    "year": r.yearView(year), "month": r.monthView(entry),
                    "tweets": try r.tweets(entry.tweets[range]), "pager": pager.mustacheValue,
                    "archiveURL": .string(SitePaths.href(SitePaths.archive)),
                ]),
            "archiveMonth")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let year = f.site.archive.years[year]
        f.combine(year.year)
        f.combine(year.tweets.count)
        f.combine(year.months[month].month.month)
        f.slice(year.months[month].tweets, number)
    }
}

/// `/tags/`: every hashtag, most used first.
struct TagIndexPage: HTMLPage {
    static let template = "tags"

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        return try r.titled(
            PageView(
                site: site, path: path, folder: SitePaths.tagIndex, kindFlag: "isTagIndex",
                values: [
                    "tags": site.tagsByUse.map(r.tagView).mustacheValue, "hasTags": .bool(!site.tagsByUse.isEmpty),
                ]),
            "tagIndex")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let tags = f.snapshot.tags
        for i in f.site.tagsByUse {
            f.combine(tags[i].tag)
            f.combine(tags[i].tweets.count)
        }
    }
}

/// `/top/`: the most-liked tweets.
struct TopPage: HTMLPage {
    static let template = "top"
    static let showsCards = true

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        try r.titled(
            PageView(
                site: r.site, path: path, folder: SitePaths.top, kindFlag: "isTop",
                values: ["tweets": try r.tweets(r.site.top)]),
            "top")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        f.cards(f.site.top)
    }
}

/// `/stats/`: the numbers, the most used tags, the most active users, tweets per month.
struct StatsPage: HTMLPage {
    static let template = "stats"

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let snapshot = site.snapshot
        let replies = snapshot.tweets.count { $0.isReply }
        let places = snapshot.userActivity.reduce(0) { $0 + $1.favorites.count }
        let length = SiteRenderer.statsListLength
        var view = PageView(
            site: site, path: path, folder: SitePaths.stats, kindFlag: "isStats",
            values: [
                "totals": [
                    "users": .int(snapshot.users.count), "tweets": .int(snapshot.tweets.count),
                    "replies": .int(replies), "likes": .int(snapshot.likeCount), "places": .int(places),
                ],
                "hasTopTags": .bool(!site.tagsByUse.isEmpty),
                "hasActiveUsers": .bool(!SiteRenderer.mostActive(snapshot).isEmpty),
                "topTags": site.tagsByUse.prefix(length).map(r.tagView).mustacheValue,
                "activeUsers": SiteRenderer.mostActive(snapshot).prefix(length).map { u -> MustacheValue in
                    let activity = snapshot.userActivity[u]
                    return [
                        "user": UserView(site: site, index: u).mustacheValue,
                        "count": .int(activity.tweets.count + activity.replies.count),
                    ]
                }.mustacheValue,
            ])
        view.values["chart"] = try r.chart(
            site.archive.monthlyCounts(of: snapshot.tweets.indices), id: "stats-chart", context: view)
        return try r.titled(view, "stats")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let snapshot = f.snapshot
        let length = SiteRenderer.statsListLength
        f.combine(snapshot.users.count)
        f.combine(snapshot.tweets.count)
        f.combine(snapshot.tweets.count { $0.isReply })
        f.combine(snapshot.likeCount)
        f.combine(snapshot.userActivity.reduce(0) { $0 + $1.favorites.count })
        for i in f.site.tagsByUse.prefix(length) {
            f.combine(snapshot.tags[i].tag)
            f.combine(snapshot.tags[i].tweets.count)
        }
        for u in SiteRenderer.mostActive(snapshot).prefix(length) { f.user(u) }
        f.combine(f.site.archive.monthlyCounts(of: snapshot.tweets.indices))
    }
}
