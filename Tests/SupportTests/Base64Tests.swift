import Support
import Testing

/// RFC 4648 section 10's vectors, in both forms.
@Test func base64MatchesTheRFCVectors() {
    let vectors = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]
    for (plain, encoded) in vectors {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.encode(Array(plain.utf8), .url) == encoded.replacingOccurrences(of: "=", with: ""))
    }
    #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    #expect(Base64.encode([0xFB, 0xFF], .url) == "-_8")
}
