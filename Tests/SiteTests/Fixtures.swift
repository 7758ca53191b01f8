import Foundation
import Model
import Mustache
import Site
import Store
import TestSupport
import Testing

// MARK: - Documents

/// A JSON-ish object value: `object(["latitude": .double(1)])` keeps the given order.
func object(_ pairs: KeyValuePairs<String, Value>) -> Value {
    .map(Fields(pairs.map { (key: $0.key, value: $0.value) }))
}

/// An RFC 3339 time `minutes` after 2024-01-01T00:00:00Z (less than 24 hours).
func at(minute minutes: Int) -> String {
    precondition((0..<1440).contains(minutes))
    let h = minutes / 60
    let m = minutes % 60
    return "2024-01-01T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):00Z"
}

// MARK: - Rendering

/// Every output file of one build, by path, as text.
struct RenderedSite {
    let plan: SitePlan
    /// Paths in plan order.
    let paths: [String]
    let files: [String: String]

    subscript(_ path: String) -> String? { files[path] }

    /// The page, or a test failure naming the missing path.
    func page(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        try #require(files[path], "no page \(path)", sourceLocation: sourceLocation)
    }

    var htmlPaths: [String] { paths.filter { $0.hasSuffix(".html") } }

    /// Every file whose text contains `needle`.
    func paths(containing needle: String) -> [String] {
        paths.filter { files[$0]!.contains(needle) }
    }
}

