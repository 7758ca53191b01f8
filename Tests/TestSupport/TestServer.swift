import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 server for the tests, on 127.0.0.1 (or another loopback address) and a port the system picks, one
/// thread per connection, keep-alive for plain answers. It counts connections and requests,
/// keeps each request's headers, and notes how many body bytes each streamed answer got out
/// before the client hung up. It stops when told, when dropped, or after `lifetime` seconds.
package final class TestServer: Sendable {
    package struct Request: Sendable {
        package var path: String
        /// Header names in lowercase.
        package var headers: [String: String]
        package var method = "GET"
        /// The body a `Content-Length` announced.
        package var body: [UInt8] = []
    }

    package enum Response: Sendable {
        /// A whole answer: status, headers (Content-Length is added), body.
        case answer(status: Int, headers: [(String, String)], body: [UInt8])
        /// Headers, then nothing for `seconds` (the client times out first).
        case stall(seconds: Double)
        /// A 200 whose body is `total` bytes (nil: no end), sent in pieces; with a
        /// Content-Length when `announced`, else ended by closing the connection.
        case stream(total: Int?, announced: Bool)
        /// The connection closed without a byte.
        case drop
        /// A Content-Length of `announced`, then `body` (shorter), then the connection closed.
        case cut(announced: Int, body: [UInt8])

        package static func ok(_ body: [UInt8], type: String, headers: [(String, String)] = []) -> Response {
            .answer(status: 200, headers: [("Content-Type", type)] + headers, body: body)
        }

        package static func redirect(_ location: String, status: Int = 302) -> Response {
            .answer(status: status, headers: [("Location", location)], body: Array("moved".utf8))
        }
    }

    /// What the server saw.
    package struct Log: Sendable {
        package var connections = 0
        package var requests: [Request] = []
        /// Body bytes sent by each streamed answer, by path.
        package var streamed: [String: Int] = [:]
        /// Paths of streamed answers the client stopped reading before the end.
        package var cutShort: Set<String> = []
        /// Requests being answered now, and the most at once.
        package var inFlight = 0
        package var maxInFlight = 0
    }

    package let port: UInt16
    /// The loopback address it listens on.
    package let address: String
    private let listener: Int32
    private let state = Mutex((log: Log(), stopped: false))
    private let handler: @Sendable (Request) -> Response

    /// - Parameter address: a loopback address (`127.0.0.2`: another host, as far as a client's
    ///   address rules can tell); never one off this machine.
    package init(
        address loopback: String = "127.0.0.1", lifetime: Double = 60,
        handler: @escaping @Sendable (Request) -> Response
    ) throws {
        precondition(loopback.hasPrefix("127."), "test servers listen on the loopback range only")
        self.handler = handler
        self.address = loopback
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(loopback)
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard listener >= 0, bound, listen(listener, 128) == 0 else {
            close(listener)
            throw TestServerError("cannot listen on \(loopback): \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let deadline = Date(timeIntervalSinceNow: lifetime)
        Thread.detachNewThread { [self] in acceptLoop(until: deadline) }
    }

    deinit { stop() }

    package var base: String { "http://\(address):\(port)" }

    package var log: Log { state.withLock { $0.log } }

    package func stop() {
        let first = state.withLock { s in
            defer { s.stopped = true }
            return !s.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(until deadline: Date) {
        defer { close(listener) }
        while !stopped && Date() < deadline {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            state.withLock { $0.log.connections += 1 }
            Thread.detachNewThread { [self] in serve(fd) }
        }
        stop()
    }

    /// Answers requests on one connection until the client or an answer closes it.
    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer: [UInt8] = []
        while !stopped {
            guard let request = readRequest(fd, &buffer) else { return }
            state.withLock {
                $0.log.requests.append(request)
                $0.log.inFlight += 1
                $0.log.maxInFlight = max($0.log.maxInFlight, $0.log.inFlight)
            }
            let keepOpen = respond(fd, request, handler(request))
            state.withLock { $0.log.inFlight -= 1 }
            guard keepOpen else { return }
        }
    }

    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> Request? {
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = find(end, in: buffer) {
                let head = String(decoding: buffer[..<range], as: UTF8.self)
                buffer.removeSubrange(..<(range + 4))
                var lines = head.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count == 3 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                var request = Request(path: String(requestLine[1]), headers: headers)
                request.method = String(requestLine[0])
                let length = Int(headers["content-length"] ?? "") ?? 0
                while buffer.count < length {
                    guard wait(fd, for: POLLIN, seconds: 5) else { return nil }
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    guard n > 0 else { return nil }
                    buffer += chunk[..<n]
                }
                request.body = Array(buffer[..<length])
                buffer.removeSubrange(..<length)
                return request
            }
            guard wait(fd, for: POLLIN, seconds: 5) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    /// Sends `response`; false when the connection must close.
    private func respond(_ fd: Int32, _ request: Request, _ response: Response) -> Bool {
        switch response {
        case .answer(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(status == 304 ? 0 : body.count)\r\n\r\n"
            return send(fd, Array(head.utf8) + (status == 304 ? [] : body))
        case .stall(let seconds):
            _ = send(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100\r\n\r\n".utf8))
            let until = Date(timeIntervalSinceNow: seconds)
            while !stopped && Date() < until { usleep(20_000) }
            return false
        case .stream(let total, let announced):
            var small: Int32 = 65536
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            var head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n"
            if announced, let total { head += "Content-Length: \(total)\r\n" }
            guard send(fd, Array((head + "\r\n").utf8)) else { return false }
            // A PNG's first bytes, then zeros: an image as far as the first bytes tell.
            var piece = [UInt8](repeating: 0, count: 65536)
            piece.replaceSubrange(0..<16, with: TestImages.png(width: 1, height: 1).prefix(16))
            var sent = 0
            let limit = total ?? 1 << 30
            var complete = true
            while sent < limit && !stopped {
                let n = min(piece.count, limit - sent)
                guard send(fd, Array(piece[..<n])) else {
                    complete = false
                    break
                }
                sent += n
                if sent == n { piece.replaceSubrange(0..<16, with: repeatElement(0, count: 16)) }
            }
            let cutShort = !complete || sent < limit
            state.withLock {
                $0.log.streamed[request.path] = sent
                if cutShort { $0.log.cutShort.insert(request.path) }
            }
            return false
        case .drop:
            return false
        case .cut(let announced, let body):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(announced)\r\n\r\n"
            _ = send(fd, Array(head.utf8) + body)
            return false
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(fd, for: POLLOUT, seconds: 5) else { return false }
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private func wait(_ fd: Int32, for event: Int32, seconds: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(event), revents: 0)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopped && Date() < deadline {
            let ready = poll(&pfd, 1, 50)
            if ready > 0 { return pfd.revents & Int16(POLLERR | POLLNVAL) == 0 || event == POLLIN }
        }
        return false
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<i + needle.count].elementsEqual(needle) {
            return i
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}

package struct TestServerError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Valid images made in code, each different, for tests that need many.
package enum TestImages {
    /// An RGB PNG of `width`×`height` pixels of one colour (`seed` picks it), with real CRCs
    /// and a zlib stream of stored blocks, so any decoder takes it.
    package static func png(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        var raw: [UInt8] = []
        let colour = [UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), 0x80]
        for _ in 0..<height {
            raw.append(0)  // filter: none
            for _ in 0..<width { raw += colour }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            let last: UInt8 = offset + n == raw.count ? 1 : 0
            zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<offset + n]
            offset += n
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        out += chunk("IDAT", zlib)
        out += chunk("IEND", [])
        return out
    }

    /// Image `n` of a large set: sizes from 1×1 to 64×64 and a colour from `n`, so no two alike.
    package static func numbered(_ n: Int) -> [UInt8] {
        png(width: 1 + n % 64, height: 1 + (n / 64) % 64, seed: n)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}

extension TestServer {
    /// A picture server on the loopback `address`: `/N.png` is `TestImages.numbered(N)` (any
    /// other path, picture 0), and `/away/NAME` redirects to `target` + NAME.
    package static func pictures(address: String = "127.0.0.1", redirectingTo target: String? = nil) throws
        -> TestServer
    {
        try TestServer(address: address) { request in
            if let target, request.path.hasPrefix("/away/") {
                return .redirect(target + request.path.dropFirst("/away/".count))
            }
            let n = Int(request.path.dropFirst().prefix { $0.isNumber }) ?? 0
            return .ok(TestImages.numbered(n), type: "image/png")
        }
    }
}
