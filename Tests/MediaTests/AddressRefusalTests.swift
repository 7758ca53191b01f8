import Media
import Support
import TestSupport
import Testing

/// SPEC 9: mirroring connects to no loopback (or private, …) address unless allowed, after DNS
/// and on every redirect. Every server here is on the loopback range: 127.0.0.1, and 127.0.0.2
/// as the "other" host a redirect points at.
@Suite("Mirroring refuses this machine's and its network's addresses, and sends them nothing")
struct AddressRefusalTests {
    static func mirror(_ folder: TemporaryFolder, allow: [String]) throws -> MediaMirror {
        var options = MediaMirror.Options(userAgent: "Roost/test (address rule)")
        options.limits.connectTimeout = 2
        options.limits.totalTimeout = 5
        options.limits.addresses = AddressRule(allowed: allow.map { IPNetwork($0)! })
        return try MediaMirror(cache: folder.path("cache"), options: options)
    }

    static func references(_ urls: [String]) -> [MediaReference] {
        urls.enumerated().map { MediaReference(url: $1, path: "users/u\($0)", field: "profileImageUrl") }
    }

    @Test func withoutAnAllowanceALocalServerGetsNoConnection() throws {
        let server = try TestServer.pictures()
        let folder = try TemporaryFolder()
        let urls = [
            server.base + "/a.png", "http://localhost:\(server.port)/b.png",
            "http://2130706433:\(server.port)/c.png", "http://[::ffff:127.0.0.1]:\(server.port)/d.png",
        ]
        let results = try Self.mirror(folder, allow: []).fetch(Self.references(urls))
        #expect(results.images.isEmpty)
        let warnings = results.warnings(for: Self.references(urls)).map(\.description)
        #expect(warnings.count == 4)
        #expect(warnings[0].hasSuffix("127.0.0.1 is a loopback address"), "\(warnings[0])")
        #expect(warnings[1].contains(": localhost resolves to "), "\(warnings[1])")
        #expect(warnings[2].hasSuffix("127.0.0.1 is a loopback address"), "\(warnings[2])")
        #expect(warnings[3].hasSuffix("::ffff:127.0.0.1 is a loopback address"))
        #expect(server.log.connections == 0, "no connection, so no request")
    }

    @Test func anAllowedNetworkIsMirrored() throws {
        let server = try TestServer.pictures()
        let folder = try TemporaryFolder()
        let urls = [server.base + "/a.png", "http://localhost:\(server.port)/b.png"]
        let results = try Self.mirror(folder, allow: ["127.0.0.1/32"]).fetch(Self.references(urls))
        #expect(results.warnings(for: Self.references(urls)).isEmpty, "\(results.outcomes)")
        #expect(results.image(urls[0]) != nil)
        #expect(results.image(urls[1]) != nil, "localhost's ::1 is refused, its 127.0.0.1 taken")
        #expect(server.log.requests.count == 2)
    }

    @Test func aRedirectToAnAddressNotAllowedIsRefusedBeforeItsConnection() throws {
        let other = try TestServer.pictures(address: "127.0.0.2")
        let first = try TestServer.pictures(redirectingTo: other.base + "/")
        let folder = try TemporaryFolder()
        let urls = [first.base + "/away/a.png", first.base + "/b.png"]
        let results = try Self.mirror(folder, allow: ["127.0.0.1/32"]).fetch(Self.references(urls))
        #expect(results.image(urls[1]) != nil)
        #expect(results.image(urls[0]) == nil)
        let warning = results.warnings(for: Self.references(urls)).map(\.description)
        #expect(
            warning == [
                "users/u0: field 'profileImageUrl': \(urls[0]): redirected to \(other.base)/a.png, "
                    + "where 127.0.0.2 is a loopback address"
            ])
        #expect(other.log.connections == 0, "the server a redirect pointed at was never reached")
        #expect(first.log.requests.map(\.path).sorted() == ["/away/a.png", "/b.png"])
    }

    @Test func aRedirectToAHostNameIsCheckedAtTheAddressesItResolvesTo() throws {
        let local = try TestServer.pictures()
        let first = try TestServer.pictures(address: "127.0.0.2", redirectingTo: "http://localhost:\(local.port)/")
        let folder = try TemporaryFolder()
        let urls = [first.base + "/away/a.png"]
        let results = try Self.mirror(folder, allow: ["127.0.0.2/32"]).fetch(Self.references(urls))
        let warning = results.warnings(for: Self.references(urls)).first?.description ?? ""
        #expect(warning.contains("redirected to http://localhost:\(local.port)/a.png, where localhost resolves to "))
        #expect(warning.hasSuffix("a loopback address"), "\(warning)")
        #expect(local.log.connections == 0)
        #expect(first.log.requests.count == 1)
    }

    @Test func aRefusalIsNotRememberedSoAnAllowanceTakesEffectAtOnce() throws {
        let server = try TestServer.pictures()
        let folder = try TemporaryFolder()
        let urls = ["http://localhost:\(server.port)/a.png"]
        #expect(try Self.mirror(folder, allow: []).fetch(Self.references(urls)).images.isEmpty)
        let again = try Self.mirror(folder, allow: ["127.0.0.0/8", "::1/128"]).fetch(Self.references(urls))
        #expect(again.image(urls[0]) != nil)
        #expect(server.log.requests.count == 1)
    }
}
