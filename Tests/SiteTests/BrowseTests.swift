import Foundation
import Site
import Store
import TestSupport
import Testing

/// SPEC 7, refereed: each page kind checked against what the test computes from the store it
/// builds itself, without asking Roost.
@Suite struct BrowseReferee {
    /// A tweet of the referee store, as the test knows it.
    struct Known {
        let id: String
        let uid: String
        /// RFC 3339 in UTC (`…Z`), so text order is time order.
        let time: String
        let tags: [String]
        let replyTo: String?
    }

    static let pageSize = 4
    static let uids = ["uAnn", "uBen", "uCy", "uQuiet"]

    /// 130 tweets over two years with a month left out (a zero bar), conversations (a tree, a
    /// missing ancestor, a cycle), tags, likes (some by a user who does not exist), places.
    static let known: [Known] = {
        var tweets: [Known] = []
        let start = Date(timeIntervalSince1970: 1_664_582_400)  // 2022-10-01T00:00:00Z
        let format = ISO8601DateFormatter()
        format.timeZone = TimeZone(identifier: "UTC")
        let tagNames = ["swift", "run", "cafe", "seoul"]
        for i in 0..<130 {
            let day = i * 3 + (i >= 30 ? 40 : 0)  // nothing from late December to early February
            let time = format.string(from: start.addingTimeInterval(Double(day) * 86_400 + Double(i % 7) * 3_600))
            let tags = (0..<(i % 3)).map { tagNames[(i + $0) % tagNames.count] }
            tweets.append(Known(id: String(format: "t%03d", i), uid: uids[i % 3], time: time, tags: tags, replyTo: nil))
        }
        // A conversation under t100: r1 and r3 at the same time (ties by ID), r2 under r1, r4 under r2.
        let t100 = tweets[100].time
        func later(_ minutes: Int) -> String {
            format.string(from: format.date(from: t100)!.addingTimeInterval(Double(minutes) * 60))
        }
        tweets += [
            Known(id: "r3", uid: "uBen", time: later(5), tags: [], replyTo: "t100"),
            Known(id: "r1", uid: "uCy", time: later(5), tags: [], replyTo: "t100"),
            Known(id: "r2", uid: "uAnn", time: later(6), tags: ["swift"], replyTo: "r1"),
            Known(id: "r4", uid: "uBen", time: later(7), tags: [], replyTo: "r2"),
            Known(id: "r5", uid: "uAnn", time: later(4), tags: [], replyTo: "r3"),
            Known(id: "m1", uid: "uAnn", time: later(8), tags: [], replyTo: "gone"),
            Known(id: "m2", uid: "uBen", time: later(9), tags: [], replyTo: "m1"),
            Known(id: "y1", uid: "uAnn", time: later(10), tags: [], replyTo: "y2"),
            Known(id: "y2", uid: "uBen", time: later(11), tags: [], replyTo: "y1"),
        ]
        return tweets
    }()

    /// (uid, tweet) pairs; uGhost's do not count (SPEC 4).
    static let likes: [(String, String)] = {
        var likes: [(String, String)] = []
        for (i, t) in known.enumerated() {
            for (j, uid) in (uids + ["uGhost"]).enumerated() where (i * 7 + j * 3) % 5 < (i % 4) {
                likes.append((uid, t.id))
            }
        }
        return likes
    }()

    static let documents: [Document] = {
        var docs = [
            user("uAnn", "ann"), user("uBen", "ben"), user("uCy", "cy"), user("uQuiet", "quiet"),
            favorite(
                "uAnn", "p1", "Namsan", coordinate: object(["latitude": .double(37.55), "longitude": .double(126.99)])),
            favorite(
                "uAnn", "p2", "Busan",
                coordinate: object(["latitude": .string("35.18"), "longitude": .string("129.07")])),
            favorite(
                "uAnn", "p3", "Atlantis", coordinate: object(["latitude": .string("north"), "longitude": .double(1)])),
            favorite("uAnn", "p4", "Cafe", address: "somewhere"),
            favorite("uBen", "p5", "Jeju", coordinate: .geoPoint(latitude: 33.5, longitude: 126.5)),
        ]
        for t in known {
            docs.append(
                tweet(
                    t.id, by: t.uid, at: t.time, "post " + t.tags.map { "#\($0)" }.joined(separator: " "),
                    replyTo: t.replyTo))
        }
        for (uid, id) in likes { docs.append(like(uid, id)) }
        return docs
    }()

