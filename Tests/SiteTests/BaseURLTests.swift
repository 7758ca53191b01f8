import Site
import TestSupport
import Testing

/// `baseURL` (SPEC 10): an absolute http(s) URL or a path starting with `/`, written as a valid URI.
struct BaseURLTests {
    @Test(arguments: [
        ("/", "/"), ("/project", "/project/"), ("/a b/", "/a%20b/"), ("/블로그/", "/%EB%B8%94%EB%A1%9C%EA%B7%B8/"),
        ("/100%25/", "/100%25/"), ("/50%/", "/50%25/"), ("/it's/", "/it%27s/"),
        ("https://example.com", "https://example.com/"), ("HTTPS://Example.COM/Sub", "https://example.com/Sub/"),
        ("http://localhost:8080/x/", "http://localhost:8080/x/"), ("https://[::1]:8443/", "https://[::1]:8443/"),
        ("https://예시.kr/블로그 a/", "https://xn--vv4b11d.kr/%EB%B8%94%EB%A1%9C%EA%B7%B8%20a/"),
        // Dot segments resolved, as a browser does: each page has one URL.
        ("https://example.com/a/../b/", "https://example.com/b/"), ("/a/./b/%2E%2e/c", "/a/c/"), ("/../x/", "/x/"),
        ("https://example.com:65535/", "https://example.com:65535/"),
    ])
    func acceptedAndWrittenAsAURI(_ given: String, _ written: String) throws {
        #expect(try BaseURL.normalized(given) == written)
    }

    @Test(arguments: [
        "example.com", "project", "https://example.com/?q=1", "/a#b", "ftp://example.com/", "//example.com/",
        "https://user:pass@example.com/", "https://example.com:port/", "https:///path/", "https://ex ample.com/",
        "javascript:alert(1)", "",
        // A port past 65535, or 0; an IPv6 address without brackets; control characters.
        "https://example.com:99999/", "https://example.com:0/", "https://::1/", "https://example.com/\n",
        "/a\tb/", "https://example.com/\u{7F}/",
    ])
    func refused(_ given: String) {
        #expect(throws: BaseURLError.self, "\(given)") { try BaseURL.normalized(given) }
    }

    /// The sample strings of RFC 3492, section 7.1 (labels), as IDNA writes them.
    @Test func koreanAndOtherHostsUsePunycode() throws {
        #expect(try BaseURL.normalized("https://도메인.한국/") == "https://xn--hq1bm8jm9l.xn--3e0b707e/")
        #expect(try BaseURL.normalized("https://bücher.example/") == "https://xn--bcher-kva.example/")
        // RFC 3492 7.1 (A) Arabic (Egyptian), lowercased: egbpdaj6bu4bxfgehfvwxn
        #expect(
            try BaseURL.normalized(
                "http://\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}.eg/"
            )
                == "http://xn--egbpdaj6bu4bxfgehfvwxn.eg/")
    }

    /// SPEC 3: the h-entry's u-url, rel=canonical and the Atom entry's link name one URL.
    @Test(arguments: ["https://example.com/sub/", "/sub/"])
    func aTweetHasOneURL(_ base: String) throws {
        let site = try render(
            [user("uMina", "mina"), tweet("t1", by: "uMina", at: at(minute: 1))], config: SiteConfig(baseURL: base))
        let url = base + "t/t1/"
        let uURLs = site.htmlPaths.flatMap { path in
            attributeValues(
                "value",
                in: site.files[path]!.components(separatedBy: "<data class=\"u-url\"").dropFirst()
                    .map { String($0.prefix { $0 != ">" }) }.joined())
        }
        #expect(!uURLs.isEmpty)
        #expect(Set(uURLs) == [url])
        #expect(try site.page("t/t1/index.html").contains("<link rel=\"canonical\" href=\"\(url)\">"))
        #expect(try site.page("feed.xml").contains("<link rel=\"alternate\" type=\"text/html\" href=\"\(url)\"/>"))
        #expect(!site.htmlPaths.contains { site.files[$0]!.contains("class=\"u-url permalink\"") })
    }
}
