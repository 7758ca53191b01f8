import Site
import Store
import TestSupport
import Testing

/// Hashtags and mentions in captions (SPEC 3, "Captions").
@Suite struct HashtagsAndMentions {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test func tagsOfAnyCaseShareOnePage() throws {
        let html = try site.page("tags/swift/index.html")
        #expect(tweetIDs(html) == ["a2", "a1"])
        #expect(html.contains("<h1 class=\"page-title has-subtitle\">#swift"))
        #expect(site.paths.filter { $0.lowercased().hasPrefix("tags/swift") } == ["tags/swift/index.html"])
        #expect(
            try #require(card("a1", in: site.page("t/a1/index.html")))
                .contains("<a class=\"hashtag\" href=\"tags/swift/index.html\">#Swift</a>"))
        #expect(
            try #require(card("a2", in: site.page("t/a2/index.html")))
                .contains("<a class=\"hashtag\" href=\"tags/swift/index.html\">#swift</a>"))
    }

    @Test func everyTagHasItsPage() throws {
        let tags = site.paths.filter { $0.hasPrefix("tags/") && $0 != "tags/index.html" }.sorted()
        #expect(
            tags == [
                "tags/filler/index.html", "tags/swift/index.html",
                "tags/서울/index.html",
            ])
    }

    @Test func koreanTagPage() throws {
        // The file's path holds the raw UTF-8; links percent-encode it.
        let html = try site.page("tags/서울/index.html")
        #expect(tweetIDs(html) == ["k1", "a3"])
        let href = "tags/%EC%84%9C%EC%9A%B8/index.html"
        #expect(
            try #require(card("a3", in: site.page("t/a3/index.html")))
                .contains("<a class=\"hashtag\" href=\"\(href)\">#서울</a>"))
        #expect(try #require(card("k1", in: site.page("t/k1/index.html"))).contains("href=\"\(href)\""))
    }

    /// `![alt](url)` is a picture with `--media link` too (the default), pointing at the
    /// remote URL as the store has it (encoded), alt text kept; an address no page can carry
    /// is the placeholder. (It was a text link to the image.)
    @Test func imagesInCaptionsArePicturesInLinkMode() throws {
        let site = try render([
            user("u1", "bob"),
            tweet(
                "t1", by: "u1", at: at(minute: 1), "look ![a cat](<https://example.com/c a t.png>) and ![](https://)"),
        ])
        let caption = try #require(
            section(try site.page("t/t1/index.html"), from: "<div class=\"e-content caption\">", to: "</div>"))
        #expect(attributeValues("src", in: caption) == ["https://example.com/c%20a%20t.png", "static/picture.svg"])
        #expect(caption.contains("alt=\"a cat\""))
        #expect(attributeValues("href", in: caption).isEmpty)
    }

    @Test func mentionsOfExistingUsersLink() throws {
        let a1 = try #require(card("a1", in: try site.page("t/a1/index.html")))
        #expect(a1.contains("<a class=\"mention\" href=\"u/bob/index.html\">@bob</a>"))
        // An exact username wins even when another user shares it ignoring case.
        let a3 = try #require(card("a3", in: try site.page("t/a3/index.html")))
        #expect(a3.contains("<a class=\"mention\" href=\"u/mina/index.html\">@mina</a>"))
        #expect(a3.contains("<a class=\"mention\" href=\"u/u-uMoonA/index.html\">@Moon</a>"))
    }

    @Test func mentionsIgnoreCaseWhenUnambiguous() throws {
        let site = try render([
            user("uBob", "bob"), user("uMoonA", "Moon"), user("uMoonB", "moon"),
            tweet("t1", by: "uBob", at: at(minute: 1), "@BOB @MOON @moon"),
        ])
        let caption = try #require(
            section(try site.page("t/t1/index.html"), from: "<div class=\"e-content caption\">", to: "</div>"))
        #expect(attributeValues("href", in: caption) == ["u/bob/index.html", "u/u-uMoonB/index.html"])
        #expect(caption.contains("@MOON "))
    }

    @Test func unknownMentionsAndCodeSpansAreNotLinked() throws {
        let a2 = try #require(card("a2", in: try site.page("t/a2/index.html")))
        #expect(a2.contains("says @nobody"))
        #expect(!a2.contains("nobody\""))
        #expect(!a2.contains("nobody/"))
        #expect(a2.contains("<code>@MainActor</code>"))
        #expect(!a2.contains("MainActor\""))
        #expect(!a2.contains("mainactor"))
        #expect(site.paths.allSatisfy { !$0.contains("nobody") && !$0.lowercased().contains("mainactor") })
        // Exactly one mention-free, one-tag caption: the only link in it is the tag.
        let caption = try #require(section(a2, from: "<div class=\"e-content caption\">", to: "</div>"))
        #expect(attributeValues("href", in: caption) == ["tags/swift/index.html"])
    }

    @Test func markdownIsSafe() throws {
        let site = try render([
            user("uMina", "mina"),
            tweet(
                "t1", by: "uMina", at: at(minute: 1),
                "**bold** [site](https://example.com) [bad](javascript:alert(1)) <b>raw</b> see https://swift.org"),
        ])
        let caption = try #require(
            section(try site.page("t/t1/index.html"), from: "<div class=\"e-content caption\">", to: "</div>"))
        #expect(caption.contains("<strong>bold</strong>"))
        #expect(caption.contains("<a href=\"https://example.com\" rel=\"nofollow ugc noopener\">site</a>"))
        #expect(!caption.lowercased().contains("javascript"))
        #expect(caption.contains("&lt;b&gt;raw&lt;/b&gt;"))
        #expect(caption.contains("href=\"https://swift.org\""))
    }
}

