import Markdown
import Testing

/// Users "alice" and "Bob_99" exist; tag pages live under /tags/.
let renderer = MarkdownRenderer(
    mentionURL: { handle in
        ["alice", "bob_99"].contains(handle.lowercased()) ? "/u/\(handle.lowercased())/" : nil
    },
    tagURL: { "/tags/\($0)/" }
)

func html(_ markdown: String) -> String { renderer.render(markdown) }

let rel = #"rel="nofollow ugc noopener""#

@Suite struct Blocks {
    @Test func paragraphAndInlines() {
        #expect(
            html("Hello *world* and **bold** and `x < y`")
                == "<p>Hello <em>world</em> and <strong>bold</strong> and <code>x &lt; y</code></p>\n")
    }

    @Test func empty() {
        #expect(html("") == "")
        #expect(html("   \n\n") == "")
    }

    @Test func tightAndLooseLists() {
        #expect(html("- a\n- b\n") == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
        #expect(html("1. a\n\n2. b\n") == "<ol>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ol>\n")
        #expect(html("3. c\n4. d") == "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n")
    }

    @Test func nestedList() {
        #expect(html("- a\n  - b\n") == "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n")
    }

    @Test func blockquote() {
        #expect(html("> quoted\n> more") == "<blockquote>\n<p>quoted\nmore</p>\n</blockquote>\n")
    }

    @Test func codeBlocks() {
        #expect(
            html("```swift\nlet a = \"<b>\" && b\n```\n")
                == "<pre><code class=\"language-swift\">let a = &quot;&lt;b&gt;&quot; &amp;&amp; b\n</code></pre>\n")
        #expect(
            html("    indented @alice #tag https://x.com\n")
                == "<pre><code>indented @alice #tag https://x.com\n</code></pre>\n")
        #expect(
            html("```\"><script> more\nx\n```").hasPrefix("<pre><code class=\"language-&quot;&gt;&lt;script&gt;\">"))
    }

    @Test func headingsDoNotBreakTheOutline() {
        #expect(html("# Title\n\ntext") == "<p><strong>Title</strong></p>\n<p>text</p>\n")
        #expect(html("Sub\n---") == "<p><strong>Sub</strong></p>\n")
    }

    @Test func breaksAndRules() {
        #expect(html("a\nb") == "<p>a\nb</p>\n")
        #expect(html("a  \nb") == "<p>a<br>\nb</p>\n")
        #expect(html("a\\\nb") == "<p>a<br>\nb</p>\n")
        #expect(html("a\n\n***\n\nb") == "<p>a</p>\n<hr>\n<p>b</p>\n")
    }

    @Test func noSmartPunctuation() {
        #expect(html("\"quotes\" -- and...") == "<p>&quot;quotes&quot; -- and...</p>\n")
    }

    @Test func escaping() {
        #expect(html("Tom & Jerry's <3 > 2") == "<p>Tom &amp; Jerry&#39;s &lt;3 &gt; 2</p>\n")
        #expect(html("&amp; &copy; &#39;") == "<p>&amp; © &#39;</p>\n")
    }

    @Test func nulIsReplaced() {
        #expect(html("a\u{0}b") == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func deterministic() {
        let text = "Hi @alice, see #Swift and https://example.com/a_(b) — `code`\n\n- [x](https://y.org)"
        #expect(html(text) == html(text))
    }
}

@Suite struct RawHTML {
    @Test func inlineHTMLIsShownAsText() {
        #expect(html("<b>hi</b>") == "<p>&lt;b&gt;hi&lt;/b&gt;</p>\n")
        #expect(html("a <img src=x onerror=alert(1)> b") == "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n")
    }

    @Test func htmlBlocksAreShownAsText() {
        #expect(html("<script>\nalert(1)\n</script>") == "<p>&lt;script&gt;\nalert(1)\n&lt;/script&gt;</p>\n")
        #expect(html("<div>\n*x*\n</div>\n\nafter") == "<p>&lt;div&gt;\n*x*\n&lt;/div&gt;</p>\n<p>after</p>\n")
        #expect(html("<!-- comment -->") == "<p>&lt;!-- comment --&gt;</p>\n")
    }

