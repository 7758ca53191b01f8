import Support
import Testing

@testable import Media

/// SPEC 9's address rule as a function over addresses and URL spellings: nothing here connects.
@Suite("Mirroring's address rule: no loopback, private, link-local, shared or reserved address")
struct AddressRuleTests {
    static let scopes: [(String, AddressScope)] = [
        // IPv4
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("10.0.0.7", .privateNetwork),
        ("10.255.255.255", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("172.32.0.1", .global), ("172.15.255.255", .global), ("192.168.1.1", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("100.64.0.1", .shared),
        ("100.127.255.255", .shared), ("100.128.0.1", .global), ("0.0.0.0", .unspecified), ("0.1.2.3", .reserved),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("255.255.255.255", .broadcast),
        ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("198.18.0.1", .reserved), ("198.51.100.7", .reserved),
        ("203.0.113.9", .reserved), ("192.0.0.8", .reserved), ("8.8.8.8", .global), ("93.184.215.14", .global),
        // IPv6
        ("::1", .loopback), ("::", .unspecified), ("fc00::1", .privateNetwork), ("fd12:3456::1", .privateNetwork),
        ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .privateNetwork), ("ff02::1", .multicast),
        ("2001:db8::1", .reserved), ("100::1", .reserved), ("::7f00:1", .reserved), ("4000::1", .reserved),
        ("2606:4700:4700::1111", .global), ("2a00:1450:4001::200e", .global),
        // IPv6 carrying IPv4: mapped, NAT64, 6to4
        ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal), ("::ffff:8.8.8.8", .global),
        ("64:ff9b::a00:7", .privateNetwork), ("64:ff9b::808:808", .global), ("2002:7f00:1::", .loopback),
        ("2002:0808:0808::1", .global),
    ]

    @Test func everyRangeHasItsScope() throws {
        for (text, scope) in Self.scopes {
            let address = try #require(IPAddress(text), "\(text)")
            #expect(AddressScope.of(address) == scope, "\(text)")
        }
    }

    @Test func onlyGlobalAddressesAreAllowedUnlessANetworkIsNamed() throws {
        let strict = AddressRule()
        #expect(strict.refusal(of: IPAddress("8.8.8.8")!) == nil)
        #expect(strict.refusal(of: IPAddress("127.0.0.1")!) == .loopback)

        let local = AddressRule(allowed: [IPNetwork("127.0.0.1/32")!, IPNetwork("192.168.1.0/24")!])
        #expect(local.refusal(of: IPAddress("127.0.0.1")!) == nil)
        #expect(local.refusal(of: IPAddress("::ffff:127.0.0.1")!) == nil, "the mapped form is the same address")
        #expect(local.refusal(of: IPAddress("127.0.0.2")!) == .loopback)
        #expect(local.refusal(of: IPAddress("::1")!) == .loopback, "::1 is not in 127.0.0.1/32")
        #expect(local.refusal(of: IPAddress("192.168.1.77")!) == nil)
        #expect(local.refusal(of: IPAddress("192.168.2.1")!) == .privateNetwork)
        #expect(local.refusal(of: IPAddress("169.254.169.254")!) == .linkLocal)
    }

    /// The URL spellings a store may use to reach this machine or its network: each refused
    /// before any look-up, with the address it means.
    @Test(arguments: [
        ("http://127.0.0.1:5984/_config", "127.0.0.1", AddressScope.loopback),
        ("http://2130706433/", "127.0.0.1", .loopback), ("http://0x7f.1/", "127.0.0.1", .loopback),
        ("http://017700000001/a.png", "127.0.0.1", .loopback), ("http://127.1/", "127.0.0.1", .loopback),
        ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", .loopback), ("http://[::1]:8080/", "::1", .loopback),
        ("http://0/", "0.0.0.0", .unspecified), ("http://0.0.0.0:80/", "0.0.0.0", .unspecified),
        ("http://169.254.169.254/computeMetadata/v1/", "169.254.169.254", .linkLocal),
        ("http://0xa9fea9fe/latest/meta-data/", "169.254.169.254", .linkLocal),
        ("http://10.0.0.7/admin", "10.0.0.7", .privateNetwork),
        ("https://192.168.0.1/x.png", "192.168.0.1", .privateNetwork),
        ("http://[fd00::1]/", "fd00::1", .privateNetwork), ("http://[fe80::1%25eth0]/", "fe80::1", .linkLocal),
        ("http://100.64.1.1/", "100.64.1.1", .shared), ("http://224.0.0.1/", "224.0.0.1", .multicast),
        ("http://255.255.255.255/", "255.255.255.255", .broadcast),
        (" HTTP://10.0.0.7./a.png ", "10.0.0.7", .privateNetwork),
    ])
    func aURLNamingSuchAnAddressIsRefusedWithoutALookUp(url: String, address: String, scope: AddressScope) {
        let refusal = MediaFetcher.refusal(of: url, rule: AddressRule())
        #expect(refusal == .addressRefused(host: nil, address: address, scope: scope, redirectedTo: nil), "\(url)")
    }

    @Test func aPublicAddressOrAHostNameIsLeftToTheConnection() {
        for url in [
            "http://8.8.8.8/a.png", "https://example.com/a.png", "http://localhost/", "https://[2606:4700::1]/",
        ] {
            #expect(MediaFetcher.refusal(of: url, rule: AddressRule()) == nil, "\(url)")
        }
        let allowed = AddressRule(allowed: [IPNetwork("10.0.0.0/8")!])
        #expect(MediaFetcher.refusal(of: "http://10.0.0.7/", rule: allowed) == nil)
    }

    @Test func theWarningSaysWhatTheAddressIsAndHowToPermitIt() {
        let resolved = MediaFailure.addressRefused(
            host: "metadata.example", address: "169.254.169.254", scope: .linkLocal, redirectedTo: nil)
        #expect(
            resolved.description
                == "metadata.example resolves to 169.254.169.254, a link-local address")
        let literal = MediaFailure.addressRefused(
            host: nil, address: "10.0.0.7", scope: .privateNetwork, redirectedTo: nil)
        #expect(literal.description == "10.0.0.7 is a private address")
        let hop = MediaFailure.addressRefused(
            host: nil, address: "127.0.0.2", scope: .loopback, redirectedTo: "http://127.0.0.2:81/a.png")
        #expect(
            hop.description
                == "redirected to http://127.0.0.2:81/a.png, where 127.0.0.2 is a loopback address"
        )
        #expect(!literal.isLasting, "not remembered: --media-allow may permit it next time")
    }
}
