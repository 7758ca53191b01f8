// All of the preview server's C interop: the listening socket (Glibc) and libmicrohttpd
// (daemon, callbacks through an Unmanaged context pointer, responses, headers).
import CMicroHTTPD
import Glibc
import Support
import Synchronization

struct HTTPRequest {
    var method: String
    /// The path from the request line, still percent-encoded (libmicrohttpd's unescaping is turned off).
    var path: String
}

/// A streamed body (server-sent events): `next(max)` blocks until it has bytes, nil ends the stream;
/// `finish` is called once when the connection is done with it.
final class StreamBody: Sendable {
    let next: @Sendable (Int) -> [UInt8]?
    let finish: @Sendable () -> Void

    init(next: @escaping @Sendable (Int) -> [UInt8]?, finish: @escaping @Sendable () -> Void) {
        self.next = next
        self.finish = finish
    }
}

struct HTTPResponse: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case stream(StreamBody)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body
}

/// Called on libmicrohttpd's connection threads; `header` looks up a request header by name.
typealias HTTPHandler = @Sendable (HTTPRequest, (String) -> String?) -> HTTPResponse

/// A bound, listening TCP socket.
struct ListeningSocket {
    var fd: Int32
    var port: UInt16
    var isIPv6: Bool

    static func bind(host: String, port: UInt16) throws(PreviewError) -> ListeningSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotListen(host: host, port: port, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        // Closed on every way out but the last, which hands it to the ListeningSocket.
        guard
            let socketFD = FileDescriptor(
                socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0))
        else {
            throw .cannotListen(host: host, port: port, reason: errnoText())
        }
        let fd = socketFD.raw
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.bind(fd, info.ai_addr, info.ai_addrlen) != 0 {
            let code = errno
            if code == EADDRINUSE { throw .portInUse(host: host, port: port) }
            throw .cannotListen(host: host, port: port, reason: errnoText(code))
        }
        if listen(fd, 128) != 0 {
            let code = errno
            if code == EADDRINUSE { throw .portInUse(host: host, port: port) }
            throw .cannotListen(host: host, port: port, reason: errnoText(code))
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var boundPort = port
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        if ok {
            if Int32(storage.ss_family) == AF_INET {
                boundPort = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                }
            } else if Int32(storage.ss_family) == AF_INET6 {
                boundPort = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                }
            }
        }
        return ListeningSocket(fd: socketFD.release(), port: boundPort, isIPv6: info.ai_family == AF_INET6)
    }
}

/// libmicrohttpd, one thread per connection (server-sent event streams block their thread).
final class HTTPDaemon: Sendable {
    private final class Context: Sendable {
        let handler: HTTPHandler
        init(handler: @escaping HTTPHandler) { self.handler = handler }
    }

    /// The running daemon and the context its callbacks get (retained while it runs).
    private struct Running {
        let daemon: OpaquePointer
        let context: Unmanaged<Context>
    }

    /// Nil once stopped.
    private let running: Mutex<Running?>

    init(socket: ListeningSocket, connectionTimeout: UInt32 = 120, handler: @escaping HTTPHandler) throws(PreviewError)
    {
        let context = Unmanaged.passRetained(Context(handler: handler))
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_ERROR_LOG.rawValue | MHD_USE_POLL.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let daemon = roost_mhd_start(
            UInt32(flags), socket.fd,
            { cls, connection, url, method, _, _, uploadSize, requestState in
                HTTPDaemon.handle(cls, connection, url, method, uploadSize, requestState)
            },
            context.toOpaque(),
            { _, _, string in
                // Keep the path exactly as sent: the server decodes it itself (and refuses %00, %2f tricks).
                string.map { strlen($0) } ?? 0
            },
            connectionTimeout)
        guard let daemon else {
            context.release()
            close(socket.fd)
            throw .cannotListen(host: "", port: socket.port, reason: "libmicrohttpd could not start")
        }
        running = Mutex(Running(daemon: daemon, context: context))
    }

    /// Stops accepting, closes every connection and waits for their threads.
    /// (Blocked event streams must have been released first.)
    func stop() {
        guard let stopping = running.withLock({ $0.take() }) else { return }
        MHD_stop_daemon(stopping.daemon)
        stopping.context.release()
    }

    deinit { stop() }

    private static func handle(
        _ cls: UnsafeMutableRawPointer?,
        _ connection: OpaquePointer?,
        _ url: UnsafePointer<CChar>?,
        _ method: UnsafePointer<CChar>?,
        _ uploadSize: UnsafeMutablePointer<Int>?,
        _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let cls, let connection, let url, let method else { return .NO }
        // First call: only the headers are in. Answer on a later call, after any body was read (and dropped).
        if let requestState, requestState.pointee == nil {
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if let uploadSize, uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let context = Unmanaged<Context>.fromOpaque(cls).takeUnretainedValue()
        let request = HTTPRequest(method: String(cString: method), path: String(cString: url))
        let response = context.handler(request) { name in
            MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
        }
        return queue(response, on: connection)
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
                var empty: UInt8 = 0
                if buffer.isEmpty {
                    return MHD_create_response_from_buffer(0, &empty, .RESPMEM_MUST_COPY)
                }
                return MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress!), .RESPMEM_MUST_COPY)
            }
        case .stream(let body):
            let retained = Unmanaged.passRetained(body)
            created = MHD_create_response_from_callback(
                roost_mhd_size_unknown, 4096,
                { cls, _, buffer, max in
                    guard let cls, let buffer else { return roost_mhd_end_with_error }
                    let body = Unmanaged<StreamBody>.fromOpaque(cls).takeUnretainedValue()
                    guard let bytes = body.next(max), !bytes.isEmpty else { return roost_mhd_end_of_stream }
                    bytes.withUnsafeBytes { source in
                        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: source.count)
                    }
                    return bytes.count
                },
                retained.toOpaque(),
                { cls in
                    guard let cls else { return }
                    let body = Unmanaged<StreamBody>.fromOpaque(cls).takeRetainedValue()
                    body.finish()
                })
            if created == nil {
                retained.release()
                body.finish()
            }
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(created, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }
}
