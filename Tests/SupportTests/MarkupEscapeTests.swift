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

    /// HTML's noncharacters (the Nu checker: "Forbidden code point") go the same way; their
    /// neighbours, which share their first bytes, stay.
    @Test func noncharactersBecomeTheReplacementCharacter() {
        func text(_ value: UInt32) -> String { String(Unicode.Scalar(value)!) }
        for value: UInt32 in [0xFDD0, 0xFDEF, 0x1FFFE, 0x1FFFF, 0x2FFFE, 0xEFFFF, 0x10FFFE, 0x10FFFF] {
            #expect(MarkupEscape.escaped("a\(text(value))b") == "a\u{FFFD}b", "\(value)")
        }
        for value: UInt32 in [0xFDCF, 0xFDF0, 0xFFFD, 0x1FFFD, 0x1F600, 0x1FFBE, 0x10FFFD, 0xF0000] {
            #expect(MarkupEscape.escaped("a\(text(value))b") == "a\(text(value))b", "\(value)")
        }
    }
}