    let site: RenderedSite
    init() throws { site = try render(Self.documents, config: SiteConfig(pageSize: Self.pageSize)) }

    static var byID: [String: Known] { Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) }) }
    /// Newest first, ties by ID.
    static func newestFirst(_ a: Known, _ b: Known) -> Bool { a.time != b.time ? a.time > b.time : a.id < b.id }
    static func likeCount(_ id: String) -> Int { likes.count { $0.1 == id && $0.0 != "uGhost" } }

    /// Every tweet on a paginated list, page after page.
    func allPages(_ folder: String) throws -> [String] {
        var ids: [String] = []
        var n = 1
        while let html = site[folder + (n == 1 ? "" : "page/\(n)/") + "index.html"] {
            let onPage = tweetIDs(html)
            #expect(onPage.count <= Self.pageSize)
            ids += onPage
            n += 1
        }
        return ids
    }

    // MARK: Conversations

    /// Ancestors from the root, the tweet, then replies depth first, each level oldest first.
    static func conversation(_ id: String) -> (ids: [String], cut: Bool) {
        let byID = self.byID
        var up: [String] = []
        var seen: Set<String> = [id]
        var cut = false
        var current = byID[id]!
        while let parent = current.replyTo {
            guard let p = byID[parent], seen.insert(parent).inserted else {
                cut = true
                break
            }
            up.insert(parent, at: 0)
            current = p
        }
        var down: [String] = []
        func visit(_ node: String) {
            let children = known.filter { $0.replyTo == node }.sorted {
                $0.time != $1.time ? $0.time < $1.time : $0.id < $1.id
            }
            for child in children where seen.insert(child.id).inserted {
                down.append(child.id)
                visit(child.id)
            }
        }
        visit(id)
        return (up + [id] + down, cut)
    }

    @Test(arguments: ["t100", "r1", "r2", "r3", "r4", "r5", "m1", "m2", "y1", "y2", "t005"])
    func conversationOrder(id: String) throws {
        let html = try site.page("t/\(id)/index.html")
        let expected = Self.conversation(id)
        #expect(tweetIDs(html) == expected.ids, "\(id)")
        #expect(html.contains("class=\"thread-unavailable\"") == expected.cut, "\(id)")
        let current = try #require(section(html, from: "aria-current=\"true\">", to: "</article>"))
        #expect(tweetIDs(current) == [id])
    }

    @Test func repliesCarryTheirDepth() throws {
        let html = try site.page("t/t100/index.html")
        #expect(attributeValues("data-depth", in: html) == ["1", "2", "3", "1", "2"])  // r1 r2 r4 r3 r5
    }

    // MARK: Archive

    @Test func archiveYearsAndMonths() throws {
        var years: [String: Int] = [:]
        var months: [String: Int] = [:]
        for t in Self.known {
            years[String(t.time.prefix(4)), default: 0] += 1
            months[String(t.time.prefix(7)), default: 0] += 1
        }
        let index = try site.page("archive/index.html")
        #expect(
            attributeValues("href", in: section(index, from: "<main", to: "</main>")!)
                == years.keys.sorted(by: >).map { "archive/\($0)/index.html" })
        for (year, count) in years {
            #expect(index.contains("\(year)</a> <span class=\"index-count\">\(count) tweets</span>"), "\(year)")
            let page = try site.page("archive/\(year)/index.html")
            let list = try #require(section(page, from: "<ul class=\"index-list archive-months\">", to: "</ul>"))
            let expected = months.keys.filter { $0.hasPrefix(year) }.sorted(by: >)
            #expect(
                attributeValues("href", in: list)
                    == expected.map { "archive/\($0.replacingOccurrences(of: "-", with: "/"))/index.html" })
            for month in expected {
                #expect(list.contains("</a> <span class=\"index-count\">\(months[month]!) tweet"), "\(month)")
            }
            #expect(
                try allPages("archive/\(year)/")
                    == Self.known.filter { $0.time.hasPrefix(year) }.sorted(by: Self.newestFirst).map(\.id))
        }
        for month in months.keys {
            let folder = "archive/\(month.replacingOccurrences(of: "-", with: "/"))/"
            #expect(
                try allPages(folder)
                    == Self.known.filter { $0.time.hasPrefix(month) }.sorted(by: Self.newestFirst).map(\.id))
        }
        // No page for the month left out.
        #expect(site["archive/2023/01/index.html"] == nil)
    }

    @Test func aTweetPageLinksItsMonth() throws {
        let html = try site.page("t/t005/index.html")
        let month = Self.byID["t005"]!.time.prefix(7).replacingOccurrences(of: "-", with: "/")
        #expect(html.contains("<p class=\"tweet-archive\">Posted in <a href=\"archive/\(month)/index.html\">"))
    }

    // MARK: Tags, top, stats

    @Test func tagCountsMostUsedFirst() throws {
        var counts: [String: Int] = [:]
        for t in Self.known { for tag in Set(t.tags) { counts[tag, default: 0] += 1 } }
        let expected = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let html = try site.page("tags/index.html")
        #expect(
            attributeValues("href", in: section(html, from: "<ol class=\"index-list tag-index\">", to: "</ol>")!)
                == expected.map { "tags/\($0.key)/index.html" })
        for (tag, count) in expected {
            #expect(html.contains("#\(tag)</a> <span class=\"index-count\">\(count) tweets</span>"), "\(tag)")
        }
    }

    @Test func topHundredByLikesThenNewestThenID() throws {
        let expected = Self.known.sorted { a, b in
            let (la, lb) = (Self.likeCount(a.id), Self.likeCount(b.id))
            return la != lb ? la > lb : Self.newestFirst(a, b)
        }.prefix(100).map(\.id)
        #expect(Self.known.count > 100)
        let html = try site.page("top/index.html")
        #expect(tweetIDs(html) == Array(expected))
        for id in expected.prefix(5) {
            #expect(attributeValues("data-likes", in: card(id, in: html)!) == ["\(Self.likeCount(id))"])
        }
    }

    @Test func statsNumbers() throws {
        let html = try site.page("stats/index.html")
        func total(_ name: String) -> String? {
            section(html, from: "data-total=\"\(name)\">", to: "<").map {
                String($0.dropFirst("data-total=\"\(name)\">".count).dropLast())
            }
        }
        #expect(total("users") == "4")
        #expect(total("tweets") == "\(Self.known.count)")
        #expect(total("replies") == "\(Self.known.count { $0.replyTo != nil })")
        #expect(total("likes") == "\(Self.likes.count { $0.0 != "uGhost" })")
        #expect(total("places") == "5")
        // The most active users: tweets and replies, most first.
        var perUser: [String: Int] = [:]
        for t in Self.known { perUser[t.uid, default: 0] += 1 }
        let handles = ["uAnn": "ann", "uBen": "ben", "uCy": "cy"]
        let active = perUser.sorted { $0.value != $1.value ? $0.value > $1.value : handles[$0.key]! < handles[$1.key]! }
        let list = try #require(section(html, from: "<ol class=\"index-list active-users\">", to: "</ol>"))
        #expect(attributeValues("href", in: list) == active.map { "u/\(handles[$0.key]!)/index.html" })
    }

    /// The monthly counts, every month from the first to the last (zero where none).
    static func monthlyCounts(_ tweets: [Known]) -> [(String, Int)] {
        var counts: [String: Int] = [:]
        for t in tweets { counts[String(t.time.prefix(7)), default: 0] += 1 }
        guard let first = counts.keys.min(), let last = counts.keys.max() else { return [] }
        var result: [(String, Int)] = []
        var (y, m) = (Int(first.prefix(4))!, Int(first.suffix(2))!)
        while true {
            let key = String(format: "%04d-%02d", y, m)
            result.append((key, counts[key] ?? 0))
            if key == last { break }
            (y, m) = m == 12 ? (y + 1, 1) : (y, m + 1)
        }
        return result
    }

    /// The chart's bars, in order, as (key, count).
    func bars(_ html: String) -> [(String, Int)] {
        zip(attributeValues("data-key", in: html), attributeValues("data-count", in: html)).map { ($0, Int($1)!) }
    }

    @Test func chartBarsAreTheMonthlyCounts() throws {
        let stats = try site.page("stats/index.html")
        let expected = Self.monthlyCounts(Self.known)
        #expect(bars(stats).map(\.0) == expected.map(\.0))
        #expect(bars(stats).map(\.1) == expected.map(\.1))
        #expect(expected.contains { $0.1 == 0 }, "the store leaves a month out")
        let busiest = expected.first { $0.1 == expected.map(\.1).max()! }!
        #expect(stats.contains("<rect class=\"bar busiest\""))
        #expect(
            section(stats, from: "<rect class=\"bar busiest\"", to: "</rect>")!.contains("data-key=\"\(busiest.0)\""))
        for uid in ["uAnn", "uBen"] {
            let handle = uid == "uAnn" ? "ann" : "ben"
            let profile = try site.page("u/\(handle)/index.html")
            let own = Self.monthlyCounts(Self.known.filter { $0.uid == uid })
            #expect(bars(profile).map(\.0) == own.map(\.0), "\(handle)")
            #expect(bars(profile).map(\.1) == own.map(\.1), "\(handle)")
        }
        // A user with no tweets has no chart; other tabs carry none.
        #expect(try !site.page("u/quiet/index.html").contains("<svg"))
        #expect(try !site.page("u/ann/replies/index.html").contains("<svg"))
    }

    @Test func mapPointsAreTheNumericPlaces() throws {
        let html = try site.page("u/ann/favorites/index.html")
        // By name: Atlantis (not numeric), Busan, Cafe (no coordinate), Namsan.
        #expect(attributeValues("data-place-id", in: html) == ["p3", "p2", "p4", "p1"])
        let svg = try #require(section(html, from: "<svg", to: "</svg>"))
        #expect(attributeValues("data-place-number", in: svg) == ["2", "4"])
        #expect(
            attributeValues("href", in: svg) == [
                "u/ann/favorites/index.html#place-2", "u/ann/favorites/index.html#place-4",
            ])
        #expect(html.contains("id=\"place-2\""))
        #expect(svg.contains("2 places have no numeric coordinates and are not on the map."))
        // Busan is south-east of Namsan: right of it and lower in the picture.
        let circles = svg.components(separatedBy: "<circle ").dropFirst().map { tagText in
            (Double(attributeValues("cx", in: " " + tagText)[0])!, Double(attributeValues("cy", in: " " + tagText)[0])!)
        }
        #expect(circles.count == 2)
        #expect(circles[0].0 > circles[1].0 && circles[0].1 > circles[1].1)
        // Ben's one place has a map and no note.
        let ben = try site.page("u/ben/favorites/index.html")
        #expect(attributeValues("data-place-number", in: ben) == ["1"])
        #expect(!ben.contains("not on the map"))
        // A user with no places has no map.
        #expect(try !site.page("u/cy/favorites/index.html").contains("<svg"))
    }

    @Test func everyLinkPointsAtAPage() throws {
        #expect(brokenLinks(in: site.files, baseURL: "/").isEmpty)
    }
}