    @Test func noTagSurvives() {
        let nasty =
            "<iframe src=//evil></iframe>\n\n<style>*{}</style>\n\n[a](<x\"onmouseover=\"y>)\n\n<a href=\"javascript:x\">z</a>"
        let out = html(nasty)
        #expect(!out.contains("<iframe"))
        #expect(!out.contains("<style"))
        #expect(!out.contains("<a href=\"javascript"))
        #expect(!out.contains("\"onmouseover"))
    }
}

@Suite struct Links {
    @Test func externalLinkGetsRel() {
        #expect(
            html("[site](https://example.com/a?b=1&c=2)")
                == "<p><a href=\"https://example.com/a?b=1&amp;c=2\" \(rel)>site</a></p>\n")
        #expect(html("[mail](mailto:a@b.com)") == "<p><a href=\"mailto:a@b.com\" \(rel)>mail</a></p>\n")
        #expect(html("[x](//cdn.example)") == "<p><a href=\"//cdn.example\" \(rel)>x</a></p>\n")
    }

    @Test func relativeLinkHasNoRel() {
        #expect(html("[home](/u/alice/)") == "<p><a href=\"/u/alice/\">home</a></p>\n")
        #expect(html("[top](#top)") == "<p><a href=\"#top\">top</a></p>\n")
    }

    @Test func title() {
        #expect(
            html("[a](https://x.org \"T \\\"q\\\" & 'z'\")")
                == "<p><a href=\"https://x.org\" \(rel) title=\"T &quot;q&quot; &amp; &#39;z&#39;\">a</a></p>\n")
    }

    @Test func autolink() {
        #expect(
            html("<https://example.com>") == "<p><a href=\"https://example.com\" \(rel)>https://example.com</a></p>\n")
        #expect(html("<a@b.com>") == "<p><a href=\"mailto:a@b.com\" \(rel)>a@b.com</a></p>\n")
    }

    @Test(arguments: [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](<\u{1}javascript:alert(1)>)",
        "[x](< javascript:alert(1)>)",
        "[x](<java\tscript:alert(1)>)",
        "[x](&#106;avascript:alert(1))",
        "[x](javascript&colon;alert(1))",
        "[x](vbscript:msgbox)",
        "[x](VBScript:msgbox)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](data:image/png;base64,AAAA)",
        "[x](file:///etc/passwd)",
        "[x](FILE:///etc/passwd)",
        "<javascript:alert(1)>",
    ])
    func dangerousLinksAreDropped(markdown: String) {
        let out = html(markdown)
        #expect(!out.contains("href"), "\(out)")
        #expect(!out.lowercased().contains("<a "), "\(out)")
    }

    @Test func hrefIsWhatWasClassified() {
        #expect(html("[x](<\u{1} https://ok.org/a\tb >)") == "<p><a href=\"https://ok.org/ab\" \(rel)>x</a></p>\n")
    }

    @Test func droppedLinkKeepsItsText() {
        #expect(html("[click *me*](javascript:alert(1))") == "<p>click <em>me</em></p>\n")
    }

    @Test func emptyLinkTextShowsURL() {
        #expect(html("[](https://x.org)") == "<p><a href=\"https://x.org\" \(rel)>https://x.org</a></p>\n")
    }

    @Test func urlAttributeEscaping() {
        // A `"` in a URL can never close the attribute.
        #expect(
            html("[a](<https://x.org/\"onclick=\"alert(1)>)")
                == "<p><a href=\"https://x.org/%22onclick=%22alert(1)\" \(rel)>a</a></p>\n")
        #expect(html("[a](https://x.org/a&quot;b)") == "<p><a href=\"https://x.org/a%22b\" \(rel)>a</a></p>\n")
        #expect(
            html("[a](<https://x.org/a b'c\\<d>)") == "<p><a href=\"https://x.org/a%20b&#39;c%3Cd\" \(rel)>a</a></p>\n")
        #expect(
            html("[a](https://ko.wikipedia.org/wiki/서울)")
                == "<p><a href=\"https://ko.wikipedia.org/wiki/%EC%84%9C%EC%9A%B8\" \(rel)>a</a></p>\n")
    }
}

