import Foundation
import Testing

@testable import Preview

/// SPEC 5: the preview answers only requests addressed to it, so a page that rebinds its own
/// host name to 127.0.0.1 cannot read it (the hole Vite and webpack-dev-server closed).
@Suite("roost serve's host check: its own names, names allowed on purpose, nothing else")
struct HostCheckTests {
    func start(allowing allowed: [String] = [], host: String = "127.0.0.1") throws -> PreviewServer {
        let server = PreviewServer(
            source: MemorySource(strings: ["index.html": page]), host: host, port: 0, allowedHosts: allowed)
        try server.start()
        return server
    }

    @Test func anotherHostNameGets403SayingWhichOptionPermitsIt() throws {
        let server = try start()
        defer { server.stop() }
        let refused = try request(server.port, "/", headers: ["Host": "evil.example.com"])
        #expect(refused.status == 403)
        #expect(!refused.text.contains("PAGE"))
        #expect(refused.text.contains("Host: evil.example.com"), "\(refused.text)")
        #expect(refused.text.contains("--allow-host evil.example.com"), "\(refused.text)")
        #expect(try request(server.port, "/", headers: ["Host": "evil.example.com:\(server.port)"]).status == 403)
        #expect(try request(server.port, "/", headers: ["Host": "127.0.0.1.evil.example.com"]).status == 403)
        #expect(try request(server.port, "/", headers: ["Host": "localhost.evil.example.com"]).status == 403)
        #expect(try request(server.port, "/", headers: ["Host": "10.0.0.7"]).status == 403)
        #expect(try request(server.port, "/", headers: ["Host": "user@localhost"]).status == 403)
        // Every path, the preview's own scripts and stream too.
        #expect(try request(server.port, "/__roost/live.js", headers: ["Host": "evil.example.com"]).status == 403)
        #expect(try request(server.port, "/__roost/events", headers: ["Host": "evil.example.com"]).status == 403)
        #expect(try request(server.port, "/nothing-here", headers: ["Host": "evil.example.com"]).status == 403)
    }

    @Test func itsOwnNamesGetThePage() throws {
        let server = try start()
        defer { server.stop() }
        let port = server.port
        for host in [
            "localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)", "localhost.:\(port)",
            "localhost", "127.0.0.1", "[::1]",
            // An SSH tunnel or a port forward changes the port, not the name.
            "localhost:9000",
        ] {
            let response = try request(port, "/", headers: ["Host": host])
            #expect(response.status == 200, "\(host)")
            #expect(response.text.contains("PAGE"), "\(host)")
        }
    }

    @Test func aNameAllowedOnPurposeIsAnswered() throws {
        let server = try start(allowing: ["preview.test", ".lan.example"])
        defer { server.stop() }
        let port = server.port
        for host in ["preview.test", "preview.test:\(port)", "Preview.Test:443", "lan.example", "box.lan.example:8000"]
        {
            #expect(try request(port, "/", headers: ["Host": host]).status == 200, "\(host)")
        }
        for host in ["other.test", "xpreview.test", "preview.test.evil.com", "evil-lan.example"] {
            #expect(try request(port, "/", headers: ["Host": host]).status == 403, "\(host)")
        }
    }

    @Test func theLiveReloadStreamRefusesAnotherSitesOrigin() throws {
        let server = try start(allowing: ["preview.test"])
        defer { server.stop() }
        let port = server.port
        for origin in ["http://evil.example.com", "https://evil.example.com:\(port)", "null", "file://"] {
            let response = try request(
                port, "/__roost/events", headers: ["Host": "localhost:\(port)", "Origin": origin])
            #expect(response.status == 403, "\(origin)")
            #expect(response.text.contains("Origin: \(origin)"), "\(response.text)")
        }
        #expect(server.liveClientCount == 0)
        for origin in [
            "http://localhost:\(port)", "http://127.0.0.1:\(port)", "http://[::1]:\(port)", "http://preview.test",
        ] {
            let stream = try RawConnection(port: port)
            try stream.send(
                "GET /__roost/events HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: \(origin)\r\n\r\n")
            #expect(stream.read(until: ": connected"), "\(origin)")
        }
    }

    @Test func listeningOnEveryAddressAllowsTheMachinesOwn() throws {
        let check = HostCheck(listeningOn: "0.0.0.0", allowed: [])
        let addresses = HostCheck.machineAddresses()
        #expect(addresses.contains("127.0.0.1"))
        for address in addresses {
            let host = address.contains(":") ? "[\(address)]:8000" : "\(address):8000"
            #expect(check.allows(host: host), "\(host)")
        }
        #expect(!check.allows(host: "evil.example.com:8000"))
        #expect(!check.allows(host: "8.8.8.8:8000"))
        if let name = HostCheck.machineName() { #expect(check.allows(host: name + ":8000")) }

        let one = HostCheck(listeningOn: "127.0.0.2", allowed: [])
        #expect(one.allows(host: "127.0.0.2:8000"))
        #expect(!HostCheck(listeningOn: "127.0.0.1", allowed: []).allows(host: "127.0.0.2:8000"))
    }

    @Test func aMissingOrMalformedHostIsRefused() {
        let check = HostCheck(listeningOn: "127.0.0.1", allowed: [])
        for host in [nil, "", ":8000", "[::1", "[::1]x", "localhost:port", "localhost/evil", "localhost:99999"] {
            #expect(!check.allows(host: host), "\(host ?? "nil")")
        }
    }
}
