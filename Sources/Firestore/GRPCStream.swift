import CCurl
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One bidirectional streaming gRPC call (Firestore's Listen) over HTTP/2 through libcurl:
/// opaque messages both ways, framed here (`GRPCFrameReader`). h2c with prior knowledge to
/// the emulator (`http://`), HTTP/2 over TLS to Google's endpoint.
///
/// The call runs on a thread of its own, on libcurl's multi interface: the request body is a
/// stream that stays open (the read callback pauses it when nothing is queued, and `send`
/// wakes the thread to resume it, since libcurl wants `curl_easy_pause` on the transfer's
/// thread); half-closing it would end a Listen. Messages arrive through `onMessage`, in
/// order, on that thread; then `onEnd`, exactly once, unless `cancel()` came first. No
/// overall timeout (a listen lives for hours): a dead peer is noticed by TCP keepalive, a
/// silent one by `idleLimit`.
package final class GRPCStream: Sendable {
    private let endpoint: FirestoreEndpoint
    private let method: String
    private let timeouts: HTTPTimeouts
    private let idleLimit: Duration
    private let onMessage: @Sendable ([UInt8]) -> Void
    private let onEnd: @Sendable (GRPCEnd) -> Void
    private let shared = Mutex(Shared())
    private let finished = ChangeSignal()

    /// What `send` and `cancel` share with the call's thread.
    private struct Shared {
        var started = false
        /// Framed messages not yet handed to libcurl, in order.
        var outgoing: [UInt8] = []
        /// The read callback found `outgoing` empty and paused the upload: a send resumes it.
        var uploadPaused = false
        var cancelled = false
        /// The thread has ended, its last callback returned.
        var done = false
        /// The multi handle while it exists, for `curl_multi_wakeup` (cleared, under the lock,
        /// before it is cleaned up).
        var multi: MultiHandle?
        var thread: pthread_t?
    }

    /// Unchecked: other threads only ever call `curl_multi_wakeup` on it, which libcurl allows.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    /// `method` is `package.Service/Method` (`google.firestore.v1.Firestore/Listen`).
    /// `idleLimit`: how long the server may send nothing at all before the call counts as
    /// dead (a listen with no changes is quiet; the caller reopens with its resume token).
    package init(
        endpoint: FirestoreEndpoint, method: String, timeouts: HTTPTimeouts = .standard,
        idleLimit: Duration = .seconds(600), onMessage: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (GRPCEnd) -> Void
    ) {
        self.endpoint = endpoint
        self.method = method
        self.timeouts = timeouts
        self.idleLimit = idleLimit
        self.onMessage = onMessage
        self.onEnd = onEnd
    }

    /// Opens the call on a thread of its own and returns at once. A second call does nothing.
    package func start() {
        let first = shared.withLock { state in
            guard !state.started, !state.cancelled else { return false }
            state.started = true
            return true
        }
        guard first else { return }
        // The thread holds the stream until it ends.
        let created = startDetachedThread { [self] in run() }
        if created != 0 {
            finish(
                .failed("\(endpoint.host): cannot start a thread for the gRPC call \(method): \(errnoText(created))"))
        }
    }

    /// Queues `message` (framed here) to be sent, after those sent before it. From any thread,
    /// before or after `start`; nothing happens once the call has ended.
    package func send(_ message: [UInt8]) {
        let frame = GRPCFrameReader.frame(message)
        shared.withLock { state in
            guard !state.cancelled, !state.done else { return }
            state.outgoing.append(contentsOf: frame)
            if state.uploadPaused, let multi = state.multi { _ = curl_multi_wakeup(multi.pointer) }
        }
    }

    /// Ends the call. Once it returns, no callback runs (from inside one, none runs after it).
    package func cancel() {
        let mustWait = shared.withLock { state in
            state.cancelled = true
            if let multi = state.multi { _ = curl_multi_wakeup(multi.pointer) }
            let onItsThread = state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            return state.started && !state.done && !onItsThread
        }
        if mustWait { _ = finished.wait { shared.withLock { $0.done } } }
    }

    // MARK: - The call's thread

    private func run() {
        shared.withLock { $0.thread = pthread_self() }
        finish(perform())
    }

    /// `onEnd(end)` unless cancelled (an end nil is a cancel), then done.
    private func finish(_ end: GRPCEnd?) {
        if let end, !shared.withLock({ $0.cancelled }) { onEnd(end) }
        shared.withLock { state in
            state.done = true
            state.outgoing = []
        }
        finished.notify()
    }

    /// Whether `onMessage` may still run.
    fileprivate var isCancelled: Bool { shared.withLock { $0.cancelled } }

    fileprivate func deliver(_ message: [UInt8]) { onMessage(message) }

    /// Up to `capacity` bytes of what is queued into `buffer`, or nil when nothing is (the
    /// upload is then paused until a send).
    fileprivate func takeOutgoing(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        shared.withLock { state in
            if state.cancelled { return 0 }
            guard !state.outgoing.isEmpty else {
                state.uploadPaused = true
                return nil
            }
            let count = min(capacity, state.outgoing.count)
            state.outgoing.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
            state.outgoing.removeFirst(count)
            return count
        }
    }

    /// The call from start to end; nil when cancelled.
    private func perform() -> GRPCEnd? {
        let host = endpoint.host
        let token: String
        do {
            token = try endpoint.bearer()
        } catch {
            return .failed("\(host): no token for the gRPC call \(method): \(error.description)")
        }
        guard curlReady, let easy = curl_easy_init() else {
            return .failed("\(host): libcurl could not start the gRPC call \(method)")
        }
        defer { curl_easy_cleanup(easy) }
        guard let multi = curl_multi_init() else {
            return .failed("\(host): libcurl could not start the gRPC call \(method)")
        }
        defer { curl_multi_cleanup(multi) }
        let transfer = Transfer(stream: self)
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines(token: token) { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        configure(easy, transfer: transfer, headers: list)

        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            return .failed("\(host): libcurl could not start the gRPC call \(method)")
        }
        defer {
            // No wakeup may reach the multi handle from here on.
            shared.withLock { $0.multi = nil }
            curl_multi_remove_handle(multi, easy)
        }
        shared.withLock { $0.multi = MultiHandle(pointer: multi) }
        let clock = ContinuousClock()
        while true {
            let (cancelled, resume) = shared.withLock { state in
                let resume = state.uploadPaused && !state.outgoing.isEmpty
                if resume { state.uploadPaused = false }
                return (state.cancelled, resume)
            }
            if cancelled { return nil }
            // On this thread, as libcurl wants; it may call the callbacks right away.
            if resume { _ = curl_easy_pause(easy, CURLPAUSE_CONT) }
            var running: Int32 = 0
            // Again while it gives bytes: libcurl 7.88 may keep received HTTP/2 data for a later
            // call, with nothing left on the socket for the poll to wake on.
            var rounds = 0
            repeat {
                let before = transfer.bodyBytes
                _ = curl_multi_perform(multi, &running)
                rounds += 1
                if transfer.bodyBytes == before { break }
            } while rounds < 16
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE {
                    return isCancelled ? nil : transfer.end(message.pointee.data.result, host: host, method: method)
                }
            }
            if isCancelled { return nil }
            // grpc-status comes only in the last header block (the trailers, or the headers of a
            // trailers-only answer), which libcurl hands over whole: the call is over. libcurl
            // would not end the transfer itself while the upload is open (paused).
            if transfer.grpcStatus != nil { return transfer.end(CURLE_OK, host: host, method: method) }
            if clock.now - transfer.lastActivity > idleLimit {
                return .failed(
                    "\(host): nothing received on the gRPC call \(method) for \(idleLimit.components.seconds) s")
            }
            // A send or cancel wakes it; the timeout is short because data libcurl holds back
            // (above) does not wake it either.
            _ = curl_multi_poll(multi, nil, 0, Self.pollMilliseconds, nil)
        }
    }

    private func headerLines(token: String) -> [String] {
        var lines = [
            "Content-Type: application/grpc", "TE: trailers", "Authorization: Bearer " + token,
            "google-cloud-resource-prefix: " + endpoint.address.resourceName,
            // libcurl's defaults, which gRPC has no use for.
            "Accept:", "Expect:",
        ]
        // Production routes a named database's calls by this (Google's clients percent-encode it).
        if !endpoint.isEmulator {
            lines.append("x-goog-request-params: database=" + Self.percentEncoded(endpoint.address.resourceName))
        }
        return lines
    }

    private func configure(
        _ easy: UnsafeMutableRawPointer, transfer: Transfer, headers: UnsafeMutablePointer<curl_slist>?
    ) {
        func set(_ option: CURLoption, _ value: Int) { _ = roost_curl_easy_setopt_long(easy, option, value) }
        func set(_ option: CURLoption, _ value: String) { _ = roost_curl_easy_setopt_string(easy, option, value) }
        let url = endpoint.base + "/" + method
        set(CURLOPT_URL, url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        let plain = url.hasPrefix("http://")
        // h2c needs prior knowledge (no upgrade from HTTP/1.1 for gRPC); TLS negotiates h2 by ALPN.
        set(
            CURLOPT_HTTP_VERSION,
            plain ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2TLS)
        // A proxy cannot carry h2c; the emulator is near.
        if plain { set(CURLOPT_NOPROXY, "*") }
        if let authorities = endpoint.certificateAuthorities { set(CURLOPT_CAINFO, authorities) }
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect))
        // A dead peer on a quiet call: probes after 30 s idle, every 10 s.
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_TCP_KEEPIDLE, 30)
        set(CURLOPT_TCP_KEEPINTVL, 10)
        set(CURLOPT_USERAGENT, "roost")
        set(CURLOPT_POST, 1)
        _ = roost_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        let user = Unmanaged.passUnretained(transfer).toOpaque()
        // No size set: the body is streamed, as long as the call lasts.
        _ = roost_curl_easy_setopt_read(easy) { buffer, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            guard let taken = transfer.stream.takeOutgoing(into: buffer!, capacity: size * count) else {
                return Int(CURL_READFUNC_PAUSE)
            }
            return taken
        }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_READDATA, user)
        _ = roost_curl_easy_setopt_write(easy) { data, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            return transfer.received(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, user)
        _ = roost_curl_easy_setopt_header(easy) { data, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            return transfer.header(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, user)
    }

    /// `text` percent-encoded as JavaScript's encodeURIComponent does (what Google's Node
    /// client sends in `x-goog-request-params`): `/` becomes `%2F`.
    package static func percentEncoded(_ text: String) -> String {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How long the call's thread waits for the socket at most.
    static let pollMilliseconds: Int32 = 50

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// What one transfer's callbacks keep, on the call's thread only: the response's status and
/// gRPC status as they come, the frames, and why a callback stopped the transfer.
private final class Transfer {
    let stream: GRPCStream
    let errorBuffer: UnsafeMutablePointer<CChar>
    var frames = GRPCFrameReader()
    /// From the status line; 0 until it comes.
    var httpStatus = 0
    var contentType = ""
    var grpcStatus: Int32?
    var grpcMessage = ""
    /// Why a callback stopped the transfer.
    var failure: String?
    /// When the last byte of any kind came (or the call began).
    var lastActivity = ContinuousClock.now
    /// Bytes of the body received so far.
    var bodyBytes = 0

    init(stream: GRPCStream) {
        self.stream = stream
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit { errorBuffer.deallocate() }

    /// A header or trailer line (`name: value\r\n`), the status line, or the blank line after
    /// the headers. Returns its length to go on, anything else to stop.
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        var text = Substring(String(decoding: line, as: UTF8.self))
        while text.last == "\n" || text.last == "\r" || text.last == "\r\n" { text.removeLast() }
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ")
            httpStatus = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            guard parts[0] == "HTTP/2" else {
                failure = "answered over \(parts[0]), not HTTP/2: gRPC needs HTTP/2"
                return 0
            }
        } else if text.isEmpty {
            // The headers are whole. A trailers-only answer ends the call (see `perform`); other
            // than that, only a 200 of gRPC goes on: the end of another body would not end the
            // transfer while the upload is open.
            if grpcStatus != nil { return line.count }
            if httpStatus != 200 {
                failure = "answered HTTP \(httpStatus)" + (contentType.isEmpty ? "" : " (\(contentType))")
                return 0
            }
            if !contentType.hasPrefix("application/grpc") {
                failure = "answered HTTP 200 with content-type \"\(contentType)\", not application/grpc"
                return 0
            }
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].lowercased()
            let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            switch name {
            case "content-type": contentType = String(value)
            case "grpc-status": grpcStatus = Int32(value) ?? 2  // 2: UNKNOWN, for a status that is no number
            case "grpc-message": grpcMessage = GRPCEnd.decodeMessage(value)
            default: break
            }
        }
        return line.count
    }

    /// Body bytes: gRPC frames (the headers said a 200 of gRPC).
    func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        bodyBytes += bytes.count
        do {
            for message in try frames.append(bytes) {
                if stream.isCancelled { return 0 }
                stream.deliver(message)
            }
        } catch {
            failure = error.description
            return 0
        }
        return bytes.count
    }

    /// How the call ended, from libcurl's result and what came.
    func end(_ result: CURLcode, host: String, method: String) -> GRPCEnd {
        if let failure { return .failed("\(host): the gRPC call \(method) failed: \(failure)") }
        // The server's own word, even when the connection broke after it.
        if let grpcStatus { return .status(code: grpcStatus, message: grpcMessage) }
        if result != CURLE_OK {
            let text = String(cString: errorBuffer)
            let detail = text.isEmpty ? String(cString: curl_easy_strerror(result)) : text
            return .failed("\(host): the gRPC call \(method) failed: \(detail)")
        }
        let cut = frames.isAtFrameBoundary ? "" : ", in the middle of a message"
        return .failed("\(host) ended the gRPC call \(method) without a grpc-status\(cut)")
    }
}
