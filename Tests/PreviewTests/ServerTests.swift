import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Preview

let page = "<!doctype html><html><head><title>t</title></head><body><p>PAGE</p></body></html>\n"

/// A site on disk next to a secret that must never be served.
struct DiskSite {
    let folder: TemporaryFolder
    var site: URL { folder.url.appendingPathComponent("public") }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("secret.txt", "SECRET-OUTSIDE")
        try folder.write("public/index.html", page.replacingOccurrences(of: "PAGE", with: "HOME"))
        try folder.write("public/404.html", "<!doctype html><html><body><h1>NOT-FOUND-PAGE</h1></body></html>\n")
        try folder.write("public/u/mina/index.html", page.replacingOccurrences(of: "PAGE", with: "MINA"))
        try folder.write("public/tags/서울/index.html", page.replacingOccurrences(of: "PAGE", with: "SEOUL"))
        try folder.write("public/style.css", "body{color:red}\n")
        try folder.write("public/.roost-manifest", "SECRET-MANIFEST")
        try folder.write("public/inner.txt", "INNER")
        try FileManager.default.createSymbolicLink(
            atPath: site.path + "/outside.txt", withDestinationPath: "../secret.txt")
        try FileManager.default.createSymbolicLink(atPath: site.path + "/etc", withDestinationPath: "/etc")
        try FileManager.default.createSymbolicLink(atPath: site.path + "/inside.txt", withDestinationPath: "inner.txt")
    }
}

