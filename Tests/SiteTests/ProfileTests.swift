import Site
import Store
import TestSupport
import Testing

/// Profile tabs (SPEC 3): Tweets, Replies, Likes, Favorites; empty states.
@Suite struct ProfileTabs {
    @Test func emptyTabsRenderOnePageThatSaysSo() throws {
        let site = try render([
            user("uMina", "mina"), user("uQuiet", "quiet"),
            tweet("t1", by: "uMina", at: at(minute: 1)),
        ])
        let expectations = [
            ("u/quiet/index.html", "@quiet hasn’t tweeted yet."),
            ("u/quiet/replies/index.html", "@quiet hasn’t replied to anyone yet."),
            ("u/quiet/likes/index.html", "@quiet hasn’t liked any tweets yet."),
            ("u/quiet/favorites/index.html", "No favorite places yet."),
        ]
        for (path, message) in expectations {
            let html = try site.page(path)
            #expect(html.contains("<p class=\"empty\">\(message)</p>"), "\(path)")
            #expect(html.components(separatedBy: "class=\"empty\"").count == 2, "one empty note on \(path)")
            #expect(cards(html).isEmpty, "\(path)")
            #expect(!html.contains("class=\"pager\""), "\(path)")
            #expect(html.contains("<header class=\"profile h-card\">"), "\(path)")
        }
        // Exactly one page per tab, plus favorites and the user's feed.
        #expect(
            site.paths.filter { $0.hasPrefix("u/quiet/") }.sorted() == [
                "u/quiet/favorites/index.html", "u/quiet/feed.xml", "u/quiet/index.html",
                "u/quiet/likes/index.html", "u/quiet/replies/index.html",
            ])
        // The tab bar shows zero counts and marks the current tab.
        let likes = try site.page("u/quiet/likes/index.html")
        #expect(
            likes.contains(
                "<a href=\"u/quiet/likes/index.html\" aria-current=\"page\">Likes <span class=\"tab-count\">0</span></a>"
            ))
        #expect(likes.contains("<a href=\"u/quiet/index.html\">Tweets <span class=\"tab-count\">0</span></a>"))
        #expect(
            likes.contains("<a href=\"u/quiet/favorites/index.html\">Favorites <span class=\"tab-count\">0</span></a>"))
    }

    @Test func tabCounts() throws {
        let site = try render(richStore)
        let html = try site.page("u/mina/replies/index.html")
        // 1 + 20 tweets, 1 reply (r4), 2 likes of existing tweets (not deleted2), 6 places.
        #expect(html.contains("Tweets <span class=\"tab-count\">21</span>"))
        #expect(html.contains("Replies <span class=\"tab-count\">1</span>"))
        #expect(html.contains("Likes <span class=\"tab-count\">2</span>"))
        #expect(html.contains("Favorites <span class=\"tab-count\">6</span>"))
    }

    @Test func profileHeader() throws {
        let site = try render(richStore)
        let html = try site.page("u/mina/index.html")
        let header = try #require(section(html, from: "<header class=\"profile h-card\">", to: "</header>"))
        #expect(header.contains("<h1 class=\"p-name profile-name\">Mina Park</h1>"))
        #expect(header.contains("<a class=\"u-url p-nickname\" href=\"u/mina/index.html\">@mina</a>"))
        #expect(header.contains("class=\"u-photo avatar avatar-large\" src=\"https://example.com/mina.jpg\""))
        // The bio is Markdown, with its tags and mentions linked.
        #expect(header.contains("<strong>Seoul</strong>"))
        #expect(header.contains("href=\"tags/swift/index.html\""))
        #expect(header.contains("href=\"u/bob/index.html\""))
        #expect(header.contains("<a href=\"u/mina/feed.xml\">"))
    }
}

/// Replies (SPEC 3): the Replies tab, the Tweets tab, and permalinks with the thread.
@Suite struct Replies {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test func repliesTabHasRepliesOnly() throws {
        let html = try site.page("u/bob/replies/index.html")
        // Newest first: r3 (minute 15), r1 (minute 13).
        #expect(tweetIDs(html) == ["r3", "r1"])
        let r1 = try #require(card("r1", in: html))
        #expect(r1.contains("<p class=\"reply-to\">Replying to <a href=\"u/mina/index.html\">@mina</a></p>"))
        let r3 = try #require(card("r3", in: html))
        #expect(r3.contains("<p class=\"reply-to\">Replying to a deleted tweet</p>"))
        // Every card on every Replies tab says whom it replies to.
        for path in site.paths where path.contains("/replies/") && path.hasSuffix(".html") {
            for c in cards(try site.page(path)) { #expect(c.contains("class=\"reply-to\""), "\(path)") }
        }
    }

    @Test func tweetsTabExcludesReplies() throws {
        #expect(try tweetIDs(site.page("u/bob/index.html")) == ["a2"])
        #expect(try tweetIDs(site.page("u/carol/index.html")) == ["a3"])
        #expect(try tweetIDs(site.page("u/carol/replies/index.html")) == ["r2"])
        let mina = try tweetIDs(site.page("u/mina/index.html")) + tweetIDs(site.page("u/mina/page/2/index.html"))
        #expect(mina.count == 21 && !mina.contains("r4") && mina.last == "a1")
        for c in cards(try site.page("u/bob/index.html")) { #expect(!c.contains("class=\"reply-to\"")) }
    }

    @Test func feedHasTweetsAndReplies() throws {
        let all = try tweetIDs(site.page("index.html")) + tweetIDs(site.page("page/2/index.html"))
        #expect(
            Set(all)
                == Set(
                    ["a1", "a2", "a3", "r1", "r2", "r3", "r4", "g1", "s1", "k1", "m1", "m2"]
                        + (0..<20).map { "f\($0 < 10 ? "0" : "")\($0)" }))
        #expect(all.count == 32)
    }