func render(
    _ documents: [Document], config: SiteConfig = SiteConfig(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> RenderedSite {
    try render(snapshot: Snapshot(documents: documents), config: config, sourceLocation: sourceLocation)
}

func render(
    snapshot: Snapshot, config: SiteConfig = SiteConfig(), cardBudget: Int? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> RenderedSite {
    let pages = try RenderedPages(of: snapshot, config: config, cardBudget: cardBudget)
    #expect(pages.duplicate == nil, "two pages at \(pages.duplicate ?? "")", sourceLocation: sourceLocation)
    return RenderedSite(
        plan: pages.renderer.plan, paths: pages.paths,
        files: pages.files.mapValues { String(decoding: $0, as: UTF8.self) })
}

// MARK: - Reading HTML

/// The (unescaped) values of every `name="…"` attribute, in document order.
func attributeValues(_ name: String, in html: String) -> [String] {
    var values: [String] = []
    let needle = " \(name)=\""
    var rest = html[...]
    while let range = rest.range(of: needle) {
        let valueStart = range.upperBound
        guard let end = rest[valueStart...].firstIndex(of: "\"") else { break }
        values.append(decodeReferences(String(rest[valueStart..<end])))
        rest = rest[rest.index(after: end)...]
    }
    return values
}

/// The tweet IDs of the cards on a page, in order.
func tweetIDs(_ html: String) -> [String] { attributeValues("data-tweet-id", in: html) }

/// Every card (`<article …>…</article>`) on a page, in order.
func cards(_ html: String) -> [String] {
    var found: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<article "), let end = rest[start.lowerBound...].range(of: "</article>") {
        found.append(String(rest[start.lowerBound..<end.upperBound]))
        rest = rest[end.upperBound...]
    }
    return found
}

/// The card of tweet `id` on a page (the first, if several).
func card(_ id: String, in html: String) -> String? {
    cards(html).first { tweetIDs($0).first == id }
}

/// The text between the first `start` and the next `end` after it.
func section(_ html: String, from start: String, to end: String) -> String? {
    guard let s = html.range(of: start), let e = html[s.upperBound...].range(of: end) else { return nil }
    return String(html[s.lowerBound..<e.upperBound])
}

/// The `href` of the first `<a … rel="next|prev" …>`.
func pagerLink(_ rel: String, in html: String) -> String? {
    guard let nav = section(html, from: "<nav class=\"pager\"", to: "</nav>") else { return nil }
    guard let r = nav.range(of: "rel=\"\(rel)\" href=\"") else { return nil }
    let rest = nav[r.upperBound...]
    return decodeReferences(String(rest[..<rest.firstIndex(of: "\"")!]))
}

// MARK: - Paths and links (`brokenLinks`, `links` and `isRelativeLink` are in TestSupport)

/// The page's `<base href>`.
func baseHref(_ html: String) -> String? {
    guard let tag = section(html, from: "<base ", to: ">") else { return nil }
    return attributeValues("href", in: tag).first
}

/// The relative links of every page, for comparing builds under different base URLs.
func relativeLinks(in site: RenderedSite) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for path in site.htmlPaths { result[path] = relativeLinks(site.files[path]!) }
    return result
}

/// Absolute URLs in the XML files: `href`, `<id>`, `<uri>`, `<loc>` values.
func xmlURLs(_ xml: String) -> [String] {
    var urls = attributeValues("href", in: xml)
    for tag in ["id", "uri", "loc"] {
        var rest = xml[...]
        while let open = rest.range(of: "<\(tag)>"), let close = rest[open.upperBound...].range(of: "</\(tag)>") {
            urls.append(decodeReferences(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
    }
    return urls
}

// MARK: - A store with a bit of everything

/// Users of every handle kind, replies (to existing, deleted, and author-less tweets),
/// likes (counted, of missing users, of missing tweets), tags (mixed case, Korean),
/// mentions, favorites with coordinates in every form, and enough tweets to paginate.
let richStore: [Document] = {
    var docs: [Document] = [
        user(
            "uMina", "mina", fullname: "Mina Park", bio: "Designer. **Seoul**, #Swift, friend of @bob.",
            image: "https://example.com/mina.jpg", email: "mina.secret@private.example"),
        user("uBob", "bob", fullname: "Bob Lee", email: "bob.secret@private.example"),
        user("uCarol", "carol", email: "carol.secret@private.example"),
        user("uSeo", "seo.yeon", fullname: "Seo Yeon"),
        user("uKor", "서연", fullname: "김서연"),
        user("uMoonA", "Moon", fullname: "Moon A"),
        user("uMoonB", "moon", fullname: "Moon B"),
        user("uQuiet", "quiet"),
        tweet("a1", by: "uMina", at: at(minute: 10), "Hello #Swift world, @bob!", likes: 99),
        tweet("a2", by: "uBob", at: at(minute: 11), "#swift is great, `@MainActor` too, says @nobody"),
        tweet("a3", by: "uCarol", at: at(minute: 12), "서울 여행 #서울 with @mina and @Moon"),
        tweet("r1", by: "uBob", at: at(minute: 13), "Nice one @mina", replyTo: "a1"),
        tweet("r2", by: "uCarol", at: at(minute: 14), "Agreed", replyTo: "a1"),
        tweet("r3", by: "uBob", at: at(minute: 15), "Whatever that was", replyTo: "deleted1"),
        tweet("g1", by: "uGhost", at: at(minute: 16), "Nobody knows me"),
        tweet("r4", by: "uMina", at: at(minute: 17), "Who are you?", replyTo: "g1"),
        tweet("s1", by: "uSeo", at: at(minute: 18), "Dots in my name"),
        tweet("k1", by: "uKor", at: at(minute: 19), "안녕하세요 #서울"),
        tweet("m1", by: "uMoonA", at: at(minute: 20), "Upper moon"),
        tweet("m2", by: "uMoonB", at: at(minute: 21), "lower moon"),
        like("uMina", "a2", at: at(minute: 40)),
        like("uMina", "a3"),
        like("uMina", "deleted2", at: at(minute: 50)),
        like("uBob", "a1", at: at(minute: 30)),
        like("uBob", "a3"),
        like("uCarol", "a1"),
        like("uGhost", "a1"),
        favorite(
            "uMina", "p1", "Zoo", address: "1 Zoo Road",
            coordinate: object(["latitude": .double(37.5), "longitude": .integer(127)])),
        favorite(
            "uMina", "p2", "Café Onion", address: "8 Achasan-ro",
            coordinate: object(["latitude": .string("37.5446"), "longitude": .string("127.0559")])),
        favorite(
            "uMina", "p3", "Apple Store",
            coordinate: object(["latitude": .double(-33.8688), "longtitude": .double(151.2093)])),
        favorite("uMina", "p4", "Bar", coordinate: .geoPoint(latitude: 48.8584, longitude: 2.2945)),
        favorite(
            "uMina", "p5", "Bar",
            coordinate: object([
                "__datatype__": .string("geopoint"),
                "value": object(["_latitude": .double(51.5), "_longitude": .double(-0.125)]),
            ])),
        favorite(
            "uMina", "p0", "Ölmühle", coordinate: object(["_latitude": .double(52.52), "_longitude": .double(13.405)])),
    ]
    // Enough of Mina's tweets that the feed and her Tweets tab have a second page.
    for i in 0..<20 {
        docs.append(tweet("f\(i < 10 ? "0" : "")\(i)", by: "uMina", at: at(minute: 100 + i), "Filler \(i) #filler"))
    }
    return docs
}()