@Suite struct Images {
    @Test func imageBecomesLink() {
        #expect(
            html("![a cat](https://x.org/cat.png)") == "<p><a href=\"https://x.org/cat.png\" \(rel)>a cat</a></p>\n")
        #expect(!html("![a cat](https://x.org/cat.png)").contains("<img"))
    }

    @Test func altTextIsPlain() {
        #expect(
            html("![*a* `b` @alice #tag](/p.png \"t\")")
                == "<p><a href=\"/p.png\" title=\"t\">a b @alice #tag</a></p>\n")
    }

    @Test func emptyAltShowsURL() {
        #expect(html("![](/p.png)") == "<p><a href=\"/p.png\">/p.png</a></p>\n")
    }

    @Test func unsafeImageIsJustAltText() {
        #expect(html("![boom](javascript:alert(1))") == "<p>boom</p>\n")
        #expect(html("![pixel](data:image/gif;base64,R0lGOD)") == "<p>pixel</p>\n")
    }

    @Test func imageInsideLinkDoesNotNestAnchors() {
        #expect(html("[![logo](/l.png)](https://x.org)") == "<p><a href=\"https://x.org\" \(rel)>logo</a></p>\n")
    }
}

@Suite struct Mentions {
    @Test func linkedWhenUserExists() {
        #expect(html("hi @alice!") == "<p>hi <a class=\"mention\" href=\"/u/alice/\">@alice</a>!</p>\n")
        #expect(html("@Bob_99") == "<p><a class=\"mention\" href=\"/u/bob_99/\">@Bob_99</a></p>\n")
    }

    @Test func notLinkedWhenUnknown() {
        #expect(html("hi @nobody") == "<p>hi @nobody</p>\n")
    }

    @Test func notInCodeOrLinks() {
        #expect(html("`@alice` and `@MainActor`") == "<p><code>@alice</code> and <code>@MainActor</code></p>\n")
        #expect(html("```\n@alice\n```") == "<pre><code>@alice\n</code></pre>\n")
        #expect(html("[@alice](https://x.org)") == "<p><a href=\"https://x.org\" \(rel)>@alice</a></p>\n")
        // Inline raw HTML is not text, but what is between the tags is.
        #expect(
            html("<b>@alice</b>") == "<p>&lt;b&gt;<a class=\"mention\" href=\"/u/alice/\">@alice</a>&lt;/b&gt;</p>\n")
        #expect(html("<div>\n@alice\n</div>") == "<p>&lt;div&gt;\n@alice\n&lt;/div&gt;</p>\n")
        #expect(
            html("<a href=\"https://x.org\">@alice</a>")
                == "<p>&lt;a href=&quot;https://x.org&quot;&gt;<a class=\"mention\" href=\"/u/alice/\">@alice</a>&lt;/a&gt;</p>\n"
        )
    }

    @Test func emailIsNotAMention() {
        #expect(html("write to a@b.com or alice@alice.org") == "<p>write to a@b.com or alice@alice.org</p>\n")
    }

    @Test func boundaries() {
        #expect(html("(@alice)") == "<p>(<a class=\"mention\" href=\"/u/alice/\">@alice</a>)</p>\n")
        #expect(html("_@alice") == "<p>_@alice</p>\n")
        #expect(html("@" + String(repeating: "a", count: 31)) == "<p>@" + String(repeating: "a", count: 31) + "</p>\n")
        #expect(html("@ alice") == "<p>@ alice</p>\n")
        // Escaped or emphasised neighbours: text nodes are merged before scanning.
        #expect(html("x\\_@alice") == "<p>x_@alice</p>\n")
        #expect(html("**@alice**") == "<p><strong><a class=\"mention\" href=\"/u/alice/\">@alice</a></strong></p>\n")
        #expect(html("@alice님") == "<p><a class=\"mention\" href=\"/u/alice/\">@alice</a>님</p>\n")
    }
}

