import Support
import Testing

@Suite("IP addresses and networks: the forms URLs, sockets and CIDR write them in")
struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0x7F000001", "127.0.0.1"),
        ("017700000001", "127.0.0.1"), ("0177.0.0.01", "127.0.0.1"), ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"), ("0x", "0.0.0.0"), ("10.0.0.7.", "10.0.0.7"), ("169.254.169.254", "169.254.169.254"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"), ("[::1]", "::1"), ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
        ("[::ffff:7f00:1]", "::ffff:127.0.0.1"), ("[fe80::1%25eth0]", "fe80::1"), ("[FC00::A]", "fc00::a"),
    ])
    func aURLHostThatIsAnAddressIsReadInEverySpelling(host: String, address: String) {
        #expect(IPAddress(urlHost: host)?.description == address)
    }

    @Test(arguments: [
        "example.com", "localhost", "256.1.1.1", "1.2.3.4.5", "0x100000000", "4294967296", "08", "0x1g", "1..2",
        "", "[127.0.0.1]", "[::1", "99999999999999999999999999999999999",
    ])
    func aNameOrANumberOutOfRangeIsNoAddress(host: String) {
        #expect(IPAddress(urlHost: host) == nil)
    }

    @Test func theStrictFormIsWhatInetPtonReads() {
        #expect(IPAddress("127.0.0.1")?.bytes == [127, 0, 0, 1])
        #expect(IPAddress("::1")?.bytes == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddress("127.1") == nil)
        #expect(IPAddress("[::1]") == nil)
        #expect(IPAddress("::1")?.urlHost == "[::1]")
    }

    @Test func anIPv4MappedAddressGivesItsIPv4Address() {
        #expect(IPAddress("::ffff:10.1.2.3")?.mappedIPv4 == IPAddress("10.1.2.3"))
        #expect(IPAddress("::10.1.2.3")?.mappedIPv4 == nil)
        #expect(IPAddress("10.1.2.3")?.mappedIPv4 == nil)
    }

    @Test func aNetworkContainsItsAddressesAndNoOthers() throws {
        let lan = try #require(IPNetwork("192.168.1.0/24"))
        #expect(lan.contains(IPAddress("192.168.1.0")!))
        #expect(lan.contains(IPAddress("192.168.1.255")!))
        #expect(!lan.contains(IPAddress("192.168.2.1")!))
        #expect(lan.contains(IPAddress("::ffff:192.168.1.9")!), "an IPv4-mapped address is its IPv4 address")
        #expect(!lan.contains(IPAddress("fe80::1")!))

        let one = try #require(IPNetwork("127.0.0.1"))
        #expect(one.description == "127.0.0.1/32")
        #expect(one.contains(IPAddress("127.0.0.1")!) && !one.contains(IPAddress("127.0.0.2")!))

        let odd = try #require(IPNetwork("10.1.2.3/9"))
        #expect(odd.description == "10.0.0.0/9", "the bits past the prefix are cleared")
        #expect(odd.contains(IPAddress("10.127.0.1")!) && !odd.contains(IPAddress("10.128.0.1")!))

        let ula = try #require(IPNetwork("fc00::/7"))
        #expect(ula.contains(IPAddress("fd12:3456::1")!) && !ula.contains(IPAddress("fe00::1")!))
        #expect(IPNetwork("0.0.0.0/0")!.contains(IPAddress("8.8.8.8")!))
        #expect(IPNetwork("::ffff:0:0/96")!.contains(IPAddress("1.2.3.4")!))
    }

    @Test(arguments: ["10/8", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/８", "example.com/24", ""])
    func aNetworkIsRefusedWhenEitherPartIsWrong(text: String) {
        #expect(IPNetwork(text) == nil)
    }
}
