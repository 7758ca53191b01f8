import Foundation
import Model
import Site
import Store
import Support
import TestSupport
import Testing

/// SPEC 3: "links work from `file://`, from a web server at `/`, and under a sub-path";
/// "every link points at a file that was written".
@Suite struct Links {
    @Test(arguments: ["/", "/sub/", "https://example.com/project/"])
    func everyRelativeLinkNamesAWrittenFile(baseURL: String) throws {
        let site = try render(richStore, config: SiteConfig(baseURL: baseURL))
        let problems = brokenLinks(in: site.files, baseURL: baseURL)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func linksWithAViewer() throws {
        let site = try render(richStore, config: SiteConfig(viewer: "u-uKor"))
        let problems = brokenLinks(in: site.files, baseURL: "/")
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func relativeLinksDoNotDependOnTheBaseURL() throws {
        let root = relativeLinks(in: try render(richStore, config: SiteConfig(baseURL: "/")))
        let sub = relativeLinks(in: try render(richStore, config: SiteConfig(baseURL: "/sub/")))
        let absolute = relativeLinks(in: try render(richStore, config: SiteConfig(baseURL: "https://example.com/x/")))
        #expect(Set(root.keys) == Set(sub.keys))
        for (path, links) in root {
            #expect(sub[path] == links, "\(path)")
            #expect(absolute[path] == links, "\(path)")
        }
    }

    @Test func everyPageHasARelativeBase() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "/sub/"))
        #expect(try baseHref(site.page("index.html")) == "./")
        #expect(try baseHref(site.page("page/2/index.html")) == "../../")
        #expect(try baseHref(site.page("u/mina/likes/index.html")) == "../../../")
        #expect(try baseHref(site.page("tags/서울/index.html")) == "../../")
        // Servers show 404.html at any URL: its base is the base URL.
        #expect(try baseHref(site.page("404.html")) == "/sub/")
    }

    @Test func notFoundPageLinksAreRootRelative() throws {
        for baseURL in ["/", "/sub/"] {
            let site = try render(richStore, config: SiteConfig(baseURL: baseURL))
            let html = try site.page("404.html")
            #expect(html.contains("<a href=\"index.html\">Go to the latest tweets</a>"))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"static/style.css\">"))
        }
    }

    /// From `file://` the base URL names the filesystem's root: a script right after `<base>`
    /// makes the page's folder its base, allowed by its hash alone (no `'unsafe-inline'`).
    @Test func notFoundPageSetsItsBaseFromFileByAScriptItsPolicyAllows() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "/sub/"))
        let html = try site.page("404.html")
        let pattern = #/<base href="/sub/">\n<script>([^<]+)</script>\n/#
        let script = try #require(html.firstMatch(of: pattern)).1
        #expect(script.contains(#"location.protocol==="file:""#) && script.contains(#"setAttribute("href","./")"#))
        let hash = "sha256-" + Data(SHA256.hash(Array(script.utf8))).base64EncodedString()
        #expect(html.contains("script-src 'self' '\(hash)'; style-src"), "\(html.prefix(400))")
        for (path, page) in site.files where path.hasSuffix(".html") && path != "404.html" {
            #expect(!page.contains("<script>") && page.contains("script-src 'self'; "), "\(path)")
        }
    }

    @Test func notFoundPageIsNotCanonicalForTheHomePage() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "https://example.com/sub/"))
        let html = try site.page("404.html")
        #expect(!html.contains("<link rel=\"canonical\" href=\"https://example.com/sub/\">"))
    }

    @Test func canonicalLinksUseTheBaseURL() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "https://example.com/sub/"))
        #expect(try site.page("index.html").contains("<link rel=\"canonical\" href=\"https://example.com/sub/\">"))
        #expect(
            try site.page("t/a1/index.html").contains("<link rel=\"canonical\" href=\"https://example.com/sub/t/a1/\">")
        )
        #expect(
            try site.page("tags/서울/index.html")
                .contains("<link rel=\"canonical\" href=\"https://example.com/sub/tags/%EC%84%9C%EC%9A%B8/\">"))
    }

    /// Feeds and the sitemap (only with an absolute base) carry URLs under the base URL, each
    /// naming a written page.
    @Test(arguments: ["/sub/", "https://example.com/sub/", "/"])
    func feedAndSitemapURLsStartWithTheBaseURL(baseURL: String) throws {
        let site = try render(richStore, config: SiteConfig(baseURL: baseURL))
        let written = Set(site.paths)
        let xmlFiles = site.paths.filter { $0.hasSuffix(".xml") }
        #expect(xmlFiles.contains("feed.xml") && xmlFiles.contains("u/mina/feed.xml"))
        #expect(xmlFiles.contains("sitemap.xml") == baseURL.hasPrefix("https://"), "sitemaps need absolute URLs")
        for file in xmlFiles {
            let urls = xmlURLs(site.files[file]!)
            #expect(!urls.isEmpty, "\(file)")
            // With a path-only base, Atom ids are name-based urn:uuid:s (checked below), not URLs.
            for url in urls where !url.hasPrefix("urn:uuid:") {
                #expect(url.hasPrefix(baseURL), "\(file): \(url)")
                guard url.hasPrefix(baseURL), let path = percentDecoded(String(url.dropFirst(baseURL.count))) else {
                    continue
                }
                let target = path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
                #expect(written.contains(target), "\(file): \(url) names no written file")
            }
        }
    }

    /// Atom (RFC 4287) wants absolute `<id>` IRIs. With a path-only base URL (the default `/`)
    /// there is no host to make URLs absolute with: ids become name-based `urn:uuid:`s, stable
    /// across builds; links stay paths under the base, and there is no sitemap, which needs
    /// absolute URLs (documented: publish with an absolute `--base-url`).
    @Test func pathOnlyBaseURLStillGivesAbsoluteFeedIDs() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "/"))
        let again = try render(richStore, config: SiteConfig(baseURL: "/"))
        let feed = try site.page("feed.xml")
        let ids = feed.components(separatedBy: "<id>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(!ids.isEmpty)
        #expect(ids.allSatisfy { $0.hasPrefix("urn:uuid:") && $0.count == 45 }, "\(ids.prefix(3))")
        #expect(Set(ids).count == ids.count)
        #expect(feed == (try again.page("feed.xml")))
        #expect(site["sitemap.xml"] == nil)
    }

    @Test func sitemapListsEveryHTMLPageButThe404() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "https://example.com/"))
        let locs = xmlURLs(try site.page("sitemap.xml"))
        let expected = site.htmlPaths.filter { $0 != "404.html" }
            .map { "https://example.com/" + String($0.dropLast("index.html".count)) }
        #expect(locs.compactMap(percentDecoded) == expected)
    }

    @Test func atomFeeds() throws {
        let site = try render(richStore, config: SiteConfig(baseURL: "https://example.com/"))
        let feed = try site.page("feed.xml")
        #expect(feed.hasPrefix("<?xml"))
        #expect(feed.contains("xml:base=\"https://example.com/\""))
        // The 20 newest tweets, newest first.
        let entries = feed.components(separatedBy: "<entry>").dropFirst()
        #expect(entries.count == 20)
        #expect(entries.first?.contains("<id>https://example.com/t/f19/</id>") == true)
        // A user's feed: their tweets and replies, newest first.
        let mina = try site.page("u/mina/feed.xml")
        let ids = xmlURLs(mina).filter { $0.contains("/t/") && !$0.contains("<") }
        #expect(ids.first == "https://example.com/t/f19/")
        #expect(Set(ids).contains("https://example.com/t/r4/") == false, "r4 is older than the 20 newest")
        let seo = try site.page("u/u-uSeo/feed.xml")
        #expect(seo.contains("<id>https://example.com/t/s1/</id>"))
    }

    /// Writes the rich store's site (or `ROOST_DUMP_STORE=hostile`) to `$ROOST_DUMP_SITE` for a look by hand.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ROOST_DUMP_SITE"] != nil))
    func dump() throws {
        let folder = ProcessInfo.processInfo.environment["ROOST_DUMP_SITE"]!
        let hostile = ProcessInfo.processInfo.environment["ROOST_DUMP_STORE"] == "hostile"
        let site = try render(
            hostile ? Escaping.hostile : richStore, config: SiteConfig(viewer: hostile ? nil : "mina"))
        for (path, text) in site.files {
            let file = URL(fileURLWithPath: folder).appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }
}

