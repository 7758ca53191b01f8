import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `roost serve` end to end: the real binary on a free port, a store the test edits.
@Suite("roost serve", .serialized)
struct ServeTests {
    /// A running `roost serve`, stopped when the test ends.
    final class Server {
        let process = Process()
        let output = Pipe()
        /// Standard error, when asked for apart (`separateErrors`); else it goes to `output`.
        let errors: Pipe?
        private(set) var lines: [String] = []
        let url: URL

        convenience init(
            store: String, templates: String = RoostProcess.packageRoot.path + "/templates",
            separateErrors: Bool = false
        ) throws {
            try self.init(arguments: ["--store", store, "--templates", templates], separateErrors: separateErrors)
        }

        /// `roost serve ARGUMENTS --port 0` run by `binary` in `directory`.
        init(
            arguments: [String], in directory: URL? = nil, binary: URL = RoostProcess.binary,
            separateErrors: Bool = false
        ) throws {
            process.executableURL = binary
            process.arguments = ["serve"] + arguments + ["--port", "0"]
            if let directory { process.currentDirectoryURL = directory }
            process.standardOutput = output
            errors = separateErrors ? Pipe() : nil
            process.standardError = errors ?? output
            try process.run()
            var found: URL?
            let deadline = Date().addingTimeInterval(30)
            var buffer = ""
            while found == nil, Date() < deadline {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                buffer += String(decoding: data, as: UTF8.self)
                if let range = buffer.range(of: "serving http://") {
                    let rest = buffer[range.lowerBound...].dropFirst("serving ".count)
                    found = URL(string: String(rest.prefix { !$0.isWhitespace }))
                }
            }
            guard let found else {
                process.terminate()
                throw ServeError(message: "no 'serving' line: \(buffer)")
            }
            url = found
        }

        deinit {
            if !stop() { Issue.record("roost serve did not stop on Ctrl-C within 10 s: killed") }
        }

        /// Ctrl-C, as a person stops it; true when it exited within `seconds` (else it is killed).
        @discardableResult
        func stop(within seconds: Double = 10) -> Bool {
            guard process.isRunning else { return true }
            process.interrupt()
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            guard process.isRunning else { return true }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }

        func get(_ path: String) throws -> (Int, String) {
            let request = URLRequest(url: URL(string: path, relativeTo: url)!, timeoutInterval: 10)
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (Int, String) = (0, "")
            URLSession.shared.dataTask(with: request) { data, response, _ in
                result = (
                    (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)
                )
                done.signal()
            }.resume()
            done.wait()
            return result
        }

