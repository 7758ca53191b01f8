import CCurl

/// libcurl is set up once, before the first transfer of any thread.
let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// One HTTP connection, kept alive between requests (a libcurl easy handle, reused so that
/// its connection is too: a page of a query costs no new TCP or TLS handshake). Used by one
/// thread at a time.
final class HTTPConnection {
    /// An answer: its status and whole body (a page is bounded, see `CollectionGroupRead`).
    struct Answer {
        var status: Int
        var body: [UInt8]
        /// `Retry-After`, in seconds, when the server said one.
        var retryAfter: Int?
    }

    /// Why no answer came.
    enum Failure: Error {
        /// The host could not be reached at all.
        case unreachable(String)
        /// The connection broke, or stalled, while the request or its answer was on the way.
        case broken(String)
    }

    private let easy: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var received: [UInt8] = []
    private var retryAfter: Int?

    /// `certificateAuthorities`: a PEM file trusted instead of the system's, for TLS.
    init?(timeouts: HTTPTimeouts, certificateAuthorities: String? = nil) {
        guard curlReady, let easy = curl_easy_init() else { return nil }
        self.easy = easy
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect))
        // No total timeout (a large page may take long); an answer that sends nothing for
        // `stall` is broken.
        set(CURLOPT_LOW_SPEED_LIMIT, 1)
        set(CURLOPT_LOW_SPEED_TIME, max(1, Self.milliseconds(timeouts.stall) / 1000))
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_USERAGENT, "roost")
        set(CURLOPT_TCP_KEEPALIVE, 1)
        if let certificateAuthorities { set(CURLOPT_CAINFO, certificateAuthorities) }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = roost_curl_easy_setopt_write(easy) { data, size, count, user in
            let me = Unmanaged<HTTPConnection>.fromOpaque(user!).takeUnretainedValue()
            me.received.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// POSTs `body` to `url` with `headers` (`Name: value` lines) and waits for the answer.
    func post(_ url: String, headers: [String], body: [UInt8]) -> Result<Answer, Failure> {
        received.removeAll(keepingCapacity: true)
        errorBuffer[0] = 0
        set(CURLOPT_URL, url)
        set(CURLOPT_POST, 1)
        var list: UnsafeMutablePointer<curl_slist>?
        // libcurl would otherwise wait for a `100 Continue` before sending a larger body.
        for line in headers + ["Expect:"] { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        _ = roost_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
        let code = body.withUnsafeBytes { bytes -> CURLcode in
            _ = roost_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            _ = roost_curl_easy_setopt_pointer(
                easy, CURLOPT_POSTFIELDS,
                UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)))
            return curl_easy_perform(easy)
        }
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, nil)
        guard code == CURLE_OK else {
            let text = errorText(code)
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
                CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_SSL_CONNECT_ERROR,
                CURLE_PEER_FAILED_VERIFICATION:
                return .failure(.unreachable(text))
            default:
                return .failure(.broken(text))
            }
        }
        var status = 0
        _ = roost_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(Answer(status: status, body: received, retryAfter: header("Retry-After").flatMap { Int($0) }))
    }

    private func header(_ name: String) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let found,
            let value = found.pointee.value
        else { return nil }
        return String(cString: value).trimmingPrefix(" ").description
    }

    private func errorText(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
    }

    private func set(_ option: CURLoption, _ value: Int) { _ = roost_curl_easy_setopt_long(easy, option, value) }
    private func set(_ option: CURLoption, _ value: String) { _ = roost_curl_easy_setopt_string(easy, option, value) }

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}
