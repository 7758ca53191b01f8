import Foundation
import Model
import Site
import Store
import TestSupport
import Testing

// A hang is caught within the limit. It is generous because a test's clock runs while it waits
// for a thread: on 2 cores, the tests that wait for child processes can hold both for minutes.
/// Markup, script and dangerous URLs in every text field of the store (SPEC 3: all text
/// from the store is escaped; SPEC 6: no input injects markup or script).
@Suite(.timeLimit(.minutes(5)))
struct MarkupTests {
    /// Text that is markup or script if written unescaped, in every context of a page:
    /// element content, double- and single-quoted attributes, unquoted attributes, comments,
    /// `<title>`, CDATA and XML.
    static let payloads = [
        "<script>alert('XSS')</script>",
        "\"><img src=x onerror=alert('XSS')>",
        "'><svg/onload=alert('XSS')>",
        "</title><x-hostile>title</x-hostile>",
        "--><x-hostile>comment</x-hostile><!--",
        "]]><x-hostile>cdata</x-hostile>",
        "` onmouseover=alert('XSS') x=`",
        " onfocus=alert('XSS') autofocus ",
        "&lt;x-hostile&gt;pre-escaped&lt;/x-hostile&gt;",
        "{{site.title}}{{{card}}}{{>partials/card}}",
        "<iframe src=\"javascript:alert('XSS')\"></iframe>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert('XSS')\">",
        "<base href=\"https://evil.example/\">",
        "<style>body{background:url(javascript:alert('XSS'))}</style>",
        "\u{0}\u{1}\u{8}\u{B}\u{C}\u{1B}[31m\u{7F}\u{85}\u{FFFE}\u{FFFF} controls",
        "\u{202E}evil\u{202D} \u{200B}\u{FEFF} bidi and zero-width",
    ]

    /// Markdown that tries to make links and images of dangerous URLs.
    static let markdownPayloads = [
        "[a](javascript:alert('XSS'))", "[b](JaVaScRiPt:alert('XSS'))", "[c](vbscript:msgbox('XSS'))",
        "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "[e]( javascript:alert('XSS'))",
        "[f](java\tscript:alert('XSS'))", "[g](&#106;avascript:alert('XSS'))", "[h](javascript&colon;alert('XSS'))",
        "[i](\u{1}javascript:alert('XSS'))", "<javascript:alert('XSS')>", "<vbscript:msgbox('XSS')>",
        "<data:text/html,<x-hostile>>", "![j](javascript:alert('XSS'))", "![k](data:image/png;base64,iVBORw0KGgo=)",
        "![l](data:image/svg+xml,<svg onload=alert('XSS')>)", "[m][ref]\n\n[ref]: javascript:alert('XSS')",
        "[n](https://ok.example/\"onmouseover=\"alert('XSS'))",
        "[o](https://ok.example \"title\\\" onmouseover=\\\"alert('XSS')\")",
        "<a href=\"javascript:alert('XSS')\">p</a>", "<img src=x onerror=alert('XSS')>",
        "https://ok.example/<x-hostile>", "www.evil.example/\"><x-hostile>",
    ]

    static let badImageURLs = [
        "javascript:alert('XSS')", " javascript:alert('XSS')", "JAVASCRIPT:alert('XSS')", "java\tscript:alert('XSS')",
        "vbscript:msgbox('XSS')", "data:image/png;base64,iVBORw0KGgo=", "data:text/html,<script>alert('XSS')</script>",
        "\u{1}javascript:alert('XSS')", "//evil.example/a.png", "file:///etc/passwd",
        "https://ok.example/a.png\"><x-hostile>",
        "http://ok.example/a.png' onerror='alert(1)", "", "https:", "https://",
    ]

    /// A store where every text field (and every ID that can be a file name) carries a payload.
    static func hostileStore(_ folder: StoreFolder) {
        let all = payloads + markdownPayloads
        for (i, payload) in all.enumerated() {
            // File names cannot hold "/" or NUL: use the payload without them as the ID.
            let id = String(payload.unicodeScalars.filter { $0 != "/" && $0 != "\u{0}" }.map(Character.init))
                .prefix(200)
            let safeID = id.isEmpty || id.hasPrefix(".") ? "x\(id)" : String(id)
            let uid = "u\(i)\(safeID)"
            let tweetID = "t\(i)\(safeID)"
            folder.document(
                "users/\(uid).json",
                [
                    "username": json(payload), "fullname": json(payload + " full"),
                    "bio": json("bio \(payload) #tag\(i) @\(payload)"),
                    "profileImageUrl": json(badImageURLs[i % badImageURLs.count]),
                    "email": json("secret\(i)@private.example"), "secretField": json("TOPSECRET-user-\(i)"),
                ])
            folder.document(
                "tweets/\(tweetID).json",
                [
                    "caption": json("\(payload) #tag\(i) @\(payload) more"),
                    "timestamp": json("2024-01-01T00:00:\(i % 60 < 10 ? "0" : "")\(i % 60)Z"),
                    "uid": json(uid), "likes": "1", "secretField": json("TOPSECRET-tweet-\(i)"),
                ])
            folder.document(
                "tweets/r\(i)\(safeID).json",
                [
                    "caption": json("reply to \(payload)"), "timestamp": json("2024-01-02T00:00:00Z"),
                    "uid": json(uid), "replyTo": json(tweetID),
                ])
            folder.document("users/\(uid)/user-likes/\(tweetID).json", ["secretField": json("TOPSECRET-like-\(i)")])
            folder.document(
                "favorites/\(uid)/favorites/p\(safeID).json",
                [
                    "placeName": json(payload), "address": json("addr \(payload)"), "placeID": json(payload),
                    "coordinate": #"{"latitude": 37.5, "longitude": 127.0}"#,
                    "secretField": json("TOPSECRET-place-\(i)"),
                ])
        }
        // Profile pictures that are fine, with markup after them.
        folder.document(
            "users/okImage.json",
            [
                "username": json("okimage"),
                "profileImageUrl": json("https://ok.example/a.png?\"><x-hostile>'onerror='alert(1)"),
            ])
        folder.document(
            "tweets/okImage.json",
            [
                "caption": json("hi"), "timestamp": json("2024-01-03T00:00:00Z"), "uid": json("okImage"),
            ])
    }