/// SPEC 3: "The same store and templates give byte-identical output."
@Suite struct Determinism {
    @Test func sameStoreTwice() throws {
        let config = SiteConfig(baseURL: "/sub/", viewer: "mina")
        let first = try render(richStore, config: config)
        let second = try render(richStore, config: config)
        #expect(first.paths == second.paths)
        for path in first.paths { #expect(first.files[path] == second.files[path], "\(path)") }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func shuffledDocuments(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let shuffled = richStore.shuffled(using: &generator)
        #expect(shuffled.map(\.path) != richStore.map(\.path))
        let first = try render(richStore)
        let second = try render(shuffled)
        #expect(first.paths == second.paths)
        for path in first.paths { #expect(first.files[path] == second.files[path], "\(path)") }
    }

    @Test func renderingThePlanConcurrently() async throws {
        // SiteRenderer is Sendable and documented as thread-safe: pages rendered at once are the same.
        let renderer = try SiteRenderer(
            snapshot: Snapshot(documents: richStore), config: SiteConfig(), templates: defaultTemplates)
        let serial = try renderer.plan.pages.map { try renderer.render($0) }
        let parallel = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (i, page) in renderer.plan.pages.enumerated() {
                group.addTask { (i, try renderer.render(page)) }
            }
            var result = [[UInt8]](repeating: [], count: renderer.plan.pages.count)
            for try await (i, bytes) in group { result[i] = bytes }
            return result
        }
        #expect(serial == parallel)
    }
}

/// The sample store in `content/` (SPEC 1).
@Suite struct SampleStore {
    static func documents() throws -> [Document] {
        try DocumentStore.read(at: packageRoot + "/content").documents
    }