/// `captionText` (titles, descriptions, feed entry titles): the caption as plain text.
@Suite struct CaptionText {
    @Test func plainTextKeepsLiteralCharacters() throws {
        let site = try render([
            user("uMina", "mina", fullname: "Mina"),
            tweet("t1", by: "uMina", at: at(minute: 1), "snake_case_name: 2*3 > 5, `a` **b**"),
        ])
        let html = try site.page("t/t1/index.html")
        #expect(html.contains("<title>Mina on Roost: “"))
        #expect(html.contains("<title>Mina on Roost: “snake_case_name: 2*3 &gt; 5, a b”</title>"))
    }
}

/// SPEC 3: `{handle}` is the lowercased username when safe and unique, else derived from the uid.
@Suite struct Handles {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test(arguments: [
        ("uSeo", "seo.yeon", "s1"),  // a dot is not safe
        ("uKor", "서연", "k1"),  // nor is Hangul
        ("uMoonA", "Moon", "m1"),  // `Moon` and `moon` clash
        ("uMoonB", "moon", "m2"),
    ])
    func fallbackHandle(uid: String, username: String, tweetID: String) throws {
        let folder = "u/u-\(uid)/"
        for file in ["index.html", "replies/index.html", "likes/index.html", "favorites/index.html", "feed.xml"] {
            #expect(site[folder + file] != nil, "\(folder + file)")
        }
        // The profile shows the username as is, and links to the uid-derived folder (a Hangul
        // username on this English site carries its language).
        let lang = ScriptLanguage(siteLanguage: "en").lang(of: username).map { " lang=\"\($0)\"" } ?? ""
        let profile = try site.page(folder + "index.html")
        #expect(
            profile.contains("<a class=\"u-url p-nickname\" href=\"\(folder)index.html\"\(lang)>@\(username)</a>"))
        for (path, card) in everyCard(of: tweetID, in: site) {
            #expect(
                card.contains(
                    "<a class=\"u-url p-nickname handle\" href=\"\(folder)index.html\"\(lang)>@\(username)</a>"),
                "\(path)")
        }
        // Nothing is written under the raw or lowercased username.
        #expect(
            site.paths.allSatisfy { !$0.hasPrefix("u/\(username)/") && !$0.hasPrefix("u/\(username.lowercased())/") })
    }

    @Test func safeUsernamesAreLowercased() throws {
        let site = try render([user("uA", "Mina_Park"), tweet("t1", by: "uA", at: at(minute: 1))])
        #expect(site["u/mina_park/index.html"] != nil)
        #expect(
            try #require(card("t1", in: site.page("index.html"))).contains(
                "href=\"u/mina_park/index.html\">@Mina_Park</a>"))
    }

    @Test func everyUserHasAProfile() throws {
        let folders = Set(site.paths.filter { $0.hasPrefix("u/") }.map { $0.split(separator: "/")[1] })
        #expect(folders == ["mina", "bob", "carol", "quiet", "u-uSeo", "u-uKor", "u-uMoonA", "u-uMoonB"])
    }
}

/// Dangling references (SPEC 6): shown with placeholders or left out, never a failed build.
@Suite struct DanglingReferences {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    @Test func tweetByUnknownUser() throws {
        let feed = try site.page("page/2/index.html")
        let g1 = try #require(card("g1", in: feed))
        #expect(g1.contains("<span class=\"p-author h-card author is-missing\">"))
        #expect(g1.contains("<span class=\"p-name name\">Unknown user</span>"))
        #expect(g1.contains("src=\"static/avatar.svg\""))
        #expect(!g1.contains("u/unknown"))
        let permalink = try site.page("t/g1/index.html")
        #expect(permalink.contains("<h1 class=\"page-title\">Tweet by Unknown user</h1>"))
        #expect(card("g1", in: permalink) == g1)
        #expect(site.paths.allSatisfy { !$0.hasPrefix("u/unknown/") && !$0.contains("uGhost") })
    }

    @Test func likeOfMissingTweetIsNotShown() throws {
        #expect(site.paths(containing: "deleted2").isEmpty)
        #expect(try tweetIDs(site.page("u/mina/likes/index.html")) == ["a2", "a3"])
    }

    @Test func likesOfUnknownUsersAreNotCounted() throws {
        #expect(everyCard(of: "a1", in: site).allSatisfy { attributeValues("data-likes", in: $0.card) == ["2"] })
    }
}
