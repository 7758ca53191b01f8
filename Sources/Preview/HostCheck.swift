import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which requests the preview answers, by their `Host` (and, for the live-reload stream,
/// `Origin`): only those addressed to the preview itself, so that a web page elsewhere that
/// rebinds its own host name to this machine cannot read it (SPEC 5). Its own names are
/// `localhost`, `127.0.0.1`, `[::1]` and the address it listens on (every address of the
/// machine, and its host name, when that is `0.0.0.0` or `::`); names given on purpose
/// (`--allow-host`) too, and one written with a leading dot (`.example.test`) takes its
/// subdomains. The port is not compared: a rebinding page controls the name, not the port,
/// and an SSH tunnel or a port forward (`localhost:9000` to the preview's 8000) changes it.
package struct HostCheck: Sendable {
    /// Own names in lowercase, addresses as `IPAddress` writes them (IPv6 without brackets).
    let own: Set<String>
    let allowed: [String]

    package init(listeningOn host: String, allowed: [String]) {
        var own: Set<String> = ["localhost", "127.0.0.1", "::1"]
        let listening = Self.canonical(host)
        if let address = IPAddress(listening), address.bytes.allSatisfy({ $0 == 0 }) {
            own.formUnion(Self.machineAddresses())
            if let name = Self.machineName() { own.insert(name) }
        } else if !listening.isEmpty {
            own.insert(listening)
        }
        self.own = own
        self.allowed = allowed.map { Self.canonical($0) }.filter { !$0.isEmpty && $0 != "." }
    }

    /// Whether a request with this `Host` header is answered (none: not).
    package func allows(host header: String?) -> Bool {
        guard let header, let name = Self.name(ofHost: header) else { return false }
        return allows(name: name)
    }

    /// Whether a page of this `Origin` (`http://localhost:8000`) may open the event stream;
    /// `null` (a sandboxed or `file:` page) may not.
    package func allows(origin: String) -> Bool {
        let lower = origin.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else {
            return false
        }
        guard let name = Self.name(ofHost: String(rest)) else { return false }
        return allows(name: name)
    }

    private func allows(name: String) -> Bool {
        if own.contains(name) { return true }
        return allowed.contains { rule in
            rule.hasPrefix(".") ? name == rule.dropFirst() || name.hasSuffix(rule) : name == rule
        }
    }

    /// `name[:port]` or `[v6][:port]` → the canonical name; nil when it is not a host (a
    /// path, user info, a bad port).
    static func name(ofHost text: String) -> String? {
        var host = Substring(text)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), UInt16(after.dropFirst()) != nil else { return nil }
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard UInt16(host[host.index(after: colon)...]) != nil else { return nil }
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: { "/@?#\\ \t".contains($0) }) else { return nil }
        return canonical(String(host))
    }

    /// Lowercase, without a final dot; an address in `inet_ntop`'s form.
    static func canonical(_ name: String) -> String {
        var lower = name.lowercased()
        if lower.hasPrefix("[") && lower.hasSuffix("]") { lower = String(lower.dropFirst().dropLast()) }
        if lower.count > 1 && lower.hasSuffix(".") { lower.removeLast() }
        return IPAddress(lower)?.description ?? lower
    }

    /// The addresses of the machine's network interfaces.
    static func machineAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: Set<String> = []
        var next = list
        while let entry = next {
            if let address = entry.pointee.ifa_addr,
                let ip = IPAddress(socketAddress: address, length: MemoryLayout<sockaddr_in6>.size)
            {
                addresses.insert(ip.description)
            }
            next = entry.pointee.ifa_next
        }
        return addresses
    }

    static func machineName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : canonical(text)
    }
}
