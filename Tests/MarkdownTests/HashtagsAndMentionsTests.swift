import Markdown
import Testing

@Suite struct HashtagsAndMentionsScan {
    @Test func basics() {
        let result = HashtagsAndMentions.scan("Hi @alice and @Bob_99! #Swift #swift #서울 #SWIFT @alice")
        #expect(result.hashtags == ["swift", "서울"])
        #expect(result.mentions == ["alice", "Bob_99"])
    }

    @Test func mentionsAsWrittenAndUnique() {
        #expect(HashtagsAndMentions.scan("@Alice @alice @Alice").mentions == ["Alice", "alice"])
    }

    @Test func textOnly() {
        let result = HashtagsAndMentions.scan(
            """
            `@code #code` [@link #link](https://x.org) ![@img #img](/i.png) <span title="#attr @attr">#html @html</span>
            <https://x.org/#auto> https://x.org/@url#frag a@b.com &#39; #123

                @block #block

            ```
            @fence #fence
            ```

            <div>
            #htmlblock @htmlblock
            </div>

            # #heading @heading
            > #quote @quote
            """)
        // Between inline HTML tags is text; inside a tag or an HTML block is not.
        #expect(result.hashtags == ["html", "heading", "quote"])
        #expect(result.mentions == ["html", "heading", "quote"])
    }

    @Test func empty() {
        let result = HashtagsAndMentions.scan("")
        #expect(result.hashtags.isEmpty && result.mentions.isEmpty)
    }

    /// Whatever the renderer links is what `scan` reports, and nothing else.
    @Test(arguments: [
        "Hi @alice and @nobody #Swift",
        "`@MainActor` #tag in `#code`",
        "[@alice #x](https://x.org) @bob_99 #y",
        "a@b.com #123 &#39; &#abc; #a1 x#y _@z @_z",
        "**#bold** _@alice_ ***@nobody***",
        "![#alt @alice](/p.png) then #after",
        "<b>#html</b> <!-- @alice --> #ok",
        "https://x.org/#frag @alice/#notag (#paren) #서울_2024 #Straße",
        "- #one\n- @alice\n\n> #two @nobody\n\n```\n#three\n```",
        "#" + String(repeating: "x", count: 64) + " #" + String(repeating: "y", count: 65),
        "@" + String(repeating: "h", count: 30) + " @" + String(repeating: "i", count: 31),
    ])
    func agreesWithRenderer(markdown: String) {
        let everyone = MarkdownRenderer(mentionURL: { "/u/\($0)/" }, tagURL: { "/tags/\($0)/" })
        let out = everyone.render(markdown)
        let result = HashtagsAndMentions.scan(markdown)
        #expect(linked(out, class: "hashtag", prefix: "/tags/") == result.hashtags)
        #expect(linked(out, class: "mention", prefix: "/u/") == result.mentions)
    }
}

/// The unique values of `href="prefix…/"` in links of the given class, in order.
private func linked(_ html: String, class name: String, prefix: String) -> [String] {
    var found: [String] = []
    let opener = "<a class=\"\(name)\" href=\"\(prefix)"
    var rest = Substring(html)
    while let range = rest.firstRange(of: opener) {
        rest = rest[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { break }
        let value = String(rest[..<end].dropLast())  // drop the trailing "/"
        if !found.contains(value) { found.append(value) }
        rest = rest[end...]
    }
    return found
}