    static let forbidden = [
        "<script>alert", "<img src=x", "<svg/onload", "<svg onload", "<x-hostile", "<iframe",
        "<meta http-equiv=\"refresh",
        "<base href=\"https://evil", "<style>", "TOPSECRET", "@private.example", "\u{0}",
    ]

    @Test(arguments: [
        SiteConfig(), SiteConfig(baseURL: "https://example.com/sub/", pageSize: 3, viewer: "okimage"),
        SiteConfig(baseURL: "/project/", pageSize: 1),
    ])
    func everyTextFieldIsEscapedEverywhere(config: SiteConfig) throws {
        let folder = try StoreFolder()
        Self.hostileStore(folder)
        let site = try requireSite(folder.path, config: config)
        #expect(site.snapshot.users.count == Self.payloads.count + Self.markdownPayloads.count + 1)
        #expect(site.snapshot.tweets.count == 2 * (Self.payloads.count + Self.markdownPayloads.count) + 1)
        let problems = siteProblems(site, forbidden: Self.forbidden)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(lines(problems))")
    }

    @Test func hostileTextIsShownAsText() throws {
        let folder = try StoreFolder()
        Self.hostileStore(folder)
        let site = try requireSite(folder.path)
        // The usernames are on their profiles, escaped: the text survives, the markup does not.
        #expect(!site.paths(containing: "@&lt;script&gt;alert(&#39;XSS&#39;)&lt;/script&gt;").isEmpty)
        #expect(
            !site.paths(containing: "&amp;lt;x-hostile&amp;gt;pre-escaped").isEmpty, "pre-escaped text is escaped again"
        )
        #expect(!site.paths(containing: "{{site.title}}{{{card}}}").isEmpty, "values are not rendered as templates")
        // Controls are replaced, in HTML and in XML.
        #expect(!site.paths(containing: "\u{FFFD}[31m").isEmpty)
        #expect(site.paths(containing: "\u{1B}").isEmpty && site.paths(containing: "\u{0}").isEmpty)
    }

    @Test func dangerousProfilePicturesBecomeThePlaceholder() throws {
        let folder = try StoreFolder()
        Self.hostileStore(folder)
        let site = try requireSite(folder.path)
        for path in site.htmlPaths {
            for tag in tags(site.text(path)!) where tag.name == "img" {
                let src = try #require(tag.attribute("src"))
                let scheme = browserScheme(src)
                // (A caption's picture is one too, and its placeholder the theme's picture.)
                #expect(
                    src == "static/avatar.svg" || src == "static/picture.svg" || scheme == "http" || scheme == "https",
                    "\(path): img src=\(src)")
                #expect(!src.hasPrefix("//"), "\(path): protocol-relative picture \(src)")
            }
        }
        let ok = try #require(site.snapshot.user(uid: "okImage"))
        #expect(site.snapshot.users[ok].profileImageURL != nil)
    }

    /// SPEC 3 and the brief: links from user content carry rel="nofollow ugc noopener".
    @Test func externalLinksInUserContentAreMarked() throws {
        let folder = try StoreFolder()
        folder.document(
            "users/u1.json",
            [
                "username": json("mina"),
                "bio": json("see https://a.example and [b](https://b.example) <https://c.example>"),
            ])
        folder.document(
            "tweets/t1.json",
            [
                "caption": json(
                    "see https://a.example and [b](http://b.example) [c](//c.example) <https://d.example> [m](mailto:x@y.example)"
                ),
                "timestamp": json("2024-01-01T00:00:00Z"), "uid": json("u1"),
            ])
        let site = try requireSite(folder.path)
        var checked = 0
        for path in site.htmlPaths {
            for tag in tags(site.text(path)!) where tag.name == "a" {
                guard let href = tag.attribute("href") else { continue }
                guard href.hasPrefix("//") || ["http", "https"].contains(browserScheme(href) ?? "") else { continue }
                let rel = Set((tag.attribute("rel") ?? "").split(separator: " ").map(String.init))
                #expect(
                    rel.isSuperset(of: ["nofollow", "ugc", "noopener"]),
                    "\(path): <a href=\"\(href)\" rel=\"\(rel.sorted())\">")
                checked += 1
            }
        }
        #expect(checked > 5)
    }
}
