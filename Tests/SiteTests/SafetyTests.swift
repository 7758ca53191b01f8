import Model
import Site
import Store
import TestSupport
import Testing

/// SPEC 3: all text from the store is HTML-escaped; SPEC 2.3: `email` is never written,
/// only http(s) profile pictures are used.
@Suite struct Escaping {
    static let script = "<script>alert(1)</script>"
    static let img = "\"><img src=x onerror=alert(1)>"

    /// Markup in every field a page shows.
    static let hostile: [Document] = [
        user(
            "uX", script, fullname: img, bio: "\(script) and \(img)", image: "javascript:alert(1)",
            email: "x.secret@private.example"),
        user(
            "uY", img, fullname: script, bio: "<img src=x onerror=alert(1)>", image: "JavaScript:alert(2)",
            email: "y.secret@private.example"),
        user("uZ", "zed", fullname: "Zed", image: "data:text/html,<script>alert(1)</script>"),
        user("uW", "wanda", image: "https://example.com/a.png?q=\"><img src=x onerror=alert(1)>"),
        tweet("w1", by: "uW", at: at(minute: 0), "hi"),
        tweet(img, by: "uX", at: at(minute: 1), "\(script) \(img) #tag [x](javascript:alert(1))"),
        tweet("<script>alert(1)", by: "uY", at: at(minute: 2), "<img src=x onerror=alert(1)> @zed"),
        tweet(
            "plain", by: "uZ", at: at(minute: 3),
            "Click [x](javascript:alert(1)) or [y](JAVASCRIPT:alert(2)) or <a href=\"javascript:alert(3)\">z</a>",
            replyTo: img),
        like("uY", img),
        like("uZ", "<script>alert(1)"),
        favorite(
            "uX", "p1", script, address: img, coordinate: object(["latitude": .double(1), "longitude": .double(2)])),
        favorite("uX", "p2", img, address: script, coordinate: .geoPoint(latitude: 3, longitude: 4)),
    ]

    @Test func noMarkupFromTheStoreIsUnescaped() throws {
        for config in [SiteConfig(), SiteConfig(baseURL: "https://example.com/sub/", viewer: "zed")] {
            let site = try render(Self.hostile, config: config)
            for needle in ["<script>alert", "<img src=x", "onerror=alert(1)>"] {
                #expect(site.paths(containing: needle).isEmpty, "\(needle) in \(site.paths(containing: needle))")
            }
            // `javascript:` may show as text (escaped), never as a URL.
            for path in site.htmlPaths {
                let urls = links(site.files[path]!).filter {
                    $0.lowercased().hasPrefix("javascript") || $0.hasPrefix("data:")
                }
                #expect(urls.isEmpty, "\(path): \(urls)")
            }
            #expect(site.paths(containing: "href=\"javascript").isEmpty)
        }
    }

    @Test func hostileValuesAreShownAsText() throws {
        let site = try render(Self.hostile)
        let escapedScript = "&lt;script&gt;alert(1)&lt;/script&gt;"
        let escapedImg = "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
        // Usernames are not safe handles: uid-derived folders.
        let x = try site.page("u/u-uX/index.html")
        #expect(x.contains("<h1 class=\"p-name profile-name\">\(escapedImg)</h1>"))
        #expect(x.contains(">@\(escapedScript)</a>"))
        let y = try site.page("u/u-uY/index.html")
        #expect(y.contains("<h1 class=\"p-name profile-name\">\(escapedScript)</h1>"))
        #expect(y.contains(">@\(escapedImg)</a>"))
        // The tweet IDs: attribute values escaped, folders hashed.
        let feed = try site.page("index.html")
        #expect(tweetIDs(feed) == ["plain", "<script>alert(1)", Self.img, "w1"])
        // An http(s) picture is used, what a URL may not hold percent-encoded (and escaped).
        let w1 = try #require(card("w1", in: feed))
        #expect(
            attributeValues("src", in: w1) == ["https://example.com/a.png?q=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E"]
        )
        #expect(feed.contains("data-tweet-id=\"\(escapedImg)\""))
        #expect(site.paths.filter { $0.hasPrefix("t/") }.allSatisfy { !$0.contains("<") && !$0.contains("\"") })
        // `javascript:` links lose their link and keep their text.
        let plain = try #require(card("plain", in: try site.page("t/plain/index.html")))
        let caption = try #require(section(plain, from: "<div class=\"e-content caption\">", to: "</div>"))
        #expect(attributeValues("href", in: caption).isEmpty)
        #expect(caption.contains("Click x or y or"))
        let favorites = try site.page("u/u-uX/favorites/index.html")
        #expect(favorites.contains("<h3 class=\"p-name place-name\">\(escapedScript)</h3>"))
        #expect(favorites.contains("<p class=\"p-adr place-address\">\(escapedImg)</p>"))
    }

    /// A picture address with no usable host (`https://`, a port past 65535) is no picture
    /// (the page would not be valid HTML): the placeholder, and a notice saying why.
    @Test func aPictureAddressWithoutAUsableHostIsThePlaceholder() throws {
        for image in ["https://", "https://x.com:99999/a.png", "https://[::1/a.png", "https://::1/a.png"] {
            let store = [user("u1", "mina", image: image), tweet("t1", by: "u1", at: at(minute: 1), "hi")]
            let site = try render(store)
            let html = try site.page("u/mina/index.html")
            #expect(html.contains("<img class=\"u-photo avatar avatar-large\" src=\"static/avatar.svg\""), "\(image)")
            let notices = Model.Snapshot(documents: store).diagnostics.filter { $0.kind == .unsafeProfileImage }
            #expect(notices.map(\.message) == ["not a usable http(s) URL; the placeholder is shown"], "\(image)")
        }
    }

    @Test func unsafeProfilePicturesAreReplacedByThePlaceholder() throws {
        let site = try render(Self.hostile)
        for uid in ["uX", "uY", "uZ"] {
            let folder = uid == "uZ" ? "u/zed/" : "u/u-\(uid)/"
            let html = try site.page(folder + "index.html")
            #expect(html.contains("<img class=\"u-photo avatar avatar-large\" src=\"static/avatar.svg\""), "\(uid)")
        }
        for c in cards(try site.page("index.html")) where tweetIDs(c) != ["w1"] {
            #expect(attributeValues("src", in: c) == ["static/avatar.svg"])
        }
    }

    @Test func emailIsNeverWritten() throws {
        for config in [SiteConfig(), SiteConfig(viewer: "mina")] {
            let site = try render(richStore, config: config)
            #expect(site.paths(containing: "private.example").isEmpty)
            #expect(site.paths(containing: "secret").isEmpty)
        }
        let hostile = try render(Self.hostile)
        #expect(hostile.paths(containing: "private.example").isEmpty)
    }
}