@Suite struct Hashtags {
    @Test func linkedLowercased() {
        #expect(html("#Swift rocks") == "<p><a class=\"hashtag\" href=\"/tags/swift/\">#Swift</a> rocks</p>\n")
        #expect(
            html("여행 #서울 #Café_2")
                == "<p>여행 <a class=\"hashtag\" href=\"/tags/서울/\">#서울</a> <a class=\"hashtag\" href=\"/tags/café_2/\">#Café_2</a></p>\n"
        )
    }

    @Test func notTags() {
        #expect(html("#123 is a number") == "<p>#123 is a number</p>\n")
        #expect(html("it&#39;s a#b") == "<p>it&#39;s a#b</p>\n")
        // An entity-encoded "#" is a "#" in the text, like any other.
        #expect(html("&#x23;x") == "<p><a class=\"hashtag\" href=\"/tags/x/\">#x</a></p>\n")
        #expect(html("&#abc; # alone") == "<p>&amp;#abc; # alone</p>\n")
        #expect(html("#" + String(repeating: "a", count: 65)) == "<p>#" + String(repeating: "a", count: 65) + "</p>\n")
        #expect(html("`#tag`") == "<p><code>#tag</code></p>\n")
    }

    /// A backslash before `#` or `@` is Markdown's "this character as it is": no link, and
    /// no tag or mention for the pages and the search; an entity is a `#` like any other.
    @Test func escapedSigilsStartNoLink() {
        #expect(html("\\#swift and \\@alice") == "<p>#swift and @alice</p>\n")
        #expect(html("**\\#swift**") == "<p><strong>#swift</strong></p>\n")
        #expect(
            html("\\##swift \\#\\@alice #ok")
                == "<p>#<a class=\"hashtag\" href=\"/tags/swift/\">#swift</a> #@alice "
                + "<a class=\"hashtag\" href=\"/tags/ok/\">#ok</a></p>\n")
        #expect(
            html("> \\#quoted\n> - \\@listed")
                == "<blockquote>\n<p>#quoted</p>\n<ul>\n<li>@listed</li>\n</ul>\n</blockquote>\n")
        // An escaped backslash escapes nothing after it.
        #expect(html("\\\\#ok") == "<p>\\<a class=\"hashtag\" href=\"/tags/ok/\">#ok</a></p>\n")
        let scanned = HashtagsAndMentions.scan("\\#swift \\@alice #kept @Bob_99 x\\_#y")
        #expect(scanned.hashtags == ["kept"])
        #expect(scanned.mentions == ["Bob_99"])
        #expect(PlainText.excerpt("\\#swift \\@alice", limit: 100) == "#swift @alice")
        #expect(PlainText.searchable("\\@alice @Bob_99").mentions == ["Bob_99"])
    }

    @Test func digitsWithLetters() {
        #expect(html("#2024wwdc") == "<p><a class=\"hashtag\" href=\"/tags/2024wwdc/\">#2024wwdc</a></p>\n")
        #expect(html("#" + String(repeating: "a", count: 64)).contains("class=\"hashtag\""))
    }

    @Test func headingIsNotATag() {
        #expect(html("# tag") == "<p><strong>tag</strong></p>\n")
        #expect(html("#tag") == "<p><a class=\"hashtag\" href=\"/tags/tag/\">#tag</a></p>\n")
    }

    @Test func tagURLIsEscaped() {
        let odd = MarkdownRenderer(mentionURL: { _ in "/u/a\"b/?x=1&y=2" }, tagURL: { "/t/\($0)/\"<" })
        #expect(
            odd.render("@x #y")
                == "<p><a class=\"mention\" href=\"/u/a&quot;b/?x=1&amp;y=2\">@x</a> <a class=\"hashtag\" href=\"/t/y/&quot;&lt;\">#y</a></p>\n"
        )
    }
}