/// A long chain of replies: each page shows the root, the 23 nearest ancestors and the first
/// 100 replies, and says what it leaves out — so the site grows with the chain, not its square.
@Suite struct ConversationLimits {
    static let length = 130
    let site: RenderedSite

    init() throws {
        var docs = [user("uA", "ann")]
        for i in 0..<Self.length {
            docs.append(tweet("c\(i)", by: "uA", at: at(minute: i), replyTo: i == 0 ? nil : "c\(i - 1)"))
        }
        site = try render(docs)
    }

    @Test func theRootThenTheNearestAncestors() throws {
        let html = try site.page("t/c129/index.html")
        let ids = tweetIDs(html)
        #expect(ids.first == "c0")
        #expect(Array(ids.dropFirst()) == (106...129).map { "c\($0)" })
        #expect(
            html.contains("<p class=\"thread-gap\"><a href=\"t/c1/index.html\">More of this conversation: 105</a></p>"))
        #expect(try !site.page("t/c24/index.html").contains("thread-gap"), "24 ancestors: all shown")
        #expect(try site.page("t/c25/index.html").contains("More of this conversation: 1</a>"))
    }

    @Test func theFirstHundredReplies() throws {
        let html = try site.page("t/c0/index.html")
        #expect(tweetIDs(html) == (0...100).map { "c\($0)" })
        // SPEC 7: "a note says how many more there are".
        #expect(html.contains("29 more replies are not shown here"))
        #expect(try !site.page("t/c29/index.html").contains("not shown here"), "exactly 100 below")
        #expect(try site.page("t/c28/index.html").contains("1 more reply is not shown here"))
    }

    @Test func theNoteCountsInKorean() throws {
        var docs = [user("uA", "ann")]
        for i in 0..<Self.length {
            docs.append(tweet("c\(i)", by: "uA", at: at(minute: i), replyTo: i == 0 ? nil : "c\(i - 1)"))
        }
        let korean = try render(docs, config: SiteConfig(language: "ko"))
        #expect(try korean.page("t/c0/index.html").contains("답글이 29개 더 있습니다."))
        #expect(try korean.page("t/c28/index.html").contains("답글이 1개 더 있습니다."))
    }

    @Test func everyLinkPointsAtAPage() {
        #expect(brokenLinks(in: site.files, baseURL: "/").isEmpty)
    }
}
