import Foundation
import Glibc
import TestSupport
import Testing

/// What the binary may reach and who may reach it: `--media mirror` refuses this machine's and
/// its network's addresses unless `--media-allow` names them (SPEC 9), and `roost serve`
/// answers only its own host names (SPEC 5). Every server here is on the loopback range.
@Suite("roost build and serve: no request where it should not go, no answer to another host", .serialized)
struct NetworkRuleTests {
    /// A store of two users whose pictures are `urls`, each with a tweet.
    static func store(pictures urls: [String]) throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        try work.write(
            urls.enumerated().flatMap { i, url in
                [
                    user("u\(i)", "user\(i)", image: url),
                    tweet("t\(i)", by: "u\(i)", at: "2023-01-0\(i + 1)T00:00:00Z", "hi"),
                ]
            })
        return work
    }

    static func build(_ work: TemporaryFolder, _ extra: [String]) throws -> RoostProcess.Result {
        try RoostProcess.run(
            [
                "build", "--store", work.path("store"), "--output", work.path("public"), "--media", "mirror", "--cache",
                work.path("cache"),
            ] + extra, in: work.url)
    }

    static func mirrored(_ work: TemporaryFolder) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: work.path("public/media"))) ?? []).count
    }

    @Test func aMirroredBuildSendsALocalServerNothingUntilItIsAllowed() throws {
        let server = try TestServer.pictures()
        let work = try Self.store(pictures: [server.base + "/1.png", "http://localhost:\(server.port)/2.png"])

        let refused = try Self.build(work, [])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "warning: users/u0: field 'profileImageUrl': \(server.base)/1.png: 127.0.0.1 is a loopback address; "
                    + "the placeholder is shown (--media-allow NETWORK permits it)"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "users/u1: field 'profileImageUrl': http://localhost:\(server.port)/2.png: "
                    + "localhost resolves to "), "\(refused.stderr)")
        #expect(refused.stdout.contains("2 not mirrored"), "\(refused.stdout)")
        #expect(server.log.connections == 0, "no request reached the server")
        #expect(Self.mirrored(work) == 0)

        let allowed = try Self.build(work, ["--media-allow", "127.0.0.1/32"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(!allowed.stderr.contains("permits it"), "\(allowed.stderr)")
        #expect(Self.mirrored(work) == 2)
        #expect(server.log.requests.count == 2)
    }

    @Test func roostJSONAllowsANetworkToo() throws {
        let server = try TestServer.pictures()
        let work = try Self.store(pictures: [server.base + "/1.png"])
        try work.write("roost.json", #"{"mediaAllow": ["10.0.0.0/8", "127.0.0.0/8"]}"#)
        let result = try Self.build(work, [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mirrored(work) == 1, "\(result.stderr)")

        try work.write("roost.json", #"{"mediaAllow": "127.0.0.0/8"}"#)
        let wrongType = try Self.build(work, [])
        #expect(wrongType.status == 2)
        #expect(
            wrongType.stderr.contains("'mediaAllow' must be an array of strings, not a string"), "\(wrongType.stderr)")
    }

    @Test func aRedirectFromTheAllowedServerToAnotherIsRefusedBeforeItIsReached() throws {
        let other = try TestServer.pictures(address: "127.0.0.2")
        let first = try TestServer.pictures(redirectingTo: other.base + "/")
        let work = try Self.store(pictures: [first.base + "/away/1.png", first.base + "/2.png"])
        let result = try Self.build(work, ["--media-allow", "127.0.0.1/32"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "\(first.base)/away/1.png: redirected to \(other.base)/1.png, where 127.0.0.2 is a loopback address"),
            "\(result.stderr)")
        #expect(other.log.connections == 0)
        #expect(Self.mirrored(work) == 1)
        let profile = try String(contentsOfFile: work.path("public/u/user0/index.html"), encoding: .utf8)
        #expect(!profile.contains("127.0.0.2"), "the refused picture is the placeholder, not a link")
    }

    @Test(arguments: ["10/8", "127.0.0.1/33", "localhost", "127.0.0.1 /32"])
    func aNetworkThatIsNoneIsAUsageError(text: String) throws {
        let work = try Self.store(pictures: [])
        let result = try Self.build(work, ["--media-allow", text])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "option '--media-allow' takes a network such as "
                    + "127.0.0.1/32, 192.168.1.0/24 or ::1/128, not '\(text)'"), "\(result.stderr)")
    }

    @Test func helpExplainsBothRules() throws {
        let build = try RoostProcess.run(["build", "--help"])
        #expect(build.stdout.contains("--media-allow NETWORK"))
        #expect(build.stdout.contains("checked after\n") || build.stdout.contains("checked after"))
        let serve = try RoostProcess.run(["serve", "--help"])
        #expect(serve.stdout.contains("--allow-host NAME"))
        #expect(serve.stdout.contains("gets 403"), "\(serve.stdout)")
    }

    // MARK: - serve

    /// One GET with exactly these headers, over a plain socket (URLSession sets `Host` itself).
    static func get(_ port: Int, _ path: String, headers: [(String, String)]) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw ServeTests.ServeError(message: "cannot connect to port \(port)") }
        var text = "GET \(path) HTTP/1.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let request = Array((text + "\r\n").utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            // An event stream does not end: its first bytes are enough.
            if String(decoding: received, as: UTF8.self).contains(": connected") { break }
        }
        let response = String(decoding: received, as: UTF8.self)
        let status = Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, response)
    }

    @Test func serveAnswersItsOwnNamesAndNamesAllowedOnly() throws {
        let work = try Self.store(pictures: ["https://example.com/a.png"])
        let server = try ServeTests.Server(arguments: ["--store", work.path("store"), "--allow-host", "preview.test"])
        let port = server.url.port!

        let evil = try Self.get(port, "/", headers: [("Host", "evil.example.com")])
        #expect(evil.status == 403)
        #expect(evil.body.contains("--allow-host evil.example.com"), "\(evil.body)")
        #expect(!evil.body.contains("data-tweet-id"))

        let own = try Self.get(port, "/", headers: [("Host", "localhost:\(port)")])
        #expect(own.status == 200)
        #expect(own.body.contains("data-tweet-id=\"t0\""))
        #expect(try Self.get(port, "/", headers: [("Host", "preview.test")]).status == 200)

        let stream = [("Host", "localhost:\(port)"), ("Origin", "http://evil.example.com")]
        let crossSite = try Self.get(port, "/__roost/events", headers: stream)
        #expect(crossSite.status == 403)
        #expect(crossSite.body.contains("Origin: http://evil.example.com"))
        let sameSite = [("Host", "localhost:\(port)"), ("Origin", "http://localhost:\(port)")]
        #expect(try Self.get(port, "/__roost/events", headers: sameSite).status == 200)
    }

    @Test func roostJSONAllowsHostNamesToo() throws {
        let work = try Self.store(pictures: ["https://example.com/a.png"])
        try work.write("roost.json", #"{"store": "store", "allowHosts": ["preview.test"]}"#)
        let server = try ServeTests.Server(arguments: [], in: work.url)
        let port = server.url.port!
        #expect(try Self.get(port, "/", headers: [("Host", "preview.test:\(port)")]).status == 200)
        #expect(try Self.get(port, "/", headers: [("Host", "other.test:\(port)")]).status == 403)
    }
}
