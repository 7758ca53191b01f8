import Support
import Testing

@Suite("MarkupEscape: one rule for pages, feeds and the preview")
struct MarkupEscapeTests {
    @Test func entitiesAndForbiddenCharacters() {
        #expect(MarkupEscape.escaped("a & <b> \"c\" 'd'") == "a &amp; &lt;b&gt; &quot;c&quot; &#39;d&#39;")
        #expect(
            MarkupEscape.escaped("\u{0}\u{8}\t\n\r\u{7F}\u{85}\u{FFFE}\u{FFFF}")
                == "\u{FFFD}\u{FFFD}\t\n\r\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(MarkupEscape.escaped("서울 é \u{A0} \u{FFFD}") == "서울 é \u{A0} \u{FFFD}")
    }
}