@Suite struct ServerTests {
    @Test func contentTypesByExtension() throws {
        let files: [(String, String)] = [
            ("index.html", "text/html; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
            ("app.js", "text/javascript; charset=utf-8"),
            ("avatar.svg", "image/svg+xml"),
            ("sitemap.xml", "application/xml; charset=utf-8"),
            ("feed.xml", "application/atom+xml; charset=utf-8"),
            ("u/mina/feed.xml", "application/atom+xml; charset=utf-8"),
            ("data.json", "application/json"),
            ("a.png", "image/png"),
            ("b.jpg", "image/jpeg"),
            ("c.JPEG", "image/jpeg"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("favicon.ico", "image/x-icon"),
            ("font.woff2", "font/woff2"),
            ("blob.bin", "application/octet-stream"),
            ("noextension", "application/octet-stream"),
        ]
        let source = MemorySource(strings: Dictionary(uniqueKeysWithValues: files.map { ($0.0, "x") }))
        let server = try startServer(source)
        defer { server.stop() }
        for (path, type) in files {
            let response = try request(server.port, "/" + path)
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Type") == type, "\(path)")
            #expect(response.header("Cache-Control") == "no-cache")
        }
    }

    @Test func foldersServeIndexAndRedirectWithoutSlash() throws {
        let site = try DiskSite()
        let server = try startServer(FolderSource(root: site.site))
        defer { server.stop() }
        let root = try request(server.port, "/")
        #expect(root.status == 200)
        #expect(root.text.contains("HOME"))
        let mina = try request(server.port, "/u/mina/")
        #expect(mina.status == 200)
        #expect(mina.text.contains("MINA"))
        #expect(mina.header("Content-Type") == "text/html; charset=utf-8")
        let noSlash = try request(server.port, "/u/mina?tab=1")
        #expect(noSlash.status == 301)
        #expect(noSlash.header("Location") == "/u/mina/")
        let query = try request(server.port, "/u/mina/?utm=x&y=%2e%2e")
        #expect(query.status == 200)
        #expect(query.text.contains("MINA"))
        let explicit = try request(server.port, "/u/mina/index.html")
        #expect(explicit.text.contains("MINA"))
    }

    @Test func percentDecodedPaths() throws {
        let site = try DiskSite()
        let server = try startServer(FolderSource(root: site.site))
        defer { server.stop() }
        let response = try request(server.port, "/tags/%EC%84%9C%EC%9A%B8/")
        #expect(response.status == 200)
        #expect(response.text.contains("SEOUL"))
        let raw = try request(server.port, "/tags/서울/")
        #expect(raw.text.contains("SEOUL"))
    }

    @Test func missingServesTheSite404PageWithStatus404() throws {
        let site = try DiskSite()
        let server = try startServer(FolderSource(root: site.site))
        defer { server.stop() }
        for path in ["/nope/", "/nope.css", "/u/nobody/", "/tags/%EC%84%9C/"] {
            let response = try request(server.port, path)
            #expect(response.status == 404, "\(path)")
            #expect(response.text.contains("NOT-FOUND-PAGE"), "\(path)")
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.text.contains(LiveReload.scriptTag))
        }
    }

    /// With several stores, each under its own folder, a missing page is its store's 404 page
    /// (whose links work from there), not the plain text one.
    @Test func aMissingPageOfAStoreIsThatStoresNotFoundPage() throws {
        let server = try startServer(
            MemorySource(strings: ["index.html": page, "a/404.html": "<p>A-404</p>", "b/404.html": "<p>B-404</p>"]))
        defer { server.stop() }
        for (path, text) in [("/a/nope/", "A-404"), ("/b/t/x/", "B-404"), ("/a", nil), ("/c/nope/", nil)] {
            let response = try request(server.port, path)
            #expect(response.status == 404, "\(path)")
            if let text {
                #expect(response.text.contains(text) && response.header("Content-Type") == "text/html; charset=utf-8")
            } else {
                #expect(response.text == "404 Not Found\n", "\(path)")
            }
        }
    }

    @Test func plainTextFallbackWithout404Page() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page]))
        defer { server.stop() }
        let response = try request(server.port, "/missing/")
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.text == "404 Not Found\n")
    }

    @Test func headSendsHeadersOnly() throws {
        let css = String(repeating: "a{b:c}\n", count: 100)
        let server = try startServer(MemorySource(strings: ["style.css": css, "index.html": page]))
        defer { server.stop() }
        let head = try request(server.port, "HEAD", "/style.css")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(css.utf8.count))
        #expect(head.header("Content-Type") == "text/css; charset=utf-8")
        let get = try request(server.port, "/style.css")
        #expect(head.header("ETag") == get.header("ETag"))
        let headPage = try request(server.port, "HEAD", "/")
        #expect(headPage.body.isEmpty)
        #expect(
            headPage.header("Content-Length") == String(LiveReload.inject(into: Array(page.utf8), error: nil).count))
    }

    @Test func etagAndIfNoneMatch() throws {
        let source = MemorySource(strings: ["style.css": "a{}", "index.html": page])
        let server = try startServer(source)
        defer { server.stop() }
        let first = try request(server.port, "/style.css")
        let tag = try #require(first.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let again = try request(server.port, "/style.css", headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == tag)
        let listed = try request(server.port, "/style.css", headers: ["If-None-Match": "\"other\", W/\(tag)"])
        #expect(listed.status == 304)
        let other = try request(server.port, "/style.css", headers: ["If-None-Match": "\"other\""])
        #expect(other.status == 200)
        #expect(other.text == "a{}")
        source.set("style.css", string: "a{color:red}")
        let changed = try request(server.port, "/style.css", headers: ["If-None-Match": tag])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") != tag)
        // HTML tags cover the injected markup: an error overlay changes the tag.
        let html = try #require(try request(server.port, "/").header("ETag"))
        server.setError("broken")
        let withError = try request(server.port, "/", headers: ["If-None-Match": html])
        #expect(withError.status == 200)
    }

    @Test func otherMethodsGet405() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page]))
        defer { server.stop() }
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            let response = try request(server.port, method, "/")
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD", "\(method)")
        }
    }

    @Test func traversalIsRefused() throws {
        let site = try DiskSite()
        let server = try startServer(FolderSource(root: site.site))
        defer { server.stop() }
        let attempts = [
            "/../secret.txt",
            "/u/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E/secret.txt",
            "/.%2e/secret.txt",
            "/..%2fsecret.txt",
            "/..%2Fsecret.txt",
            "/%2e%2e%2fsecret.txt",
            "/%2e%2e%5csecret.txt",
            "/..\\secret.txt",
            "/u\\..\\..\\secret.txt",
            "/%252e%252e/secret.txt",
            "//etc/passwd",
            "/%2Fetc/passwd",
            "/%2fetc%2fpasswd",
            "/etc/passwd",
            "/outside.txt",
            "/secret.txt%00.html",
            "/index.html%00",
            "/%00",
            "/.roost-manifest",
            "/%2eroost-manifest",
            "/u/./mina/",
            "/u//mina/",
            "/%",
            "/%zz",
            "secret.txt",
            "../secret.txt",
            "http://127.0.0.1/../secret.txt",
            "/" + site.folder.url.path + "/secret.txt",
        ]
        for attempt in attempts {
            let response = try request(server.port, attempt)
            #expect(response.status == 404 || response.status == 400, "\(attempt): \(response.status)")
            #expect(!response.text.contains("SECRET"), "\(attempt)")
            #expect(!response.text.contains("root:"), "\(attempt)")
        }
        // A symbolic link that stays inside the site is fine.
        let inside = try request(server.port, "/inside.txt")
        #expect(inside.status == 200)
        #expect(inside.text == "INNER")
    }

    @Test func folderSourceRefusesUnsafePaths() throws {
        let site = try DiskSite()
        let source = FolderSource(root: site.site)
        #expect(source.file(at: "inner.txt") == Array("INNER".utf8))
        #expect(source.file(at: "inside.txt") == Array("INNER".utf8))
        for path in [
            "../secret.txt", "/etc/passwd", "outside.txt", "etc/passwd", "u/../../secret.txt", "", "u/mina",
            "u//mina/index.html",
        ] {
            #expect(source.file(at: path) == nil, "\(path)")
        }
    }

    @Test func busyPortIsAClearError() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, listen(fd, 1) == 0, getsockname(fd, $0, &length) == 0 else {
                    throw TestError("bind failed")
                }
            }
        }
        let port = UInt16(bigEndian: address.sin_port)
        let server = PreviewServer(source: MemorySource(), host: "127.0.0.1", port: port)
        #expect(throws: PreviewError.portInUse(host: "127.0.0.1", port: port)) { try server.start() }
        #expect(
            PreviewError.portInUse(host: "127.0.0.1", port: 8000).description
                == "127.0.0.1:8000 is already in use")
    }

    @Test func portZeroPicksAPortAndStopCloses() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page]))
        let port = server.port
        #expect(port != 0)
        #expect(server.url.absoluteString == "http://127.0.0.1:\(port)/")
        #expect(try request(port, "/").status == 200)
        server.stop()
        #expect(throws: (any Error).self) { try RawConnection(port: port) }
    }

    @Test func liveScriptIsServedAndInjectedIntoHTMLOnly() throws {
        let site = try DiskSite()
        let server = try startServer(FolderSource(root: site.site))
        defer { server.stop() }
        let script = try request(server.port, "/__roost/live.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.text.contains("new EventSource(\"/__roost/events\")"))
        let css = try request(server.port, "/__roost/overlay.css")
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.text.contains("position: fixed"))

        let html = try request(server.port, "/u/mina/")
        #expect(html.text.contains("<p>MINA</p>\(LiveReload.scriptTag)</body>"))
        #expect(html.text.components(separatedBy: LiveReload.scriptTag).count == 2)
        #expect(!html.text.contains("roost-error-overlay"))
        let style = try request(server.port, "/style.css")
        #expect(style.text == "body{color:red}\n")
        // The file on disk is untouched.
        let disk = try String(contentsOf: site.site.appendingPathComponent("u/mina/index.html"), encoding: .utf8)
        #expect(!disk.contains("__roost"))
    }

    @Test func injectionPlacesScriptBeforeLastBodyClose() {
        func inject(_ s: String, error: String? = nil, title: String = "Build error") -> String {
            String(
                decoding: LiveReload.inject(into: Array(s.utf8), error: error.map { (title, $0) }), as: UTF8.self)
        }
        #expect(inject("<p>a</p></BODY></html>") == "<p>a</p>\(LiveReload.scriptTag)</BODY></html>")
        #expect(inject("<p>\"</body>\"</p></body>") == "<p>\"</body>\"</p>\(LiveReload.scriptTag)</body>")
        #expect(inject("<p>no body</p>") == "<p>no body</p>\(LiveReload.scriptTag)")
        #expect(inject("</bodyx>") == "</bodyx>\(LiveReload.scriptTag)")
        let withError = inject("<body></body>", error: "a < b & \"c\"")
        #expect(withError.contains("<pre>a &lt; b &amp; &quot;c&quot;</pre>"))
        #expect(withError.contains("<strong>Build error</strong>"))
        #expect(withError.hasSuffix("\(LiveReload.scriptTag)</body>"))
        let stale = inject("<body></body>", error: "the stream <ended>", title: "Not <up> to date")
        #expect(stale.contains("<strong>Not &lt;up&gt; to date</strong><pre>the stream &lt;ended&gt;</pre>"))
    }

    @Test func eventsStreamReceivesPublishedChanges() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page]), keepAlive: .milliseconds(300))
        defer { server.stop() }
        let stream = try RawConnection(port: server.port)
        try stream.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        #expect(stream.read(until: ": connected"))
        #expect(stream.text.contains("Content-Type: text/event-stream"))
        #expect(server.liveClientCount == 1)
        server.publish(changedPaths: ["u/mina/index.html", "tags/서울/index.html"])
        #expect(stream.read(until: "event: change\ndata: [\"u/mina/index.html\",\"tags/서울/index.html\"]\n\n"))
        #expect(stream.read(until: ": keep-alive\n\n", timeout: 3))
        // A second client gets later events too.
        let second = try RawConnection(port: server.port)
        try second.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(second.read(until: ": connected"))
        server.publish(changedPaths: ["*"])
        #expect(second.read(until: "data: [\"*\"]"))
        #expect(stream.read(until: "data: [\"*\"]"))
    }

    /// A page that connects while an error shows gets it as open pages did, under its own
    /// title ("Not up to date" while a database cannot be reached), not as a build error.
    @Test func aLateClientGetsTheErrorUnderItsTitle() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page]))
        defer { server.stop() }
        server.setError("the stream ended", title: "Not up to date")
        let stream = try RawConnection(port: server.port)
        try stream.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(
            stream.read(until: "event: error\ndata: {\"title\":\"Not up to date\",\"text\":\"the stream ended\"}\n\n"))
        server.setError("broken")
        let late = try RawConnection(port: server.port)
        try late.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(late.read(until: "event: error\ndata: \"broken\"\n\n"))
    }

    @Test func stopEndsOpenEventStreamsPromptly() throws {
        let server = try startServer(MemorySource())
        let stream = try RawConnection(port: server.port)
        try stream.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(stream.read(until: ": connected"))
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 3)
        _ = stream.readToEnd(timeout: 2)
    }

    @Test func errorOverlayWhileErrorIsSet() throws {
        let server = try startServer(MemorySource(strings: ["index.html": page, "style.css": "a{}"]))
        defer { server.stop() }
        let stream = try RawConnection(port: server.port)
        try stream.send("GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(stream.read(until: ": connected"))

        server.setError("content/tweets/1.json:3:7: expected ',' <or> '}'")
        #expect(stream.read(until: "event: error\ndata: \"content/tweets/1.json:3:7: expected ',' <or> '}'\"\n\n"))
        let broken = try request(server.port, "/")
        #expect(broken.status == 200)
        #expect(broken.text.contains("<link rel=\"stylesheet\" href=\"/__roost/overlay.css\">"))
        #expect(broken.text.contains("id=\"roost-error-overlay\""))
        #expect(broken.text.contains("expected &#39;,&#39; &lt;or&gt; &#39;}&#39;"))
        #expect(!broken.text.contains("<or>"))
        #expect(!broken.text.contains("style=\""))
        #expect(try request(server.port, "/style.css").text == "a{}")

        server.setError(nil)
        #expect(stream.read(until: "event: change\ndata: [\"*\"]\n\n"))
        let fixed = try request(server.port, "/")
        #expect(!fixed.text.contains("roost-error-overlay"))
        #expect(fixed.text.contains(LiveReload.scriptTag))

        // Another kind of trouble has a title of its own, in the event and on the page.
        server.setError("the stream ended; reconnecting", title: "Not up to date")
        #expect(
            stream.read(
                until:
                    "event: error\ndata: {\"title\":\"Not up to date\",\"text\":\"the stream ended; reconnecting\"}\n\n"
            ))
        #expect(try request(server.port, "/").text.contains("<strong>Not up to date</strong>"))
    }
}

