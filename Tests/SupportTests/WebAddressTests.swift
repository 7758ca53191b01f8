import Support
import Testing

/// Addresses from the store as a page carries them: the Nu checker's complaints about store
/// addresses ("space is not allowed", "Percentage not followed by two hexadecimal digits",
/// "Invalid host: empty host", "Port number must be less than 65536", "Unmatched '['").
@Suite struct WebAddressTests {
    @Test func bytesAURLMayNotHoldArePercentEncoded() {
        #expect(WebAddress.encoded("https://x.com/a b.png") == "https://x.com/a%20b.png")
        #expect(WebAddress.encoded("https://x.com/a|b{c}^`.png") == "https://x.com/a%7Cb%7Bc%7D%5E%60.png")
        #expect(WebAddress.encoded("https://x.com/%zz/%4g/%") == "https://x.com/%25zz/%254g/%25")
        #expect(WebAddress.encoded("https://x.com/%E2%9C%93?q=%20") == "https://x.com/%E2%9C%93?q=%20")
        #expect(WebAddress.encoded("https://x.com/서울") == "https://x.com/%EC%84%9C%EC%9A%B8")
        #expect(WebAddress.encoded("  https://x.com/a\tb\n ") == "https://x.com/ab")
        #expect(WebAddress.encoded("https://x.com/a.png\"onerror=\"x") == "https://x.com/a.png%22onerror=%22x")
        #expect(WebAddress.encoded("/t/abc/?a=1&b='2'#c") == "/t/abc/?a=1&b='2'#c")
    }

    @Test func anHTTPAddressNeedsAUsableHost() {
        for url in [
            "https://x.com/", "http://x.com", "HTTPS://X.COM:443/a", "https://x.com:/", "https://[::1]:8080/",
            "https://user:pw@x.com/", "//x.com/a", "https://서울.kr/", "mailto:a@b.c", "/relative", "?q",
        ] {
            #expect(WebAddress.hasUsableHost(url), "\(url)")
        }
        for url in [
            "https://", "https:///a", "https://::1/", "https://[::1/", "https://x.com:99999/", "https://x.com:0x50/",
            "https://x.com:80a/", "https://a|b.com/", "https://a%20b.com/", "//", "https://@/",
        ] {
            #expect(!WebAddress.hasUsableHost(url), "\(url)")
        }
    }

    @Test func aPictureAddressIsAnHTTPOneWithAUsableHost() {
        #expect(WebAddress.httpURL("https://x.com/a b.png") == "https://x.com/a%20b.png")
        #expect(WebAddress.httpURL(" http://x.com/a.png ") == "http://x.com/a.png")
        for url in ["https://", "ftp://x.com/a.png", "/a.png", "https://x.com:99999/a.png", "javascript:alert(1)"] {
            #expect(WebAddress.httpURL(url) == nil, "\(url)")
        }
    }
}
