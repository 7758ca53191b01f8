import Foundation

/// The address a site is served from (SPEC 10): an absolute `http(s)` URL or a path starting
/// with `/`, checked and written as a valid URI (RFC 3986): path bytes outside the allowed
/// characters percent-encoded (existing `%XX` kept), a non-ASCII host in its IDNA form
/// (`xn--…`), scheme and host lowercased, always ending in `/`.
package enum BaseURL {
    /// The base URL as pages write it, or why `text` is not one.
    package static func normalized(_ text: String) throws(BaseURLError) -> String {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .init(text, "it holds a control character (a line break, a tab)")
        }
        if text.contains("?") { throw .init(text, "it has a query ('?'); a base URL is where pages live") }
        if text.contains("#") { throw .init(text, "it has a fragment ('#')") }
        if text.hasPrefix("/") {
            if text.hasPrefix("//") { throw .init(text, "it starts with '//' (a host without a scheme)") }
            return encodedPath(text)
        }
        let lower = text.lowercased()
        guard let schemeEnd = lower.range(of: "://") else {
            throw .init(text, "it is neither an absolute http(s) URL nor a path")
        }
        let scheme = String(lower[..<schemeEnd.lowerBound])
        guard scheme == "http" || scheme == "https" else {
            throw .init(text, "its scheme is '\(scheme)'; only http and https pages can be browsed")
        }
        let rest = text[text.index(text.startIndex, offsetBy: scheme.count + 3)...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = String(rest[..<slash])
        if authority.contains("@") { throw .init(text, "it holds a user name or password") }
        let host = try hostAndPort(authority, text)
        return scheme + "://" + host + encodedPath(slash == rest.endIndex ? "/" : String(rest[slash...]))
    }

    /// `host[:port]`, the host lowercased (and IDNA-encoded when it is not ASCII).
    private static func hostAndPort(_ authority: String, _ text: String) throws(BaseURLError) -> String {
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {  // an IPv6 literal
            guard let close = host.firstIndex(of: "]") else { throw .init(text, "its IPv6 host has no ']'") }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .init(text, "its host is not valid") }
                port = after.dropFirst()
            }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
            if host.contains(":") { throw .init(text, "its host holds ':' (an IPv6 address goes in brackets: [::1])") }
        }
        if let port, port.isEmpty || !port.allSatisfy(\.isASCII) || !port.allSatisfy(\.isNumber) || port.count > 5 {
            throw .init(text, "its port '\(port)' is not a number")
        }
        if let port, !(1...65535).contains(Int(port)!) {
            throw .init(text, "its port '\(port)' is not from 1 to 65535")
        }
        guard !host.isEmpty else { throw .init(text, "it has no host") }
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        var encoded: [String] = []
        for label in labels {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                let allowed = label.utf8.allSatisfy {
                    isUnreserved($0) || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: ":")
                }
                guard allowed, !label.isEmpty || encoded.count == labels.count - 1 else {
                    throw .init(text, "its host '\(host)' is not a valid host name")
                }
                encoded.append(String(label))
            } else {
                guard !label.contains(where: { $0.isWhitespace || $0 == "%" }) else {
                    throw .init(text, "its host '\(host)' is not a valid host name")
                }
                encoded.append("xn--" + Punycode.encode(label.precomposedStringWithCanonicalMapping))
            }
        }
        return encoded.joined(separator: ".") + (port.map { ":" + $0 } ?? "")
    }

    /// `path` with every byte a URI path may not hold percent-encoded, ending in `/`.
    static func encodedPath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) {
                out += bytes[i...(i + 2)]
                i += 3
                continue
            }
            if isUnreserved(b) || isSubDelimiter(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: "@")
                || b == UInt8(ascii: "/")
            {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
            i += 1
        }
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        return withoutDotSegments(String(decoding: out, as: UTF8.self))
    }

    /// `/a/./b/../c/` as `/a/c/`, as a browser resolves it (`%2e` is a dot too); `..` above
    /// the root stays at the root. Every URL the site writes then names each page one way.
    static func withoutDotSegments(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().dropLast()
        var kept: [Substring] = []
        for segment in segments {
            switch segment.lowercased() {
            case ".", "%2e": continue
            case "..", ".%2e", "%2e.", "%2e%2e": _ = kept.popLast()
            default: kept.append(segment)
            }
        }
        return "/" + kept.map { $0 + "/" }.joined()
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b)
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || b == 45 || b == 46 || b == 95
            || b == 126
    }

    /// `! $ & ' ( ) * + , ; =`, except `'`, which pages would have to escape in attributes.
    private static func isSubDelimiter(_ b: UInt8) -> Bool {
        "!$&()*+,;=".utf8.contains(b)
    }
}

/// Why a base URL cannot be used: a usage error.
package struct BaseURLError: Error, Sendable, CustomStringConvertible {
    package let text: String
    package let reason: String

    init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    package var description: String {
        "'\(text)' is not a base URL: \(reason). Give an absolute http(s) URL (https://example.com/project/) "
            + "or a path starting with / (/project/)"
    }
}
