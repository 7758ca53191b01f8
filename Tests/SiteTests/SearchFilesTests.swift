import JSON
import Model
import Site
import Store
import TestSupport
import Testing

/// What the search page and its data files hold (SPEC 8): the browser builds result cards from
/// these, so they must say what the feed's cards say, and never carry markup.
struct SearchFilesTests {
    let site: RenderedSite

    init() throws {
        site = try render(
            [
                user("u1", "mina", fullname: "Mina <b>Kim</b>"),
                tweet("t1", by: "u1", at: "2023-01-01T10:00:00Z", "**Bold** & [a link](https://example.com/x) #swift"),
                tweet("t2", by: "u1", at: "2023-01-02T10:00:00Z", "<script>alert(1)</script> reply", replyTo: "t1"),
                tweet("t3", by: "ghost", at: "2023-01-03T10:00:00Z", "no author", replyTo: "gone"),
            ], config: SiteConfig(viewer: "mina"))
    }

    /// `search/d/0.js`'s records (oldest first), as JSON.
    func records() throws -> [JSONValue] {
        let text = try site.page("search/d/0.js")
        let prefix = "roostSearch.docs(0,"
        #expect(text.hasPrefix(prefix) && text.hasSuffix(");\n"))
        return try JSONParser.parse(String(text.dropFirst(prefix.count).dropLast(3))).arrayValue ?? []
    }

    @Test func cardDataHasTheCaptionAsATreeOfTheRenderersElements() throws {
        let t1 = try records()[0]
        #expect(t1["i"]?.stringValue == "t1")
        #expect(t1["u"]?.stringValue == "t/t1/index.html")
        #expect(t1["a"]?["u"]?.stringValue == "mina")
        #expect(t1["a"]?["n"]?.stringValue == "Mina <b>Kim</b>")  // text, for textContent
        let paragraph = try #require(t1["c"]?.arrayValue?.first?.arrayValue)
        #expect(paragraph.first?.stringValue == "p")
        #expect(paragraph[1].arrayValue?.map { $0.stringValue } == ["strong", "Bold"])
        #expect(paragraph[2].stringValue == " & ")
        let link = try #require(paragraph[3].arrayValue)
        #expect(link.first?.stringValue == "a")
        #expect(link[1]["href"]?.stringValue == "https://example.com/x")
        #expect(link.last?.stringValue == "a link")
    }

    @Test func repliesLikesAndMissingAuthorsAreMarked() throws {
        let records = try records()
        #expect(records[1]["t"]?["u"]?.stringValue == "mina")  // replying to @mina
        #expect(records[2]["a"] == nil)  // no user document: the placeholder author
        #expect(records[2]["t"]?["m"] != nil)  // its parent is gone
    }

    @Test func noFileOfTheIndexHoldsMarkup() throws {
        for path in site.paths where path.hasPrefix("search/") && path.hasSuffix(".js") {
            let text = try site.page(path)
            #expect(!text.contains("<") && !text.contains(">"), "\(path)")
        }
    }

    @Test func thePageLinksTheTagsForBrowsersWithoutScripts() throws {
        let page = try site.page("search/index.html")
        #expect(page.contains("<noscript>"))
        #expect(page.contains("href=\"tags/swift/index.html\""))
        #expect(page.contains("<script src=\"static/search.js\" defer></script>"))
        #expect(page.contains("data-page-size=\"20\""))
    }
}

/// A build writes the term shards first, then renders the rest with a renderer that has let
/// them go: every other page is the same with it.
@Test func aRendererWithoutTheTermShardsRendersEveryOtherPageTheSame() throws {
    let snapshot = Snapshot(documents: richStore)
    let renderer = try SiteRenderer(
        snapshot: snapshot, config: SiteConfig(), templates: defaultTemplates(language: SiteConfig().language))
    let without = renderer.droppingSearchTermShards()
    #expect(renderer.plan.pages.contains { $0.isSearchTermShard })
    for page in renderer.plan.pages where !page.isSearchTermShard {
        #expect(try without.render(page) == (try renderer.render(page)), "\(page.path)")
    }
}