    @Test func rendersCompletely() throws {
        let documents = try Self.documents()
        let site = try render(documents)
        let permalinks = site.paths.filter { $0.hasPrefix("t/") && $0.hasSuffix("/index.html") }
        #expect(permalinks.count == 60)
        #expect(
            site.paths.contains("404.html") && site.paths.contains("feed.xml") && !site.paths.contains("sitemap.xml"))
    }

    @Test(arguments: ["/", "/sub/"])
    func linkWalkerPasses(baseURL: String) throws {
        let site = try render(try Self.documents(), config: SiteConfig(baseURL: baseURL))
        let problems = brokenLinks(in: site.files, baseURL: baseURL)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func noEmailIsWritten() throws {
        let documents = try Self.documents()
        let emails = documents.compactMap { doc -> String? in
            if case .string(let email)? = doc.fields["email"] { return email } else { return nil }
        }
        #expect(!emails.isEmpty)
        let site = try render(documents)
        for email in emails { #expect(site.paths(containing: email).isEmpty, "\(email)") }
    }

    @Test func likeCountsAreDerived() throws {
        let documents = try Self.documents()
        // Counted here from the documents: likes by users who exist.
        let users = Set(
            documents.filter { $0.path.segments.count == 2 && $0.path.segments[0] == "users" }.map(\.path.id))
        var counts: [String: Int] = [:]
        for doc in documents {
            let s = doc.path.segments
            if s.count == 4, s[0] == "users", s[2] == "user-likes", users.contains(s[1]) {
                counts[s[3], default: 0] += 1
            }
        }
        let site = try render(documents)
        let index = cardsByTweet(in: site)
        let tweetIDs = documents.filter { $0.path.segments.count == 2 && $0.path.segments[0] == "tweets" }.map(
            \.path.id)
        for id in tweetIDs {
            let found = index[id] ?? []
            #expect(!found.isEmpty, "\(id)")
            for (path, card) in found {
                #expect(attributeValues("data-likes", in: card) == ["\(counts[id] ?? 0)"], "\(id) on \(path)")
            }
        }
    }
}

/// The link walker on stores with unusual names.
@Suite struct LinksInOddStores {
    @Test func hostileStore() throws {
        for baseURL in ["/", "/sub/"] {
            let site = try render(Escaping.hostile, config: SiteConfig(baseURL: baseURL))
            let problems = brokenLinks(in: site.files, baseURL: baseURL)
            #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        }
    }

    /// Tags whose lowercase form is not ASCII: the page a caption links to is the page written.
    @Test func unicodeTags() throws {
        let site = try render([
            user("uMina", "mina"),
            tweet("t1", by: "uMina", at: at(minute: 1), "#ÄPFEL #Straße #İstanbul #ΣΟΦΙΑ #café_2024 #서울_2024"),
            tweet("t2", by: "uMina", at: at(minute: 2), "#äpfel #STRASSE #istanbul #σοφια #CAFÉ_2024"),
            // 64 four-byte letters: 256 bytes, too long for a path segment.
            tweet("t3", by: "uMina", at: at(minute: 3), "#" + String(repeating: "\u{20000}", count: 64)),
        ])
        let problems = brokenLinks(in: site.files, baseURL: "/")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // One page per lowercased tag, with both tweets where the lowercase forms agree.
        #expect(try tweetIDs(site.page("tags/äpfel/index.html")) == ["t2", "t1"])
        #expect(try tweetIDs(site.page("tags/café_2024/index.html")) == ["t2", "t1"])
        #expect(try tweetIDs(site.page("tags/서울_2024/index.html")) == ["t1"])
        #expect(site.paths.allSatisfy { $0.split(separator: "/").allSatisfy { $0.utf8.count <= 200 } })
        let long = try #require(site.paths.first { $0.hasPrefix("tags/") && tweetIDs(site.files[$0]!) == ["t3"] })
        #expect(try card("t3", in: site.page("t/t3/index.html"))?.contains("href=\"\(long)\"") == true)
    }

    @Test func aTagUsedTwiceInOneTweetListsItOnce() throws {
        let site = try render([user("uMina", "mina"), tweet("t1", by: "uMina", at: at(minute: 1), "#a #A #a")])
        #expect(try tweetIDs(site.page("tags/a/index.html")) == ["t1"])
        #expect(try site.page("tags/a/index.html").contains("Tweets: 1"))
    }

    /// Odd IDs and uids: hashed folders, still linked consistently.
    @Test func oddIDs() throws {
        let longID = String(repeating: "x", count: 201)
        let site = try render([
            user("uid with spaces", "seo.yeon"), user("ü", "mina"),
            tweet("..", by: "uid with spaces", at: at(minute: 1)),
            tweet(longID, by: "ü", at: at(minute: 2), replyTo: ".."),
            tweet("한글", by: "ü", at: at(minute: 3), replyTo: longID),
            tweet("a.b", by: "ü", at: at(minute: 4)),
            tweet("~x", by: "ü", at: at(minute: 5)),
            like("ü", ".."),
        ])
        #expect(brokenLinks(in: site.files, baseURL: "/").isEmpty, "\(brokenLinks(in: site.files, baseURL: "/"))")
        for path in site.paths {
            for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
                #expect(!segment.isEmpty && segment != "." && segment != ".." && segment.utf8.count <= 200, "\(path)")
            }
        }
        #expect(site.paths.filter { $0.hasPrefix("t/") }.count == 5)
        #expect(site.paths.filter { $0.hasPrefix("u/") && $0.hasSuffix("/feed.xml") }.count == 2)
    }

    /// A bio's `#tag` links to the tag page, which exists only when a tweet has the tag.
    @Test func bioTagsLinkToWrittenPages() throws {
        let site = try render([
            user("uMina", "mina", bio: "I post about #design"),
            tweet("t1", by: "uMina", at: at(minute: 1), "no tags here"),
        ])
        let problems = brokenLinks(in: site.files, baseURL: "/")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// Times on cards (SPEC 2.4, docs/templates.md `published`, `publishedDisplay`).
@Suite struct Times {
    @Test(arguments: [
        ("2024-06-10T12:00:00+09:00", "2024-06-10T03:00:00Z", "Jun 10, 2024, 03:00 UTC"),
        ("2024-01-01T00:00:00.999Z", "2024-01-01T00:00:00Z", "Jan 1, 2024, 00:00 UTC"),
        ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59Z", "Dec 31, 1969, 23:59 UTC"),
        ("2023-12-31T23:30:00-01:00", "2024-01-01T00:30:00Z", "Jan 1, 2024, 00:30 UTC"),
    ])
    func publishedInUTC(input: String, iso: String, display: String) throws {
        let site = try render([user("uMina", "mina"), tweet("t1", by: "uMina", at: input)])
        let card = try #require(card("t1", in: try site.page("t/t1/index.html")))
        #expect(card.contains("<time class=\"dt-published\" datetime=\"\(iso)\">\(display)</time>"))
    }

    @Test func otherTimestampFormsOrderTheFeed() throws {
        let site = try render([
            user("uMina", "mina"),
            doc(
                "tweets/n",
                [("caption", .string("number")), ("timestamp", .integer(1_700_000_000)), ("uid", .string("uMina"))]),
            doc(
                "tweets/s",
                [
                    ("caption", .string("seconds")), ("uid", .string("uMina")),
                    ("timestamp", object(["_seconds": .integer(1_700_000_100), "_nanoseconds": .integer(0)])),
                ]),
            tweet("r", by: "uMina", at: "2023-11-14T22:13:00Z"),  // 1_699_999_980
        ])
        #expect(try tweetIDs(site.page("index.html")) == ["s", "n", "r"])
    }

    @Test func tiesAreBrokenByIDInCodePointOrder() throws {
        let ids = ["b", "B", "a", "é", "z", "Z", "_", "10", "9"]
        let site = try render([user("uMina", "mina")] + ids.map { tweet($0, by: "uMina", at: at(minute: 5)) })
        #expect(try tweetIDs(site.page("index.html")) == ["10", "9", "B", "Z", "_", "a", "b", "z", "é"])
    }
}

/// Cheap well-formedness checks on every page of several stores.
@Suite struct Markup {
    static let elements = [
        "html", "head", "body", "header", "footer", "main", "nav", "div", "article", "section", "ul", "ol",
        "li", "p", "a", "span", "h1", "h2", "h3", "time", "data", "strong", "em", "code", "pre",
        "blockquote", "title", "svg", "script",
    ]

    /// Element name → opened minus closed, for the elements above (one pass over the bytes).
    static func imbalance(_ html: String) -> [String: Int] {
        let wanted = Set(elements)
        var counts: [String: Int] = [:]
        let bytes = Array(html.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            var j = i + 1
            let closing = j < bytes.count && bytes[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            let start = j
            while j < bytes.count, (bytes[j] >= 97 && bytes[j] <= 122) || (bytes[j] >= 48 && bytes[j] <= 57) { j += 1 }
            if j > start, j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: ">") {
                let name = String(decoding: bytes[start..<j], as: UTF8.self)
                if wanted.contains(name) { counts[name, default: 0] += closing ? -1 : 1 }
            }
            i = j
        }
        return counts.filter { $0.value != 0 }
    }

    static func stores() throws -> [(String, [Document])] {
        [("rich", richStore), ("hostile", Escaping.hostile), ("sample", try SampleStore.documents())]
    }

    @Test func balancedElementsAndNoTemplateLeftovers() throws {
        for (name, store) in try Self.stores() {
            let site = try render(store, config: SiteConfig(viewer: name == "rich" ? "mina" : nil))
            for path in site.htmlPaths {
                let html = site.files[path]!
                #expect(html.hasPrefix("<!doctype html>"), "\(name) \(path)")
                #expect(Self.imbalance(html).isEmpty, "\(name) \(path): \(Self.imbalance(html))")
                for leftover in ["{{", "}}", "Optional(", "src=\"\""] {
                    #expect(!html.contains(leftover), "\(name) \(path): \(leftover)")
                }
                #expect(html.ranges(of: "<base ").count == 1, "\(name) \(path): one <base>")
                #expect(html.ranges(of: "<h1").count == 1, "\(name) \(path): one <h1>")
            }
            for path in site.paths where path.hasSuffix(".xml") {
                #expect(site.files[path]!.hasPrefix("<?xml"), "\(name) \(path)")
                #expect(!site.files[path]!.contains("{{"), "\(name) \(path)")
            }
        }
    }

    @Test func permalinkShowsEveryReply() throws {
        var docs = [user("uMina", "mina"), tweet("p", by: "uMina", at: at(minute: 0))]
        for i in 0..<25 {
            docs.append(tweet("r\(i < 10 ? "0" : "")\(i)", by: "uMina", at: at(minute: 1 + i), replyTo: "p"))
        }
        let site = try render(docs)
        #expect(try tweetIDs(site.page("t/p/index.html")) == ["p"] + (0..<25).map { "r\($0 < 10 ? "0" : "")\($0)" })
        #expect(try card("p", in: site.page("t/p/index.html"))?.contains("<span class=\"count\">25</span>") == true)
    }
}

/// The link walker itself (TestSupport's `brokenLinks`): it finds each kind of broken link.
@Suite struct LinkChecker {
    static func page(_ base: String, _ body: String) -> String {
        "<!doctype html><html><head><base href=\"\(base)\"></head><body>\(body)</body></html>"
    }

    @Test func aWholeSitePasses() {
        let site = [
            "index.html": Self.page(
                "./",
                "<a href=\"u/mina/index.html\">x</a><a href='t/a1/index.html#top'>y</a><a href=#main>z</a>"
                    + "<a href=\"https://example.com/\">e</a><link rel=\"canonical\" href=\"/sub/u/mina/\"><script src=\"static/time.js\"></script>"
            ),
            "u/mina/index.html": Self.page(
                "../../", "<a href=\"index.html?x=1\">home</a><a href=\"u/mina/index.html\">me</a>"),
            "t/a1/index.html": Self.page("../../", "<a href=\"t/a1/../../index.html\">home</a>"),
            "404.html": Self.page("/sub/", "<a href=\"index.html\">home</a>"),
        ]
        #expect(brokenLinks(in: site, baseURL: "/sub/") == [])
    }

    /// The broken links of a site of one good page and `path` (as text, and as bytes).
    static func problems(_ path: String, _ html: String) -> [String] {
        let site = ["u/mina/index.html": page("../../", ""), path: html]
        let problems = brokenLinks(in: site, baseURL: "/sub/")
        #expect(brokenLinks(in: site.mapValues { Array($0.utf8) }, baseURL: "/sub/") == problems)
        return problems
    }

    @Test func eachWrongBaseIsFound() {
        #expect(Self.problems("a.html", "<p>no base</p>") == ["a.html: no <base href>"])
        #expect(
            Self.problems("a/b.html", Self.page("./", "")) == [
                "a/b.html: <base href=\"./\">, expected the site root ../"
            ])
        #expect(
            Self.problems("404.html", Self.page("./", "")) == [
                "404.html: <base href=\"./\">, expected the base URL /sub/"
            ])
    }

    /// A link on the home page, and the problem it is.
    @Test(arguments: [
        (#"<a href="missing.html">"#, #""missing.html" → "missing.html" was not written"#),
        (#"<img src=missing.png>"#, #""missing.png" → "missing.png" was not written"#),
        (#"<a href="">"#, #""" → "" was not written"#),
        (#"<a href="u/mina">"#, #""u/mina" → "u/mina" was not written"#),
        (#"<a href="u/mina/.">"#, #""u/mina/." → "u/mina/" was not written"#),
        (#"<a href="u//mina/index.html">"#, #""u//mina/index.html" → "u//mina/index.html" was not written"#),
        (#"<a href="../index.html">"#, "../index.html leaves the site"),
        (#"<a href="u/%E9.html">"#, "u/%E9.html is not valid percent-encoding"),
        (#"<a href="a?b:c">"#, #""a?b:c" → "a" was not written"#),
        (#"<link href="/other/u/mina/">"#, "/other/u/mina/ is not under the base URL /sub/"),
        (#"<link href="/sub/u/joon/">"#, #""/sub/u/joon/" → "u/joon/index.html" was not written"#),
    ])
    func eachKindOfBrokenLinkIsFound(link: String, problem: String) {
        #expect(Self.problems("index.html", Self.page("./", link)) == ["index.html: " + problem])
    }
}

/// A feed with no entries still says when it was updated: a date from the data, not 1970.
@Test func anEmptyUserFeedIsUpdatedAsOfTheNewestTweet() throws {
    let site = try render([
        user("u1", "mina"), user("u2", "quiet"),
        tweet("t1", by: "u1", at: "2024-03-01T10:00:00Z"), tweet("t2", by: "u1", at: "2024-05-02T08:30:00Z"),
    ])
    let quiet = try site.page("u/quiet/feed.xml")
    #expect(quiet.contains("<updated>2024-05-02T08:30:00Z</updated>"), "\(quiet)")
    #expect(!quiet.contains("1970"))
}