@Suite struct PathTests {
    @Test func resolves() {
        #expect(RequestPath.resolve("/") == .init(relative: "", isFolder: true))
        #expect(RequestPath.resolve("/")?.file == "index.html")
        #expect(RequestPath.resolve("/u/mina/")?.file == "u/mina/index.html")
        #expect(RequestPath.resolve("/u/mina") == .init(relative: "u/mina", isFolder: false))
        #expect(RequestPath.resolve("/tags/%EC%84%9C%EC%9A%B8/")?.file == "tags/서울/index.html")
        #expect(RequestPath.resolve("/a%20b.txt?x=1")?.file == "a b.txt")
        #expect(RequestPath.resolve("/feed.xml?x=/../")?.file == "feed.xml")
    }

    @Test func refuses() {
        for raw in [
            "", "u", "/../a", "/%2e%2e/a", "/..%2fa", "/%2e%2e%5ca", "/a\\b", "//a", "/a//b", "/%2fa",
            "/a%00", "/.git/config", "/u/.hidden", "/%", "/%4", "/%g0", "/%ff", "/a%0d%0aX: y", "/./a",
        ] {
            #expect(RequestPath.resolve(raw) == nil, "\(raw)")
        }
    }
}

@Suite struct ServerSourceTests {
    @Test func sourceCanBeSwappedAndRequestsAreLogged() throws {
        let entries = Mutex<[PreviewServer.LogEntry]>([])
        let server = PreviewServer(
            source: MemorySource(strings: ["index.html": "<body>one</body>"]), port: 0,
            log: { entry in entries.withLock { $0.append(entry) } })
        try server.start()
        defer { server.stop() }
        #expect(try request(server.port, "/").text.contains("one"))
        server.source = MemorySource(strings: ["index.html": "<body>two</body>"])
        #expect(try request(server.port, "/").text.contains("two"))
        _ = try request(server.port, "/missing?q=1")
        let logged = entries.withLock { $0.map { "\($0.method) \($0.path) \($0.status)" } }
        #expect(logged == ["GET / 200", "GET / 200", "GET /missing 404"])
    }
}
