import Foundation
import Glibc
import Media
import Support
import Synchronization
import TestSupport

/// The test server's answers, by path:
///
///     /img/NAME          a fixture, with the type its extension says
///     /png/N.png         `TestImages.numbered(N)`
///     /stall             headers, then nothing (beyond any test's timeout); the query is ignored
///     /missing           404 with an HTML page
///     /error             500
///     /hop/K/NAME        a redirect to /hop/K-1/NAME, and /hop/0/NAME is /img/NAME
///     /to-file           a redirect to file:///etc/passwd
///     /endless           a body with no end and no length
///     /big               200 MB, announced by Content-Length
///     /big-unannounced   200 MB, no Content-Length (the end is the connection's); far more
///                        than the socket buffers hold (a client's grows to 32 MiB under load)
///     /script.svg        an SVG with a script, as image/svg+xml
///     /fake.png          an HTML page, as image/png
///     /drop              the connection closed without an answer
///     /cut               1,000 bytes announced, 100 sent
///     /etag/NAME         a fixture with an ETag; 304 to If-None-Match with it
///     /lastmod/NAME      a fixture with a Last-Modified; 304 to If-Modified-Since with it
///     /changing          `Routes.version`'s PNG with ETag "v{version}", 304 to a match
final class Routes: Sendable {
    let version = Mutex(1)
    /// When set, every answer is this status (a server gone bad).
    let failEverything = Mutex<Int?>(nil)

    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    func answer(_ request: TestServer.Request) -> TestServer.Response {
        if let status = failEverything.withLock({ $0 }) {
            return .answer(status: status, headers: [], body: Array("no".utf8))
        }
        let path = String(request.path.prefix { $0 != "?" })
        let parts = path.split(separator: "/").map(String.init)
        switch parts.first {
        case "img" where parts.count == 2: return fixture(parts[1])
        case "png" where parts.count == 2:
            guard let n = Int(parts[1].replacingOccurrences(of: ".png", with: "")) else { return notFound }
            return .ok(TestImages.numbered(n), type: "image/png")
        case "stall": return .stall(seconds: 10)
        case "missing": return notFound
        case "error": return .answer(status: 500, headers: [], body: Array("oops".utf8))
        case "hop" where parts.count == 3:
            let k = Int(parts[1]) ?? 0
            return k == 0 ? fixture(parts[2]) : .redirect("/hop/\(k - 1)/\(parts[2])")
        case "to-file": return .redirect("file:///etc/passwd")
        case "endless": return .stream(total: nil, announced: false)
        case "big": return .stream(total: 200_000_000, announced: true)
        case "big-unannounced": return .stream(total: 200_000_000, announced: false)
        case "script.svg": return .ok(try! Fixtures.bytes("script.svg"), type: "image/svg+xml")
        case "fake.png":
            return .ok(
                Array("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>".utf8), type: "image/png")
        case "drop": return .drop
        case "cut": return .cut(announced: 1000, body: Array(TestImages.png(width: 2, height: 2).prefix(100)))
        case "etag" where parts.count == 2:
            let etag = "\"e-\(parts[1])\""
            if request.headers["if-none-match"] == etag {
                return .answer(status: 304, headers: [("ETag", etag)], body: [])
            }
            return fixture(parts[1], headers: [("ETag", etag)])
        case "lastmod" where parts.count == 2:
            if request.headers["if-modified-since"] == Routes.lastModified {
                return .answer(status: 304, headers: [], body: [])
            }
            return fixture(parts[1], headers: [("Last-Modified", Routes.lastModified)])
        case "changing":
            let version = version.withLock { $0 }
            let etag = "\"v\(version)\""
            if request.headers["if-none-match"] == etag {
                return .answer(status: 304, headers: [("ETag", etag)], body: [])
            }
            return .ok(
                TestImages.png(width: version, height: 1, seed: version), type: "image/png", headers: [("ETag", etag)])
        default: return notFound
        }
    }

    private var notFound: TestServer.Response {
        .answer(status: 404, headers: [("Content-Type", "text/html")], body: Array("<html>not here</html>".utf8))
    }

    private func fixture(_ name: String, headers: [(String, String)] = []) -> TestServer.Response {
        guard let bytes = try? Fixtures.bytes(name) else { return notFound }
        let ext = name.split(separator: ".").last.map(String.init) ?? ""
        let type = ImageFormat(fileExtension: ext)?.mimeType ?? "application/octet-stream"
        return .ok(bytes, type: type, headers: headers)
    }
}

/// A server and a cache folder, with short timeouts so every test stays fast.
final class MirrorFixture {
    let routes = Routes()
    let server: TestServer
    let folder: TemporaryFolder

    init() throws {
        let routes = self.routes
        server = try TestServer { routes.answer($0) }
        folder = try TemporaryFolder()
    }

    var cachePath: String { folder.path("cache") }

    func url(_ path: String) -> String { server.base + path }

    func options(offline: Bool = false, refresh: Bool = false) -> MediaMirror.Options {
        var options = MediaMirror.Options(userAgent: "Roost/test (media tests)", offline: offline, refresh: refresh)
        options.limits.connectTimeout = 0.5
        options.limits.totalTimeout = 1.5
        // The test server is on this machine: allowed on purpose, as `--media-allow` does.
        options.limits.addresses = AddressRule(allowed: [IPNetwork("127.0.0.1/32")!])
        return options
    }

    func mirror(offline: Bool = false, refresh: Bool = false) throws -> MediaMirror {
        try MediaMirror(cache: cachePath, options: options(offline: offline, refresh: refresh))
    }

    /// One reference per path (a server path, or any other text as the URL), from a made-up document.
    func references(_ paths: [String]) -> [MediaReference] {
        paths.enumerated().map { i, path in
            MediaReference(url: path.hasPrefix("/") ? url(path) : path, path: "users/u\(i)", field: "profileImageUrl")
        }
    }

    /// The files in the cache's `media/` folder.
    var blobs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cachePath + "/media")) ?? []).sorted()
    }
}

/// A port that accepts no connection in time: a listener whose backlog is full, so the
/// kernel drops new SYNs and a client's connect times out (all on 127.0.0.1).
final class BlackHole {
    let port: UInt16
    private let listener: Int32
    private var fillers: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else { throw TestServerError("cannot make a black hole") }
        port = UInt16(bigEndian: address.sin_port)
        for _ in 0..<3 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var target = address
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(fd)
        }
        usleep(50_000)
    }

    deinit {
        for fd in fillers { close(fd) }
        close(listener)
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
}