        /// Polls until `path` contains `text` (the watcher debounces; a rebuild takes milliseconds).
        func waitFor(_ path: String, toContain text: String) throws -> Bool {
            for _ in 0..<100 {
                if try get(path).1.contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
    }

    struct ServeError: Error { let message: String }

    static func sampleStore() throws -> TemporaryFolder {
        let store = try TemporaryFolder()
        try store.write([user("u1", "mina", fullname: "Mina Park")], in: "")
        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "hello #swift")], in: "")
        return store
    }

    /// Ctrl-C as soon as the server says it can be pressed stops it: the signal is taken
    /// before that line (it was ignored for a moment after it, and the server ran on).
    @Test func ctrlCRightAfterTheServingLineStopsIt() throws {
        let store = try Self.sampleStore()
        for attempt in 0..<8 {
            let server = try Server(store: store.path())
            #expect(server.stop(within: 10), "attempt \(attempt)")
            #expect(server.process.terminationStatus == 0, "attempt \(attempt)")
        }
    }

    @Test func servesPagesAndFollowsEdits() throws {
        let store = try Self.sampleStore()
        let server = try Server(store: store.path())
        let (status, home) = try server.get("/")
        #expect(status == 200)
        #expect(home.contains("data-tweet-id=\"t1\""))
        #expect(home.contains("/__roost/live.js"), "served pages carry the live-reload script")
        #expect(try server.get("/no/such/page/").0 == 404)

        try store.write([tweet("t2", by: "u1", at: "2023-01-02T00:00:00Z", "second tweet")], in: "")
        #expect(try server.waitFor("/", toContain: "data-tweet-id=\"t2\""))
        #expect(try server.waitFor("/u/mina/", toContain: "second tweet"))

        try store.write("tweets/t2.json", #"{"caption": "broken"#)
        #expect(
            try server.waitFor("/", toContain: "tweets/t2.json:1:"), "the error overlay names file, line and column")
        try store.write([tweet("t2", by: "u1", at: "2023-01-02T00:00:00Z", "fixed")], in: "")
        #expect(try server.waitFor("/t/t2/", toContain: "fixed"))
    }

    @Test func templateEditsReachOpenPagesThroughServerSentEvents() throws {
        let store = try Self.sampleStore()
        let templates = try TemporaryFolder()
        try FileManager.default.removeItem(at: templates.url)
        try FileManager.default.copyItem(atPath: RoostProcess.packageRoot.path + "/templates", toPath: templates.path())
        let server = try Server(store: store.path(), templates: templates.path())
        let events = try EventStream(port: server.url.port!)
        let card = templates.path("partials/card.mustache")
        let original = try String(contentsOfFile: card, encoding: .utf8)
        try (original + "<!-- edited card -->\n").write(toFile: card, atomically: true, encoding: .utf8)
        #expect(try server.waitFor("/t/t1/", toContain: "edited card"))
        #expect(events.read(until: "event: change", seconds: 10).contains("event: change"))
    }

    /// Reads a server-sent event stream over a plain socket.
    final class EventStream {
        let fd: Int32
        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw ServeError(message: "cannot connect to the event stream") }
            let request = "GET /__roost/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
            _ = request.withCString { send(fd, $0, strlen($0), 0) }
        }
        deinit { close(fd) }

        func read(until marker: String, seconds: Double) -> String {
            var received = ""
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.contains(marker), Date() < deadline {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received += String(decoding: buffer[0..<n], as: UTF8.self)
            }
            return received
        }
    }

    /// A store broken from the start shows its error on every page, and the site once it is fixed.
    @Test func aStoreBrokenAtStartRecoversWhenFixed() throws {
        let store = try Self.sampleStore()
        try store.write("tweets/t1.json", #"{"caption": "half"#)
        let server = try Server(store: store.path())
        let (status, page) = try server.get("/u/mina/")
        #expect(status == 200 && page.contains("roost-error-overlay") && page.contains("tweets/t1.json:1:"), "\(page)")
        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "whole again")], in: "")
        #expect(try server.waitFor("/", toContain: "whole again"))
        #expect(try !server.get("/").1.contains("roost-error-overlay"))
    }

    /// An update that fails (the last good state still served) is an error: it goes to standard
    /// error, as every command's errors do (SPEC 5); the updates that work, to standard output.
    @Test func anUpdateThatFailsIsWrittenToStandardError() throws {
        let store = try Self.sampleStore()
        let server = try Server(store: store.path(), separateErrors: true)
        try store.write("tweets/t2.json", #"{"caption": "#)
        #expect(try server.waitFor("/", toContain: "tweets/t2.json:1:"))
        try store.write([tweet("t2", by: "u1", at: "2023-01-02T00:00:00Z", "fixed")], in: "")
        #expect(try server.waitFor("/", toContain: "fixed"))
        server.stop()
        let out = String(decoding: server.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: server.errors!.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            errors.contains("still serving the last good build") && errors.contains("tweets/t2.json:1:"), "\(errors)")
        #expect(!out.contains("tweets/t2.json:1:") && out.contains("pages updated"), "\(out)")
    }

    @Test func anUnknownViewerIsAnErrorAtStart() throws {
        let store = try Self.sampleStore()
        let result = try RoostProcess.run(["serve", "--store", store.path(), "--port", "0", "--viewer", "nobody"])
        #expect(result.status == 1 && result.stderr.contains("--viewer 'nobody'"), "\(result.stderr)")
    }

    @Test func busyPortIsAClearError() throws {
        let store = try Self.sampleStore()
        let first = try Server(store: store.path())
        let port = first.url.port!
        let second = try RoostProcess.run(["serve", "--store", store.path(), "--port", "\(port)"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("127.0.0.1:\(port) is already in use; choose another with --port N"))
    }
}
