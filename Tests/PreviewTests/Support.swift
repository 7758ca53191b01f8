import Foundation
import Glibc

@testable import Preview

/// A raw TCP connection to the test server: nothing normalizes the request line.
final class RawConnection {
    let fd: Int32
    private(set) var received: [UInt8] = []

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard ok else {
            // Not closed here: `deinit` runs for a thrown initializer too (closing twice could close another test's socket).
            throw TestError("connect to port \(port) failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestError("send failed") }
            sent += n
        }
    }

    /// Reads whatever arrives within `timeout` seconds; false on end of stream or timeout.
    @discardableResult
    func readSome(timeout: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(max(timeout, 0) * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        received += buffer[0..<n]
        return true
    }

    func readToEnd(timeout: Double = 5) -> [UInt8] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline, readSome(timeout: deadline.timeIntervalSinceNow) {}
        return received
    }

    /// Reads until the text received so far contains `needle` (true), or `timeout` passes (false).
    func read(until needle: String, timeout: Double = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if text.contains(needle) { return true }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || !readSome(timeout: left) { return text.contains(needle) }
        }
    }

    var text: String { String(decoding: received, as: UTF8.self) }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    init(_ bytes: [UInt8]) throws {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw TestError("no complete response: \(String(decoding: bytes, as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TestError("bad status line \(head[0])")
        }
        self.status = status
        headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = Array(bytes[(end + 4)...])
    }
}

/// Sends one raw request (the request line exactly as given) and reads the response to the end.
func request(_ port: UInt16, _ target: String, headers: [String: String] = [:]) throws -> RawResponse {
    try request(port, "GET", target, headers: headers)
}

func request(_ port: UInt16, _ method: String, _ target: String, headers: [String: String] = [:]) throws -> RawResponse
{
    let connection = try RawConnection(port: port)
    var text = "\(method) \(target) HTTP/1.1\r\nConnection: close\r\n"
    // One Host: the one given, else the server's own.
    if headers["Host"] == nil { text += "Host: 127.0.0.1:\(port)\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if method == "POST" || method == "PUT" { text += "Content-Length: 5\r\n\r\nhello" } else { text += "\r\n" }
    try connection.send(text)
    return try RawResponse(connection.readToEnd())
}

/// Starts a server on a free port.
func startServer(_ source: any SiteSource, keepAlive: Duration = .seconds(15)) throws -> PreviewServer {
    let server = PreviewServer(source: source, host: "127.0.0.1", port: 0, keepAlive: keepAlive)
    try server.start()
    return server
}
