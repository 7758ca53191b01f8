import Site
import Store
import TestSupport
import Testing

/// SPEC 3: at most `pageSize` tweets a page, newest first with ties by ID, linked to
/// the previous and next page; `page/N/` for N ≥ 2 only.
@Suite struct Pagination {
    static let pageSize = 20

    static func id(_ i: Int) -> String { "t\(i < 10 ? "0" : "")\(i)" }

    /// `count` tweets by mina, each tagged `#all`; every two share a timestamp, so ties are
    /// broken by ID; documents are given in reverse ID order, so input order is no help.
    static func store(_ count: Int) -> [Document] {
        [user("uMina", "mina")]
            + (0..<count).reversed().map { i in
                tweet(id(i), by: "uMina", at: at(minute: i / 2), "Tweet \(i) #all")
            }
    }

    /// Newest first, ties by ID ascending.
    static func expectedOrder(_ count: Int) -> [String] {
        (0..<count).sorted { a, b in a / 2 != b / 2 ? a / 2 > b / 2 : id(a) < id(b) }.map(id)
    }

    /// Checks the pages of one paginated list under `folder` (`""`, `u/mina/`, `tags/all/`).
    func checkPages(
        _ site: RenderedSite, folder: String, expected: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let count = max(1, (expected.count + Self.pageSize - 1) / Self.pageSize)
        func file(_ n: Int) -> String { n == 1 ? folder + "index.html" : folder + "page/\(n)/index.html" }
        for n in 1...count {
            let html = try site.page(file(n), sourceLocation: sourceLocation)
            let slice = Array(expected.dropFirst((n - 1) * Self.pageSize).prefix(Self.pageSize))
            #expect(tweetIDs(html) == slice, "tweets on \(file(n))", sourceLocation: sourceLocation)
            #expect(
                pagerLink("prev", in: html) == (n > 1 ? file(n - 1) : nil), "prev of \(file(n))",
                sourceLocation: sourceLocation)
            #expect(
                pagerLink("next", in: html) == (n < count ? file(n + 1) : nil), "next of \(file(n))",
                sourceLocation: sourceLocation)
            // The pager lists every page, the current one marked; no pager at all for one page.
            if count == 1 {
                #expect(!html.contains("class=\"pager\""), sourceLocation: sourceLocation)
            } else {
                let nav = try #require(
                    section(html, from: "<nav class=\"pager\"", to: "</nav>"),
                    sourceLocation: sourceLocation)
                let pageLinks = attributeValues("href", in: section(nav, from: "<ol", to: "</ol>") ?? "")
                #expect(pageLinks == (1...count).map(file), sourceLocation: sourceLocation)
                #expect(nav.components(separatedBy: "aria-current=\"page\"").count == 2, sourceLocation: sourceLocation)
                #expect(nav.contains("href=\"\(file(n))\" aria-current=\"page\""), sourceLocation: sourceLocation)
            }
        }
        // No page past the last, and never a `page/1/`.
        #expect(site[folder + "page/1/index.html"] == nil, sourceLocation: sourceLocation)
        #expect(site[folder + "page/\(count + 1)/index.html"] == nil, sourceLocation: sourceLocation)
        let paged = site.paths.filter { $0.hasPrefix(folder + "page/") }
        #expect(paged.count == count - 1, "\(paged)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [0, 1, 20, 21, 41])
    func feedProfileAndTagPages(count: Int) throws {
        let site = try render(Self.store(count), config: SiteConfig(pageSize: Self.pageSize))
        let expected = Self.expectedOrder(count)
        try checkPages(site, folder: "", expected: expected)
        try checkPages(site, folder: "u/mina/", expected: expected)
        if count > 0 {
            try checkPages(site, folder: "tags/all/", expected: expected)
        } else {
            #expect(site.paths.allSatisfy { !$0.hasPrefix("tags/") || $0 == "tags/index.html" })
        }
        // Every tweet has its permalink, nothing more.
        #expect(Set(site.paths.filter { $0.hasPrefix("t/") }) == Set(expected.map { "t/\($0)/index.html" }))
    }

    @Test func emptyFeedSaysSo() throws {
        let site = try render(Self.store(0))
        let home = try site.page("index.html")
        #expect(home.contains("<p class=\"empty\">No tweets yet.</p>"))
        #expect(cards(home).isEmpty)
    }

    @Test func pageNumbersInTitles() throws {
        let site = try render(Self.store(41), config: SiteConfig(pageSize: Self.pageSize))
        #expect(try site.page("page/3/index.html").contains("· page 3 of 3"))
        #expect(try site.page("u/mina/page/2/index.html").contains("<title>mina (@mina) · page 2 · Roost</title>"))
    }

    @Test func otherPageSizes() throws {
        let site = try render(Self.store(5), config: SiteConfig(pageSize: 2))
        #expect(try tweetIDs(site.page("page/3/index.html")) == [Self.expectedOrder(5)[4]])
        #expect(site["page/4/index.html"] == nil)
        // A page size below 1 means 1.
        let ones = try render(Self.store(2), config: SiteConfig(pageSize: 0))
        #expect(try tweetIDs(ones.page("page/2/index.html")) == [Self.expectedOrder(2)[1]])
    }
}
