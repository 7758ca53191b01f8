import Markdown
import Testing

@Suite("PlainText: captions as one line of text")
struct PlainTextTests {
    @Test func keepsLiteralCharactersAndDropsMarkup() {
        #expect(PlainText.excerpt("snake_case_name: 2*3 > 5, `a` **b**", limit: 80) == "snake_case_name: 2*3 > 5, a b")
        #expect(
            PlainText.excerpt("# Title\n\n- one\n- two\n\n> quoted _text_", limit: 80) == "Title one two quoted text")
        #expect(PlainText.excerpt("<b>raw</b> & [link](https://x.example)", limit: 80) == "<b>raw</b> & link")
    }

    @Test func cutsLongTextAtAWordBoundary() {
        let text = String(repeating: "word ", count: 40)
        let cut = PlainText.excerpt(text, limit: 22)
        #expect(cut == "word word word word…")
        #expect(
            PlainText.excerpt(String(repeating: "가", count: 100), limit: 10) == String(repeating: "가", count: 10) + "…")
    }
}

@Suite("MarkdownRenderer: tags without a page")
struct UnknownTagTests {
    @Test func aTagWithoutAPageIsNotLinked() {
        let renderer = MarkdownRenderer(mentionURL: { _ in nil }, tagURL: { $0 == "swift" ? "tags/swift/" : nil })
        #expect(
            renderer.render("#design and #Swift")
                == "<p>#design and <a class=\"hashtag\" href=\"tags/swift/\">#Swift</a></p>\n")
    }
}

@Suite("MarkdownRenderer: HTML and excerpt from one parse")
struct RenderWithExcerptTests {
    @Test(arguments: [
        "plain *text*", "# Head\n\n- a\n- b", "```\ncode  block\n```\nafter", String(repeating: "긴 글 ", count: 60),
    ])
    func agreesWithTheSeparateFunctions(_ markdown: String) {
        let renderer = MarkdownRenderer(mentionURL: { _ in nil }, tagURL: { _ in nil })
        let both = renderer.render(markdown, excerptLimit: 80)
        #expect(both.html == renderer.render(markdown))
        #expect(both.excerpt == PlainText.excerpt(markdown, limit: 80))
    }
}
