/// Addresses from the store made fit for a page's `href` and `src`: what URLs may not hold
/// percent-encoded, and http(s) addresses that name no usable host refused, so that a page
/// stays valid HTML (the Nu checker reads every address as the WHATWG URL standard does).
public enum WebAddress {
    /// `url` as browsers read it (leading and trailing spaces and controls dropped, tabs and
    /// line breaks removed), with every byte a URL may not hold percent-encoded (controls,
    /// space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, bytes above ASCII) and a `%`
    /// that starts no escape written `%25`.
    public static func encoded(_ url: String) -> String {
        let source = Array(url.utf8)
        var start = 0
        var end = source.count
        while start < end, source[start] <= 0x20 { start += 1 }
        while end > start, source[end - 1] <= 0x20 { end -= 1 }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        while k < end {
            let byte = source[k]
            k += 1
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "%"), k + 1 < end, isHex(source[k]), isHex(source[k + 1]) {
                out.append(byte)
            } else if byte == UInt8(ascii: "%") || !isURLByte(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// False when `url` is an `http:` or `https:` address, or a `//host` one, without a usable
    /// host: none (`https://`, `https://::1/`), an unclosed `[`, a character no host may
    /// have, or a port that is not a number up to 65535. True of any other address.
    public static func hasUsableHost(_ url: String) -> Bool {
        let bytes = Array(url.utf8).filter { $0 > 0x20 }
        var k = 0
        let lower = bytes.prefix(8).map { $0 | 0x20 }
        if lower.starts(with: Array("https://".utf8)) {
            k = 8
        } else if lower.starts(with: Array("http://".utf8)) {
            k = 7
        } else if bytes.starts(with: Array("//".utf8)) {
            k = 2
        } else {
            return true
        }
        var authority = bytes[k...].prefix { !"/?#\\".utf8.contains($0) }
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        var port: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")), close > authority.startIndex + 1 else {
                return false
            }
            let rest = authority[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return false }
                port = rest.dropFirst()
            }
        } else {
            let host = authority.prefix { $0 != UInt8(ascii: ":") }
            guard !host.isEmpty, host.allSatisfy({ !forbiddenInHost($0) }) else { return false }
            port = authority.dropFirst(host.count + 1)
        }
        guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return port.isEmpty || port.count <= 5 && Int(String(decoding: port, as: UTF8.self))! <= 65535
    }

    /// `url` as a picture's address: an http(s) URL with a usable host, encoded; nil for any
    /// other.
    public static func httpURL(_ url: String) -> String? {
        let encoded = encoded(url)
        let lower = encoded.prefix(8).lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), hasUsableHost(encoded) else { return nil }
        return encoded
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Letters, digits, and `-._~:/?#[]@!$&'()*+,;=%`: what a URL holds as it is.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
        }
    }

    /// What WHATWG's host parser refuses (besides controls and space).
    private static func forbiddenInHost(_ byte: UInt8) -> Bool {
        byte < 0x21 || byte == 0x7F || "\"<>^`{|}%[]".utf8.contains(byte)
    }
}