    @Test func permalinkOfATweetWithReplies() throws {
        let html = try site.page("t/a1/index.html")
        #expect(!html.contains("thread-ancestors"))
        let focus = try #require(
            section(html, from: "<div class=\"cards focus\" aria-current=\"true\">", to: "<h2 class=\"section-title\">")
        )
        #expect(tweetIDs(focus) == ["a1"])
        let replies = try #require(section(html, from: "<ol class=\"cards replies\">", to: "</main>"))
        // Oldest first: a conversation reads down.
        #expect(tweetIDs(replies) == ["r1", "r2"])
        #expect(tweetIDs(html) == ["a1", "r1", "r2"])
        #expect(try #require(card("a1", in: html)).contains("<span class=\"count\">2</span>"), "reply count")
    }

    @Test func permalinkOfAReplyShowsItsParent() throws {
        let html = try site.page("t/r1/index.html")
        let parent = try #require(
            section(html, from: "<div class=\"cards thread-ancestors\">", to: "<div class=\"cards focus"))
        #expect(tweetIDs(parent) == ["a1"])
        #expect(tweetIDs(html) == ["a1", "r1"])
        #expect(html.contains("<p class=\"empty\">No replies yet.</p>"))
        #expect(!html.contains("This tweet is unavailable."))
    }

    /// SPEC 3: ties are broken by ID ascending; replies read oldest first.
    @Test func repliesAtTheSameTimeAreInIDOrder() throws {
        let site = try render([
            user("uMina", "mina"),
            tweet("p", by: "uMina", at: at(minute: 1)),
            tweet("rb", by: "uMina", at: at(minute: 5), replyTo: "p"),
            tweet("ra", by: "uMina", at: at(minute: 5), replyTo: "p"),
            tweet("rc", by: "uMina", at: at(minute: 3), replyTo: "p"),
        ])
        let html = try site.page("t/p/index.html")
        #expect(tweetIDs(html).first == "p")
        #expect(tweetIDs(html).dropFirst().first == "rc")
        // Newest-first lists put ra before rb; the oldest-first list should too.
        #expect(try tweetIDs(site.page("u/mina/replies/index.html")) == ["ra", "rb", "rc"])
        #expect(tweetIDs(html) == ["p", "rc", "ra", "rb"])
    }

    @Test func replyToAMissingTweetStillBuilds() throws {
        let html = try site.page("t/r3/index.html")
        #expect(tweetIDs(html) == ["r3"])
        #expect(html.contains("<p class=\"thread-unavailable\">This tweet is unavailable.</p>"))
        #expect(!html.contains("thread-ancestors"))
        #expect(site["t/deleted1/index.html"] == nil)
        // Nothing links to the missing parent.
        #expect(site.paths(containing: "deleted1").isEmpty)
    }

    @Test func replyToATweetWithoutAuthor() throws {
        let html = try site.page("t/r4/index.html")
        #expect(tweetIDs(html) == ["g1", "r4"])
        let r4 = try #require(card("r4", in: html))
        #expect(r4.contains("<p class=\"reply-to\">Replying to Unknown user</p>"))
    }
}

/// The Likes tab (SPEC 3): most recent like first (like timestamp, else tweet timestamp).
@Suite struct LikesTab {
    @Test func mostRecentLikeFirst() throws {
        let site = try render([
            user("uMina", "mina"), user("uBob", "bob"),
            tweet("t1", by: "uBob", at: at(minute: 10)),
            tweet("t2", by: "uBob", at: at(minute: 200)),
            tweet("t3", by: "uBob", at: at(minute: 30)),
            tweet("t4", by: "uBob", at: at(minute: 500)),
            tweet("t5", by: "uBob", at: at(minute: 1)),
            tweet("t6", by: "uBob", at: at(minute: 2)),
            like("uMina", "t1", at: at(minute: 300)),  // liked long after it was posted
            like("uMina", "t2"),  // no like time: the tweet's, 200
            like("uMina", "t3", at: at(minute: 100)),
            like("uMina", "t4"),  // 500
            like("uMina", "t6", at: at(minute: 100)),  // same time as t3: by ID
            like("uMina", "t5", at: at(minute: 100)),
        ])
        #expect(try tweetIDs(site.page("u/mina/likes/index.html")) == ["t4", "t1", "t2", "t3", "t5", "t6"])
        // The feed keeps tweet order.
        #expect(try tweetIDs(site.page("index.html")) == ["t4", "t2", "t3", "t1", "t6", "t5"])
    }

    @Test func likesTabPaginates() throws {
        var docs = [user("uMina", "mina"), user("uBob", "bob")]
        for i in 0..<25 {
            let id = "t\(i < 10 ? "0" : "")\(i)"
            docs.append(tweet(id, by: "uBob", at: at(minute: i)))
            docs.append(like("uMina", id, at: at(minute: 1000 - i)))  // liked oldest-first: t00 is the newest like
        }
        let site = try render(docs)
        let first = try site.page("u/mina/likes/index.html")
        let second = try site.page("u/mina/likes/page/2/index.html")
        #expect(tweetIDs(first) == (0..<20).map { "t\($0 < 10 ? "0" : "")\($0)" })
        #expect(tweetIDs(second) == (20..<25).map { "t\($0)" })
        #expect(pagerLink("next", in: first) == "u/mina/likes/page/2/index.html")
        #expect(pagerLink("prev", in: second) == "u/mina/likes/index.html")
        #expect(site["u/mina/likes/page/3/index.html"] == nil)
    }
}
