import Foundation
import Model
import Mustache
import Site
import Store
import TestSupport
import Testing

/// Each kind of page declares its view and its fingerprint side by side (`PageDeclaration`): a
/// field a view shows that its fingerprint does not hash would leave a stale page after a
/// rebuild, which skips the pages whose fingerprint is the last build's. Here each input a page
/// can show is changed, one at a time, in a small store with a bit of everything: every page
/// whose bytes change must have a new fingerprint.
@Suite struct PageDrift {
    /// Every path's bytes and fingerprint.
    typealias Built = [String: (bytes: [UInt8], fingerprint: UInt64)]

    static let config = SiteConfig(baseURL: "https://example.com/r/", pageSize: 4, viewer: "mina")

    static func site(
        _ documents: [Document], config: SiteConfig = config, templates: TemplateLibrary? = nil,
        stylesheet: String = defaultStylesheet
    ) throws -> Built {
        let renderer = try SiteRenderer(
            snapshot: Snapshot(documents: documents), config: config,
            templates: templates ?? defaultTemplates(language: config.language), stylesheet: stylesheet)
        var site: Built = [:]
        for (page, fingerprint) in zip(renderer.plan.pages, renderer.pageFingerprints()) {
            site[page.path] = (try renderer.render(page), fingerprint)
        }
        return site
    }

    /// The pages at the same path whose bytes changed but not their fingerprint; and how many
    /// changed at all (so that an edit that changes nothing does not pass for a good one).
    static func drift(from before: Built, to after: Built) -> (stale: [String], changed: Int) {
        var stale: [String] = []
        var changed = 0
        for (path, old) in before {
            guard let new = after[path], new.bytes != old.bytes else { continue }
            changed += 1
            if new.fingerprint == old.fingerprint { stale.append(path) }
        }
        return (stale.sorted(), changed)
    }

    /// `richStore` with the document at `path` replaced (nil: removed), or added when it has none.
    static func replacing(_ path: String, with document: Document?) -> [Document] {
        var documents = richStore.filter { $0.path.description != path }
        if let document { documents.append(document) }
        return documents
    }

    /// One input changed at a time, as a store edit; each changes some page.
    static let edits: [(String, [Document])] = [
        ("a caption", replacing("tweets/a1", with: tweet("a1", by: "uMina", at: at(minute: 10), "Hello *there*"))),
        ("a new hashtag", replacing("tweets/a2", with: tweet("a2", by: "uBob", at: at(minute: 11), "now #Brand #new"))),
        ("a tweet's time", replacing("tweets/a3", with: tweet("a3", by: "uCarol", at: "2023-05-01T10:00:00Z", "서울"))),
        // Mina's oldest: the last page of her tabs and the feed, the chart of her first page.
        ("an old tweet's month", replacing("tweets/a1", with: tweet("a1", by: "uMina", at: "2023-12-01T00:00:00Z"))),
        (
            "a tweet's author",
            replacing("tweets/s1", with: tweet("s1", by: "uBob", at: at(minute: 18), "Dots in my name"))
        ),
        (
            "a reply's parent",
            replacing("tweets/r2", with: tweet("r2", by: "uCarol", at: at(minute: 14), replyTo: "a2"))
        ),
        (
            "a reply to a reply",
            replacing("tweets/x1", with: tweet("x1", by: "uSeo", at: at(minute: 30), replyTo: "r1"))
        ),
        ("a tweet removed", replacing("tweets/a1", with: nil)),
        ("a stored like count", replacing("tweets/a1", with: tweet("a1", by: "uMina", at: at(minute: 10), likes: 3))),
        ("a full name", replacing("users/uBob", with: user("uBob", "bob", fullname: "Robert Lee"))),
        ("a username", replacing("users/uCarol", with: user("uCarol", "caroline"))),
        ("a bio", replacing("users/uBob", with: user("uBob", "bob", fullname: "Bob Lee", bio: "Hi #swift @mina"))),
        (
            "a picture",
            replacing("users/uBob", with: user("uBob", "bob", fullname: "Bob Lee", image: "https://x.test/b.png"))
        ),
        ("a user removed", replacing("users/uCarol", with: nil)),
        ("a new user", replacing("users/uNew", with: user("uNew", "newbie"))),
        ("a like", replacing("users/uSeo/user-likes/a2", with: like("uSeo", "a2"))),
        ("the viewer's like", replacing("users/uMina/user-likes/k1", with: like("uMina", "k1"))),
        ("a like removed", replacing("users/uBob/user-likes/a1", with: nil)),
        ("a like's time", replacing("users/uMina/user-likes/a3", with: like("uMina", "a3", at: at(minute: 59)))),
        ("a place's name", replacing("favorites/uMina/favorites/p1", with: favorite("uMina", "p1", "Aquarium"))),
        (
            "a place's address",
            replacing(
                "favorites/uMina/favorites/p2",
                with: favorite(
                    "uMina", "p2", "Café Onion", address: "9 Achasan-ro",
                    coordinate: object(["latitude": .string("37.5446"), "longitude": .string("127.0559")])))
        ),
        (
            "a place's coordinate",
            replacing(
                "favorites/uMina/favorites/p4",
                with: favorite("uMina", "p4", "Bar", coordinate: .geoPoint(latitude: 48.9, longitude: 2.3)))
        ),
        (
            "a new place",
            replacing("favorites/uBob/favorites/q1", with: favorite("uBob", "q1", "Park", address: "2 Rd"))
        ),
    ]

