#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address, as bytes in network order: what a socket connects to, a URL's
/// host literal, a network's base. Written in the usual forms (`127.0.0.1`, `::1`).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The dotted quad or the IPv6 text of `inet_pton`: nothing else (no brackets, no zone,
    /// no shortened IPv4).
    public init?(_ text: String) {
        if let v4 = Self.presentation(text, family: AF_INET, count: 4) {
            bytes = v4
        } else if let v6 = Self.presentation(text, family: AF_INET6, count: 16) {
            bytes = v6
        } else {
            return nil
        }
    }

    /// The host of a URL when it is an address: `[::1]` (a zone such as `%25eth0` dropped), or
    /// IPv4 as browsers and `inet_aton` read it: one to four parts, each decimal, octal
    /// (`0177`) or hex (`0x7f`), the last filling the bytes left (`127.1`, `2130706433`,
    /// `0x7f.1`). A name, or a number out of range, is nil: it is not an address.
    public init?(urlHost host: String) {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var inner = host.dropFirst().dropLast()
            if let zone = inner.firstIndex(of: "%") { inner = inner[..<zone] }
            guard let address = IPAddress(String(inner)), !address.isIPv4 else { return nil }
            self = address
            return
        }
        guard let v4 = Self.lenientIPv4(host) else { return nil }
        bytes = v4
    }

    /// The address of a socket address (`sockaddr_in` or `sockaddr_in6`); nil for another family.
    public init?(socketAddress: UnsafeRawPointer, length: Int) {
        guard length >= MemoryLayout<sa_family_t>.size else { return nil }
        let family = Int32(socketAddress.loadUnaligned(as: sockaddr.self).sa_family)
        if family == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            let v4 = socketAddress.loadUnaligned(as: sockaddr_in.self)
            bytes = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
        } else if family == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            let v6 = socketAddress.loadUnaligned(as: sockaddr_in6.self)
            bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
        } else {
            return nil
        }
    }

    /// The IPv4 address of an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`).
    public var mappedIPv4: IPAddress? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return nil
        }
        return IPAddress(bytes: Array(bytes[12...]))
    }

    /// `127.0.0.1`, `::1`, `::ffff:127.0.0.1` (as `inet_ntop` writes them).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address in URL form: IPv6 in brackets.
    public var urlHost: String { isIPv4 ? description : "[\(description)]" }

    private static func presentation(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) == 1 }
        return ok ? out : nil
    }

    private static func lenientIPv4(_ host: String) -> [UInt8]? {
        var text = Substring(host)
        if text.hasSuffix(".") { text = text.dropLast() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let n = number(part) else { return nil }
            numbers.append(n)
        }
        for n in numbers.dropLast() where n > 255 { return nil }
        let lastBytes = 5 - numbers.count
        guard numbers.last! < (UInt64(1) << (8 * UInt64(lastBytes))) else { return nil }
        var out = numbers.dropLast().map { UInt8($0) }
        for shift in stride(from: 8 * (lastBytes - 1), through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: numbers.last! >> UInt64(shift)))
        }
        return out
    }

    /// One part of a lenient IPv4 address; nil when it is not a number (or far too large).
    private static func number(_ part: Substring) -> UInt64? {
        var digits = part
        var radix: UInt64 = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
            if digits.isEmpty { return 0 }
        } else if digits.count > 1 && digits.hasPrefix("0") {
            radix = 8
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 32 else { return nil }
        var value: UInt64 = 0
        for c in digits.utf8 {
            let digit: UInt64
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = product.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
