import Model
import Site
import Store
import TestSupport
import Testing

/// Every card of tweet `id` on every HTML page, with the page's path.
func everyCard(of id: String, in site: RenderedSite) -> [(path: String, card: String)] {
    site.htmlPaths.flatMap { path in
        cards(site.files[path]!).filter { tweetIDs($0).first == id }.map { (path, $0) }
    }
}

/// Every card on every HTML page, by tweet ID.
func cardsByTweet(in site: RenderedSite) -> [String: [(path: String, card: String)]] {
    var index: [String: [(path: String, card: String)]] = [:]
    for path in site.htmlPaths {
        for card in cards(site.files[path]!) {
            index[tweetIDs(card).first ?? "", default: []].append((path, card))
        }
    }
    return index
}

/// Cards are kept for later pages only up to a budget (a million tweets' cards would take
/// 1.6 GB); past it they are rendered at each use, to the same bytes.
@Test(arguments: [0, 3000])
func cardsPastTheBudgetRenderTheSame(budget: Int) throws {
    let snapshot = Snapshot(documents: richStore)
    let kept = try render(snapshot: snapshot)
    let renderedAgain = try render(snapshot: snapshot, cardBudget: budget)
    #expect(renderedAgain.paths == kept.paths)
    for path in kept.paths where renderedAgain.files[path] != kept.files[path] {
        Issue.record("\(path) differs with a card budget of \(budget) bytes")
    }
}

/// SPEC 4: the like count is the number of like documents of existing users.
@Suite struct LikeCounts {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test(arguments: [
        ("a1", 2),  // bob and carol; not uGhost; the stored counter says 99
        ("a2", 1),  // mina
        ("a3", 2),  // mina and bob
        ("r1", 0), ("g1", 0), ("f00", 0),
    ])
    func derivedCountOnEveryCard(id: String, likes: Int) throws {
        let found = everyCard(of: id, in: site)
        #expect(!found.isEmpty)
        for (path, card) in found {
            #expect(attributeValues("data-likes", in: card) == ["\(likes)"], "\(id) on \(path)")
            #expect(
                card.contains("<span class=\"visually-hidden\">Likes:</span> <span class=\"count\">\(likes)</span>"),
                "\(id) on \(path)")
        }
    }

    @Test func countsShowWhereverTheTweetIs() throws {
        // a1 is on the feed, Mina's Tweets tab (page 2), Bob's and Carol's Likes tabs,
        // the #swift tag page, its permalink, and as parent on r1's and r2's permalinks; the
        // archive of its year and month, and the most-liked tweets.
        let pages = Set(everyCard(of: "a1", in: site).map(\.path))
        #expect(
            pages == [
                "page/2/index.html", "u/mina/page/2/index.html", "u/bob/likes/index.html",
                "u/carol/likes/index.html", "tags/swift/index.html", "t/a1/index.html",
                "t/r1/index.html", "t/r2/index.html", "archive/2024/page/2/index.html",
                "archive/2024/01/page/2/index.html", "top/index.html",
            ])
    }

    @Test func storedCounterIsIgnored() throws {
        let site = try render([user("uMina", "mina"), tweet("t1", by: "uMina", at: at(minute: 1), likes: 10_000)])
        for (path, card) in everyCard(of: "t1", in: site) {
            #expect(attributeValues("data-likes", in: card) == ["0"], "\(path)")
        }
        #expect(site.paths(containing: "10000").isEmpty)
    }
}

/// SPEC 3, "Viewer": the site as one user sees it.
@Suite struct Viewer {
    @Test func likedCardsCarryDataLiked() throws {
        let site = try render(richStore, config: SiteConfig(viewer: "mina"))
        let liked: Set = ["a2", "a3"]
        var seen: Set<String> = []
        for path in site.htmlPaths {
            for card in cards(site.files[path]!) {
                let id = try #require(tweetIDs(card).first)
                if liked.contains(id) {
                    seen.insert(id)
                    #expect(card.contains("data-liked=\"true\""), "\(id) on \(path)")
                    #expect(card.contains("<span class=\"likes is-liked\">"), "\(id) on \(path)")
                } else {
                    #expect(!card.contains("data-liked"), "\(id) on \(path)")
                    #expect(!card.contains("is-liked"), "\(id) on \(path)")
                }
            }
        }
        #expect(seen == liked)
    }