    @Test(arguments: edits.indices)
    func everyStoreEditThatChangesAPageChangesItsFingerprint(_ edit: Int) throws {
        let (name, documents) = Self.edits[edit]
        let (stale, changed) = Self.drift(from: try Self.site(richStore), to: try Self.site(documents))
        #expect(changed > 0, "\(name) changes no page")
        #expect(stale.isEmpty, "\(name) changes these pages but not their fingerprints: \(stale)")
    }

    @Test func everyOptionThatChangesAPageChangesItsFingerprint() throws {
        let before = try Self.site(richStore)
        var configs: [(String, SiteConfig)] = []
        func with(_ name: String, _ change: (inout SiteConfig) -> Void) {
            var config = Self.config
            change(&config)
            configs.append((name, config))
        }
        with("title") { $0.title = "Another" }
        with("description") { $0.description = "About it" }
        with("page size") { $0.pageSize = 5 }
        with("viewer") { $0.viewer = "bob" }
        with("no viewer") { $0.viewer = nil }
        with("base URL") { $0.baseURL = "https://example.org/" }
        with("media") { $0.media = .none }
        with("language") { $0.language = "ko" }
        for (name, config) in configs {
            let (stale, changed) = Self.drift(from: before, to: try Self.site(richStore, config: config))
            #expect(changed > 0, "\(name) changes no page")
            #expect(stale.isEmpty, "\(name) changes these pages but not their fingerprints: \(stale)")
        }
    }

    /// The theme's files, as `defaultTheme` reads them.
    static let themeFiles = defaultThemeFiles

    /// Each template edited in turn (a comment added at its end), the texts (each one given a
    /// prefix), the stylesheet: the pages that show them must change fingerprints, the others
    /// may keep theirs (`TemplateSalts`).
    @Test func everyThemeEditThatChangesAPageChangesItsFingerprint() throws {
        let before = try Self.site(richStore)
        var changedAtAll = 0
        for file in Self.themeFiles where file.path.hasSuffix(".mustache") || file.path == "i18n/en.json" {
            let edited = Self.themeFiles.map { other -> (path: String, bytes: [UInt8]) in
                guard other.path == file.path else { return other }
                if other.path.hasSuffix(".json") {
                    let text = String(decoding: other.bytes, as: UTF8.self)
                    return (other.path, Array(text.replacingOccurrences(of: "\": \"", with: "\": \"~").utf8))
                }
                return (other.path, other.bytes + Array("<!-- edited -->\n".utf8))
            }
            let templates = try LocalizedTemplates(files: edited, origin: "edited").templates(for: "en")
            let (stale, changed) = Self.drift(from: before, to: try Self.site(richStore, templates: templates))
            changedAtAll += changed
            #expect(stale.isEmpty, "editing \(file.path) changes these pages but not their fingerprints: \(stale)")
        }
        #expect(changedAtAll > 0)
        let styled = try Self.site(richStore, stylesheet: defaultStylesheet + "p { color: red }\n")
        let (stale, changed) = Self.drift(from: before, to: styled)
        #expect(changed == 1 && stale.isEmpty, "the stylesheet is in 404.html: \(stale)")
    }
}
