import Support

/// Where an address leads, as far as fetching an image is concerned: only `global` is a
/// host on the public internet; every other scope reaches this machine, its network or
/// nothing, and mirroring refuses it (SPEC 9) unless `--media-allow` names it. From IANA's
/// special-purpose address registries (RFC 6890 and its updates).
package enum AddressScope: Sendable, Hashable, CustomStringConvertible {
    case global
    case loopback
    case privateNetwork
    case linkLocal
    /// RFC 6598's shared space (carrier-grade NAT).
    case shared
    case unspecified
    case multicast
    case broadcast
    /// Documentation, benchmarking, future use, protocol assignments, anything not routed.
    case reserved

    /// `a link-local address`: how a warning says it.
    package var description: String {
        switch self {
        case .global: "a public address"
        case .loopback: "a loopback address"
        case .privateNetwork: "a private address"
        case .linkLocal: "a link-local address"
        case .shared: "a shared (carrier-grade NAT) address"
        case .unspecified: "the unspecified address"
        case .multicast: "a multicast address"
        case .broadcast: "the broadcast address"
        case .reserved: "a reserved address"
        }
    }

    package static func of(_ address: IPAddress) -> AddressScope {
        if address.isIPv4 { return ofIPv4(address) }
        if let v4 = address.mappedIPv4 { return ofIPv4(v4) }
        // NAT64 and 6to4 carry an IPv4 address that a gateway connects to.
        if nat64.contains(address) { return ofIPv4(IPAddress(bytes: Array(address.bytes[12...]))!) }
        if sixToFour.contains(address) { return ofIPv4(IPAddress(bytes: Array(address.bytes[2..<6]))!) }
        for (network, scope) in ipv6 where network.contains(address) { return scope }
        // Only 2000::/3 is allotted for global unicast.
        return globalUnicast.contains(address) ? .global : .reserved
    }

    private static func ofIPv4(_ address: IPAddress) -> AddressScope {
        if address.bytes == [0, 0, 0, 0] { return .unspecified }
        for (network, scope) in ipv4 where network.contains(address) { return scope }
        return .global
    }

    private static func table(_ rows: [(String, AddressScope)]) -> [(IPNetwork, AddressScope)] {
        rows.map { (IPNetwork($0.0)!, $0.1) }
    }

    private static let ipv4 = table([
        ("0.0.0.0/8", .reserved), ("10.0.0.0/8", .privateNetwork), ("100.64.0.0/10", .shared),
        ("127.0.0.0/8", .loopback), ("169.254.0.0/16", .linkLocal), ("172.16.0.0/12", .privateNetwork),
        ("192.0.0.0/24", .reserved), ("192.0.2.0/24", .reserved), ("192.88.99.0/24", .reserved),
        ("192.168.0.0/16", .privateNetwork), ("198.18.0.0/15", .reserved), ("198.51.100.0/24", .reserved),
        ("203.0.113.0/24", .reserved), ("224.0.0.0/4", .multicast), ("255.255.255.255/32", .broadcast),
        ("240.0.0.0/4", .reserved),
    ])

    private static let ipv6 = table([
        ("::/128", .unspecified), ("::1/128", .loopback), ("::/96", .reserved), ("64:ff9b:1::/48", .privateNetwork),
        ("100::/64", .reserved), ("2001::/23", .reserved), ("2001:db8::/32", .reserved), ("3fff::/20", .reserved),
        ("5f00::/16", .reserved), ("fc00::/7", .privateNetwork), ("fec0::/10", .privateNetwork),
        ("fe80::/10", .linkLocal), ("ff00::/8", .multicast),
    ])

    private static let nat64 = IPNetwork("64:ff9b::/96")!
    private static let sixToFour = IPNetwork("2002::/16")!
    private static let globalUnicast = IPNetwork("2000::/3")!
}

/// Which addresses mirroring may connect to: every global one, and those in `allowed`
/// (`--media-allow`, config key `mediaAllow`: a local picture server, on purpose).
package struct AddressRule: Sendable, Hashable {
    package var allowed: [IPNetwork]

    package init(allowed: [IPNetwork] = []) { self.allowed = allowed }

    /// Nil when `address` may be connected to; else its scope, which is why not.
    package func refusal(of address: IPAddress) -> AddressScope? {
        let scope = AddressScope.of(address)
        if scope == .global || allowed.contains(where: { $0.contains(address) }) { return nil }
        return scope
    }
}