    @Test func headerSaysWhoseViewItIs() throws {
        let site = try render(richStore, config: SiteConfig(viewer: "mina"))
        for path in site.htmlPaths {
            let html = site.files[path]!
            #expect(
                html.contains("<p class=\"viewer-note\">Viewing as <a href=\"u/mina/index.html\">@mina</a></p>"),
                "\(path)")
        }
    }

    @Test func noViewerNoHearts() throws {
        let site = try render(richStore)
        #expect(site.paths(containing: "data-liked").isEmpty)
        #expect(site.paths(containing: "is-liked").isEmpty)
        #expect(site.paths(containing: "viewer-note").isEmpty)
        #expect(site.paths(containing: "Viewing as").isEmpty)
    }

    @Test(arguments: ["Mina", "@mina", "u-uSeo", "seo.yeon"])
    func viewerByHandleOrUsername(viewer: String) throws {
        let site = try render(richStore, config: SiteConfig(viewer: viewer))
        #expect(!site.paths(containing: "Viewing as").isEmpty)
    }

    @Test func unknownViewerThrows() throws {
        let snapshot = Model.Snapshot(documents: richStore)
        #expect(throws: SiteError.self) {
            _ = try SiteRenderer(snapshot: snapshot, config: SiteConfig(viewer: "nobody"), templates: defaultTemplates)
        }
        // `Moon` and `moon` share a lowercased name: `MOON` means neither, and the error says
        // so, with the handles that do name each (not "no user has this name").
        #expect {
            _ = try SiteRenderer(snapshot: snapshot, config: SiteConfig(viewer: "MOON"), templates: defaultTemplates)
        } throws: { error in
            guard case SiteError.ambiguousViewer("MOON", let handles) = error, handles.count == 2 else { return false }
            let text = "\(error)"
            return text.contains("the usernames of 2 users match it, ignoring case")
                && handles.allSatisfy { text.contains("'\($0)'") }
        }
        do {
            _ = try SiteRenderer(snapshot: snapshot, config: SiteConfig(viewer: "nobody"), templates: defaultTemplates)
        } catch {
            guard case .unknownViewer("nobody") = error else {
                Issue.record("expected unknownViewer, got \(error)")
                return
            }
        }
    }
}

/// SPEC 3: microformats2 and data attributes of cards, profiles and places.
@Suite struct Microformats {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test func everyCardIsAnHEntry() throws {
        var count = 0
        for path in site.htmlPaths {
            for card in cards(site.files[path]!) {
                count += 1
                let id = try #require(tweetIDs(card).first)
                let opening = String(card.prefix { $0 != ">" })
                #expect(opening.hasPrefix("<article class=\"h-entry"), "\(id) on \(path)")
                #expect(attributeValues("data-tweet-id", in: opening) == [id], "\(path)")
                #expect(attributeValues("data-likes", in: opening).count == 1, "\(path)")
                #expect(card.contains("<a class=\"permalink\" href=\"t/\(id)/index.html\">"), "\(id) on \(path)")
                #expect(card.contains("<data class=\"u-url\" value=\"/t/\(id)/\"></data>"), "\(id) on \(path)")
                #expect(card.contains("p-author h-card"), "\(id) on \(path)")
                #expect(card.contains("class=\"p-name"), "\(id) on \(path)")
                #expect(card.contains("class=\"u-photo"), "\(id) on \(path)")
                #expect(card.contains("class=\"e-content"), "\(id) on \(path)")
                let published = try #require(
                    section(card, from: "<time class=\"dt-published\"", to: ">"), "\(id) on \(path)")
                let datetime = try #require(attributeValues("datetime", in: published).first)
                #expect(datetime.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(datetime)")
                if id != "g1" {
                    // An existing author: the h-card has the nickname and the profile URL.
                    #expect(card.contains("class=\"u-url p-nickname handle\""), "\(id) on \(path)")
                }
            }
        }
        #expect(count > 32)
    }

    @Test func publishedTimes() throws {
        let card = try #require(card("a1", in: try site.page("t/a1/index.html")))
        #expect(
            card.contains(
                "<time class=\"dt-published\" datetime=\"2024-01-01T00:10:00Z\">Jan 1, 2024, 00:10 UTC</time>"))
    }

    @Test func profilePagesCarryTheUsersHCard() throws {
        for path in site.htmlPaths where path.hasPrefix("u/") {
            let html = site.files[path]!
            let header = try #require(
                section(html, from: "<header class=\"profile h-card\">", to: "</header>"), "\(path)")
            #expect(header.contains("class=\"p-name"), "\(path)")
            #expect(header.contains("class=\"u-url p-nickname\""), "\(path)")
            #expect(header.contains("class=\"u-photo"), "\(path)")
        }
    }

    @Test func everyPlaceIsAnHCard() throws {
        let html = try site.page("u/mina/favorites/index.html")
        let places = html.components(separatedBy: "<li class=\"h-card place\"").dropFirst()
        #expect(places.count == 6)
        for place in places {
            #expect(place.contains("class=\"p-name"))
            #expect(place.contains("class=\"p-latitude\""))
            #expect(place.contains("class=\"p-longitude\""))
        }
        // Places with an address have `p-adr`.
        #expect(html.components(separatedBy: "class=\"p-adr").count == 3)
    }
}

/// The default budget keeps every card of a store of up to 100,000 tweets; past that it
/// shrinks with the store, down to 64 MiB (a million tweets' cards would be 1.6 GB).
@Test func theCardBudgetShrinksOnlyPastAHundredThousandTweets() {
    #expect(SiteRenderer.defaultCardBudget(tweets: 0) == 384 << 20)
    #expect(SiteRenderer.defaultCardBudget(tweets: 20_000) == 384 << 20)
    #expect(SiteRenderer.defaultCardBudget(tweets: 100_000) == 384 << 20)
    #expect(SiteRenderer.defaultCardBudget(tweets: 200_000) == 192 << 20)
    #expect(SiteRenderer.defaultCardBudget(tweets: 1_000_000) == 64 << 20)
}