@Suite struct BareURLs {
    /// An address no page can carry as a link (no host, a port past 65535, an unclosed `[`)
    /// stays text, bare or in a Markdown link; a `%` that starts no escape is `%25`.
    @Test func addressesWithoutAUsableHostAreNotLinked() {
        #expect(
            html("see https://x.com:99999/ and https://[::1") == "<p>see https://x.com:99999/ and https://[::1</p>\n")
        #expect(html("[here](https://x.com:99999/)") == "<p>here</p>\n")
        #expect(html("[here](https:// )") == "<p>here</p>\n")
        #expect(html("[here](https://x.com/%zz)") == "<p><a href=\"https://x.com/%25zz\" \(rel)>here</a></p>\n")
        #expect(html("https://x.com/%zz") == "<p><a href=\"https://x.com/%25zz\" \(rel)>https://x.com/%zz</a></p>\n")
    }

    @Test func linked() {
        #expect(
            html("see https://example.com/path?q=1.")
                == "<p>see <a href=\"https://example.com/path?q=1\" \(rel)>https://example.com/path?q=1</a>.</p>\n")
        #expect(html("HTTP://EXAMPLE.COM") == "<p><a href=\"HTTP://EXAMPLE.COM\" \(rel)>HTTP://EXAMPLE.COM</a></p>\n")
    }

    @Test func trailingPunctuation() {
        #expect(
            html("(https://x.org/a), \"http://y.org\"!?")
                == "<p>(<a href=\"https://x.org/a\" \(rel)>https://x.org/a</a>), &quot;<a href=\"http://y.org\" \(rel)>http://y.org</a>&quot;!?</p>\n"
        )
        #expect(
            html("https://en.wikipedia.org/wiki/Swift_(programming_language);")
                == "<p><a href=\"https://en.wikipedia.org/wiki/Swift_(programming_language)\" \(rel)>https://en.wikipedia.org/wiki/Swift_(programming_language)</a>;</p>\n"
        )
        #expect(
            html("https://x.org/a'b'")
                == "<p><a href=\"https://x.org/a&#39;b\" \(rel)>https://x.org/a&#39;b</a>&#39;</p>\n")
    }

    @Test func mentionsAndTagsInsideURLsAreNot() {
        #expect(
            html("https://mastodon.social/@alice#top")
                == "<p><a href=\"https://mastodon.social/@alice#top\" \(rel)>https://mastodon.social/@alice#top</a></p>\n"
        )
    }

    @Test func entitiesAndEscapesInURL() {
        #expect(
            html("https://x.org/?a=1&amp;b=\"2\"")
                == "<p><a href=\"https://x.org/?a=1&amp;b=%222\" \(rel)>https://x.org/?a=1&amp;b=&quot;2</a>&quot;</p>\n"
        )
    }

    @Test func notLinked() {
        #expect(html("`https://x.org`") == "<p><code>https://x.org</code></p>\n")
        #expect(html("```\nhttps://x.org\n```") == "<pre><code>https://x.org\n</code></pre>\n")
        #expect(
            html("[here](https://y.org) https:// nohttps://x.org ftp://x.org")
                == "<p><a href=\"https://y.org\" \(rel)>here</a> https:// nohttps://x.org ftp://x.org</p>\n")
        #expect(html("[see https://x.org](/local)") == "<p><a href=\"/local\">see https://x.org</a></p>\n")
    }

    @Test func koreanAfterURL() {
        #expect(
            html("https://x.org/서울 좋아요")
                == "<p><a href=\"https://x.org/%EC%84%9C%EC%9A%B8\" \(rel)>https://x.org/서울</a> 좋아요</p>\n")
    }
}

@Suite struct Robustness {
    @Test func oneMegabyteCaption() {
        let line =
            "Hello @alice and @nobody, #Tag_\(1) https://example.com/x?y=1 *em* `code` <b>x</b> [l](https://y.org)\n"
        let big = String(repeating: line, count: 1_000_000 / line.utf8.count + 1)
        #expect(big.utf8.count > 1_000_000)
        let out = html(big)
        #expect(out.hasPrefix("<p>Hello <a class=\"mention\""))
        #expect(out.hasSuffix("</p>\n"))
        #expect(!out.contains("<b>"))
        let scanned = HashtagsAndMentions.scan(big)
        #expect(scanned.hashtags == ["tag_1"])
        #expect(scanned.mentions == ["alice", "nobody"])
    }

    /// Named cases, so a failure (and the test log) shows the name, not a megabyte of input.
    static let pathological: [String: String] = [
        "200,000 nested quotes": String(repeating: ">", count: 200_000) + " deep",
        "50,000 nested lists": String(repeating: "- ", count: 50_000) + "deep",
        "500,000 brackets": String(repeating: "[", count: 500_000),
        "300,000 emphasis openers": String(repeating: "*a ", count: 300_000),
        "200,000 nested images": String(repeating: "![", count: 200_000) + String(repeating: "](x)", count: 200_000),
        "100,000 URL schemes": String(repeating: "https://", count: 100_000),
        "1,000,000 hashes": String(repeating: "#", count: 1_000_000),
        "1,000,000 at signs": String(repeating: "@", count: 1_000_000),
        "500,000 closing parens after a URL": "https://x.org/" + String(repeating: ")", count: 500_000),
    ]

    @Test(arguments: pathological.keys.sorted())
    func pathologicalInput(name: String) {
        let markdown = Self.pathological[name]!
        let out = html(markdown)
        #expect(!out.isEmpty)
        _ = HashtagsAndMentions.scan(markdown)
    }
}
