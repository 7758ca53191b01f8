import Site
import Testing

@testable import Live

@Suite("StoreIndex: the page that lists several stores")
struct StoreIndexTests {
    /// A name and a path with an apostrophe and control characters: escaped as every page
    /// escapes text (`'` as an entity, a control character as U+FFFD), so the page stays valid.
    @Test func escapesApostrophesAndControlCharacters() throws {
        let site = LiveSite(store: "/stores/o'clock\u{7}", templates: nil, config: SiteConfig())
        let index = StoreIndex(sites: [(name: "it's\u{1}", site: site)])
        let page = String(decoding: try #require(index.file(at: "index.html")), as: UTF8.self)
        #expect(page.contains("<a href=\"it&#39;s\u{FFFD}/\">it&#39;s\u{FFFD}</a>"))
        #expect(page.contains("<small>/stores/o&#39;clock\u{FFFD}</small>"))
        #expect(!page.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
