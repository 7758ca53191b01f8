/// A block of addresses in CIDR form (`192.168.1.0/24`, `127.0.0.1/32`, `fc00::/7`); an
/// address alone is a block of one.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address (the bits past the prefix cleared).
    public let base: IPAddress
    public let prefixLength: Int

    public init(_ address: IPAddress, prefixLength: Int) {
        let length = max(0, min(prefixLength, address.bytes.count * 8))
        self.prefixLength = length
        base = IPAddress(bytes: Self.masked(address.bytes, length))!
    }

    /// `ADDRESS/LENGTH` or `ADDRESS`; nil when either part is not one (`10.0.0.0/33`, `10/8`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        var length = address.bytes.count * 8
        if parts.count == 2 {
            guard let n = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...length).contains(n) else { return nil }
            length = n
        }
        self.init(address, prefixLength: length)
    }

    /// Whether `address` is in the block. An IPv4-mapped IPv6 address is its IPv4 address,
    /// for IPv4 blocks and IPv4-mapped ones alike.
    public func contains(_ address: IPAddress) -> Bool {
        if base.isIPv4, !address.isIPv4 {
            guard let v4 = address.mappedIPv4 else { return false }
            return contains(v4)
        }
        if !base.isIPv4, address.isIPv4 {
            let mapped = IPAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address.bytes)!
            return contains(mapped)
        }
        return Self.masked(address.bytes, prefixLength) == base.bytes
    }

    public var description: String { "\(base)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { i, byte in
            let kept = max(0, min(8, length - 8 * i))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }
}
