import CCurl
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libcurl, set up once per process (the first use; Swift runs a global's initializer once,
/// whatever the threads, which `curl_global_init` needs).
private let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// How `MediaFetcher` downloads: the rules of a well-behaved client (SPEC 9).
package struct FetchLimits: Sendable, Hashable {
    /// `User-Agent`, naming Roost and its version (`roost/0.9 (+https://…)`).
    package var userAgent: String
    /// Downloads at once, over all hosts.
    package var maxParallel = 16
    /// Downloads at once from one host (`host:port`).
    package var maxPerHost = 6
    /// Seconds to connect (DNS, TCP, TLS).
    package var connectTimeout = 10.0
    /// Seconds for a whole download, redirects included.
    package var totalTimeout = 30.0
    /// Bytes of a body at most: a larger one is stopped as soon as it is announced or passes it.
    package var maxBytes = 10 * 1_048_576
    /// Redirects followed at most, only to http and https.
    package var maxRedirects = 5
    /// The addresses connections may go to (SPEC 9: no loopback, private, link-local, …
    /// address unless allowed), checked on every connection, redirects included.
    package var addresses = AddressRule()

    package init(userAgent: String) { self.userAgent = userAgent }
}

/// Downloads on libcurl's multi interface, all on the calling thread: no more than
/// `maxParallel` at once and `maxPerHost` per host (Roost queues them, so a download's
/// timeouts start when it starts), each with connect and total timeouts; a host that times
/// out or refuses a connection is not asked again in the run (the downloads queued for it
/// fail at once), so a dead host costs one timeout, not one per image.
///
/// Each body is checked as it streams: a status that is not 2xx, a body past the cap, or
/// first bytes that are no image stop the download there (the write callback returns short).
final class MediaFetcher {
    struct Job: Sendable {
        /// The URL as the store has it (the key of the results).
        var url: String
        /// The URL requested (`parse`).
        var request: String
        /// `host:port`, for the per-host limit.
        var host: String
        /// The cached image being revalidated (a conditional request).
        var revalidating: MediaCacheEntry?
    }

    enum Outcome {
        /// A 2xx response: the bytes and what they are, with the response's validators.
        case downloaded(bytes: [UInt8], info: ImageInfo, etag: String?, lastModified: String?)
        /// A 304 to a conditional request: the cached copy is current.
        case notModified(etag: String?, lastModified: String?)
        case failed(MediaFailure)
    }

    let limits: FetchLimits

    init(limits: FetchLimits) { self.limits = limits }

    /// Checks `url` with curl's own parser: the scheme must be http or https. Gives the URL
    /// to request (white space around it dropped; spaces and other bytes a URL cannot carry
    /// percent-encoded, as a browser would), the host with its port, default or not (the
    /// key of the per-host limit), and the host alone (curl writes an IPv4 address in any
    /// spelling, `0x7f.1` or `2130706433`, as a dotted quad).
    static func parse(_ url: String) -> Result<(request: String, host: String, name: String), MediaFailure> {
        _ = curlReady
        let trimmed = url.trimmingASCIIWhitespace
        guard let handle = curl_url() else { return .failure(.invalidURL) }
        defer { curl_url_cleanup(handle) }
        let flags = UInt32(CURLU_NON_SUPPORT_SCHEME) | UInt32(CURLU_URLENCODE)
        guard curl_url_set(handle, CURLUPART_URL, trimmed, flags) == CURLUE_OK else {
            if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("/") {
                let scheme = trimmed[..<colon].lowercased()
                if scheme != "http" && scheme != "https" { return .failure(.notHTTP(scheme: scheme)) }
            }
            return .failure(.invalidURL)
        }
        func part(_ which: CURLUPart, _ flags: Int32 = 0) -> String? {
            var out: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &out, UInt32(flags)) == CURLUE_OK, let out else { return nil }
            defer { curl_free(out) }
            return String(cString: out)
        }
        let scheme = part(CURLUPART_SCHEME)?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .failure(.notHTTP(scheme: scheme)) }
        guard let host = part(CURLUPART_HOST)?.lowercased(), !host.isEmpty, let request = part(CURLUPART_URL)
        else { return .failure(.invalidURL) }
        let port = part(CURLUPART_PORT, CURLU_DEFAULT_PORT) ?? ""
        return .success((request, host + ":" + port, host))
    }

    /// Why `url` may not be fetched before any DNS look-up: its host is an address the
    /// rule refuses (`http://10.0.0.7/`, `http://0x7f.1/`, `http://[::ffff:127.0.0.1]/`).
    /// Nil for a host name (checked when curl connects) and for an allowed address.
    static func refusal(of url: String, rule: AddressRule) -> MediaFailure? {
        guard case .success(let parsed) = parse(url) else { return nil }
        return refusal(ofHost: parsed.name, rule: rule)
    }

    /// The same for a host `parse` gave.
    static func refusal(ofHost name: String, rule: AddressRule) -> MediaFailure? {
        guard let address = IPAddress(urlHost: name), let scope = rule.refusal(of: address) else { return nil }
        return .addressRefused(host: nil, address: address.description, scope: scope, redirectedTo: nil)
    }

    /// Runs `jobs`; `finished` is called on this thread for each, in the order they end.
    func run(_ jobs: [Job], finished: (Int, Outcome) -> Void) {
        guard !jobs.isEmpty else { return }
        guard curlReady, let multi = curl_multi_init() else {
            for i in jobs.indices { finished(i, .failed(.unsupported("libcurl could not start"))) }
            return
        }
        defer { curl_multi_cleanup(multi) }
        _ = roost_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxParallel)
        _ = roost_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maxPerHost)
        _ = roost_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(limits.maxParallel, 4))

        var queue = HostQueue(maxTotal: limits.maxParallel, maxPerHost: limits.maxPerHost)
        for (i, job) in jobs.enumerated() { queue.add(i, host: job.host) }
        var running: [UnsafeMutableRawPointer: Transfer] = [:]
        var down: [String: MediaFailure] = [:]

        func fill() {
            for i in queue.takeStartable() {
                let job = jobs[i]
                let transfer: Transfer
                do throws(MediaFailure) {
                    transfer = try Transfer(index: i, job: job, limits: limits)
                    guard curl_multi_add_handle(multi, transfer.easy) == CURLM_OK else {
                        throw .unsupported("libcurl could not start a transfer")
                    }
                } catch {
                    queue.ended(host: job.host)
                    finished(i, .failed(error))
                    continue
                }
                running[transfer.easy] = transfer
            }
        }

        fill()
        while !running.isEmpty {
            var stillRunning: Int32 = 0
            _ = curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = running.removeValue(forKey: easy)
                else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, easy)
                let host = transfer.job.host
                queue.ended(host: host)
                let outcome = transfer.outcome(code, limits: limits)
                finished(transfer.index, outcome)
                if case .failed(let failure) = outcome, Self.meansHostDown(failure), down[host] == nil {
                    down[host] = failure
                    let reason = failure.description
                    for i in queue.drain(host: host) {
                        finished(i, .failed(.hostUnavailable(host: Self.displayHost(host), because: reason)))
                    }
                }
            }
            fill()
            if running.isEmpty { break }
            _ = curl_multi_poll(multi, nil, 0, 250, nil)
        }
    }

    /// A timeout or a connection that could not be made: the host is taken as down for the run.
    static func meansHostDown(_ failure: MediaFailure) -> Bool {
        switch failure {
        case .timedOut: return true
        case .connection(let text): return text.hasPrefix(Transfer.cannotConnectPrefix)
        default: return false
        }
    }

    /// `example.com:443` → `example.com` (the default ports are left out of messages).
    static func displayHost(_ host: String) -> String {
        if host.hasSuffix(":443") || host.hasSuffix(":80") { return String(host[..<host.lastIndex(of: ":")!]) }
        return host
    }
}

/// The queued jobs by host, in the order their hosts first appear, and how many of each
/// host's are running: `takeStartable` starts them round robin, skipping hosts at their
/// limit, up to the total.
private struct HostQueue {
    let maxTotal: Int
    let maxPerHost: Int
    private var hosts: [String] = []
    private var jobs: [String: [Int]] = [:]
    private var heads: [String: Int] = [:]
    private var running: [String: Int] = [:]
    private var total = 0
    /// Hosts before `first` have nothing queued.
    private var first = 0

    init(maxTotal: Int, maxPerHost: Int) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerHost = max(1, maxPerHost)
    }

    mutating func add(_ job: Int, host: String) {
        if jobs[host] == nil {
            hosts.append(host)
            jobs[host] = []
            heads[host] = 0
        }
        jobs[host]!.append(job)
    }

    private func isEmpty(_ host: String) -> Bool { heads[host]! >= jobs[host]!.count }

    /// The jobs to start now (counted as running until `ended`).
    mutating func takeStartable() -> [Int] {
        while first < hosts.count && isEmpty(hosts[first]) { first += 1 }
        var started: [Int] = []
        var progress = true
        while progress && total < maxTotal {
            progress = false
            for h in first..<hosts.count {
                if total >= maxTotal { break }
                let host = hosts[h]
                guard !isEmpty(host), running[host, default: 0] < maxPerHost else { continue }
                started.append(jobs[host]![heads[host]!])
                heads[host]! += 1
                running[host, default: 0] += 1
                total += 1
                progress = true
            }
        }
        return started
    }

    /// One of `host`'s jobs ended.
    mutating func ended(host: String) {
        running[host, default: 1] -= 1
        total -= 1
    }

    /// Removes and returns what is queued for `host`.
    mutating func drain(host: String) -> [Int] {
        guard let queued = jobs[host] else { return [] }
        let rest = Array(queued[heads[host]!...])
        heads[host] = queued.count
        return rest
    }
}

/// One download: the curl easy handle, its settings, and the body as it arrives.
private final class Transfer {
    static let cannotConnectPrefix = "cannot connect"

    let index: Int
    let job: MediaFetcher.Job
    let easy: UnsafeMutableRawPointer
    let maxBytes: Int
    var body: [UInt8] = []
    /// Why the write callback stopped the download.
    var stopped: MediaFailure?
    /// The last address the open-socket callback refused, and why.
    private var refused: (address: IPAddress, scope: AddressScope)?
    private let addresses: AddressRule
    private var statusChecked = false
    private var typeKnown = false
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Fails when libcurl refuses one of the settings (a libcurl older than 7.85 has no
    /// `CURLOPT_PROTOCOLS_STR`): nothing is downloaded without every rule in place.
    init(index: Int, job: MediaFetcher.Job, limits: FetchLimits) throws(MediaFailure) {
        guard let easy = curl_easy_init() else { throw .unsupported("libcurl could not start a transfer") }
        self.index = index
        self.job = job
        self.easy = easy
        maxBytes = limits.maxBytes
        addresses = limits.addresses
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))

        var refusedOptions: [UInt32] = []
        func check(_ option: CURLoption, _ code: CURLcode) {
            if code != CURLE_OK { refusedOptions.append(option.rawValue) }
        }
        func set(_ option: CURLoption, _ value: Int) { check(option, roost_curl_easy_setopt_long(easy, option, value)) }
        func set(_ option: CURLoption, _ value: String) {
            check(option, roost_curl_easy_setopt_string(easy, option, value))
        }
        set(CURLOPT_URL, job.request)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, limits.maxRedirects)
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000))
        set(CURLOPT_TIMEOUT_MS, Int(limits.totalTimeout * 1000))
        check(
            CURLOPT_MAXFILESIZE_LARGE,
            roost_curl_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)))
        set(CURLOPT_USERAGENT, limits.userAgent)
        set(CURLOPT_NOSIGNAL, 1)
        // A proxy would connect on our behalf, to addresses the rule never sees.
        set(CURLOPT_PROXY, "")
        _ = roost_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)

        var lines = ["Accept: image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1"]
        if let cached = job.revalidating {
            if let etag = cached.etag { lines.append("If-None-Match: " + etag) }
            if let lastModified = cached.lastModified { lines.append("If-Modified-Since: " + lastModified) }
        }
        for line in lines { headers = curl_slist_append(headers, line) }
        check(CURLOPT_HTTPHEADER, roost_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers))

        let write = roost_curl_easy_setopt_write(easy) { data, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        check(CURLOPT_WRITEFUNCTION, write)
        let me = Unmanaged.passUnretained(self).toOpaque()
        check(CURLOPT_WRITEDATA, roost_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        // Every connection (each redirect's too) opens its socket here, to the address curl
        // resolved: the one checked is the one connected to, whatever DNS says later.
        let open = roost_curl_easy_setopt_opensocket(easy) { user, purpose, address in
            guard let user, let address, purpose == CURLSOCKTYPE_IPCXN else { return -1 }
            return Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue().openSocket(address)
        }
        check(CURLOPT_OPENSOCKETFUNCTION, open)
        check(CURLOPT_OPENSOCKETDATA, roost_curl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, me))
        if !refusedOptions.isEmpty {
            let version = String(cString: curl_version())
            throw .unsupported(
                "\(version) refuses settings (options \(refusedOptions)); Roost needs libcurl 7.85 or later")
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headers)
        errorBuffer.deallocate()
    }

    /// The open-socket callback: a socket for `address` when the rule allows it, else none
    /// (curl tries the host's next address, or fails to connect; no byte is sent).
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let target = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        guard let ip = IPAddress(socketAddress: target, length: Int(address.pointee.addrlen)) else { return -1 }
        if let scope = addresses.refusal(of: ip) {
            refused = (ip, scope)
            return -1
        }
        let kind = address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue)
        return socket(address.pointee.family, kind, address.pointee.protocol)
    }

    /// The write callback: a short return stops the download (curl then says
    /// CURLE_WRITE_ERROR, and `stopped` says why).
    private func receive(_ chunk: UnsafeRawBufferPointer) -> Int {
        if !statusChecked {
            statusChecked = true
            let status = responseCode
            if !(200..<300).contains(status) {
                stopped = .httpStatus(status)
                return 0
            }
        }
        if body.count + chunk.count > maxBytes {
            stopped = .tooLarge(limit: maxBytes)
            return 0
        }
        body.append(contentsOf: chunk)
        if !typeKnown {
            switch body.withUnsafeBytes({ ImageSniffer.verdict($0) }) {
            case .image: typeKnown = true
            case .notAnImage:
                stopped = .notAnImage(looksLike: ImageSniffer.describe(body))
                return 0
            case .needMore: break
            }
        }
        return chunk.count
    }

    private var responseCode: Int {
        var code = 0
        _ = roost_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func header(_ name: String) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let found,
            let value = found.pointee.value
        else { return nil }
        return String(cString: value)
    }

    func outcome(_ code: CURLcode, limits: FetchLimits) -> MediaFetcher.Outcome {
        if let stopped { return .failed(stopped) }
        if code != CURLE_OK, let refused { return .failed(refusal(refused.address, refused.scope)) }
        switch code {
        case CURLE_OK:
            let status = responseCode
            if status == 304 && job.revalidating != nil {
                return .notModified(etag: header("ETag"), lastModified: header("Last-Modified"))
            }
            guard (200..<300).contains(status) else { return .failed(.httpStatus(status)) }
            guard let info = ImageSniffer.identify(body) else {
                return .failed(.notAnImage(looksLike: ImageSniffer.describe(body)))
            }
            return .downloaded(bytes: body, info: info, etag: header("ETag"), lastModified: header("Last-Modified"))
        case CURLE_FILESIZE_EXCEEDED:
            return .failed(.tooLarge(limit: limits.maxBytes))
        case CURLE_OPERATION_TIMEDOUT:
            var connected: curl_off_t = 0
            _ = roost_curl_easy_getinfo_off(easy, CURLINFO_CONNECT_TIME_T, &connected)
            return connected == 0
                ? .failed(.timedOut(seconds: limits.connectTimeout, connecting: true))
                : .failed(.timedOut(seconds: limits.totalTimeout, connecting: false))
        case CURLE_TOO_MANY_REDIRECTS:
            return .failed(.tooManyRedirects(limit: limits.maxRedirects))
        case CURLE_UNSUPPORTED_PROTOCOL:
            // The URL itself was checked to be http(s): this is where a redirect went.
            var target: UnsafeMutablePointer<CChar>?
            _ = roost_curl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &target)
            if target == nil { _ = roost_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &target) }
            return .failed(.redirectRefused(to: target.map { String(cString: $0) }))
        case CURLE_URL_MALFORMAT:
            return .failed(.invalidURL)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .failed(.connection("\(Transfer.cannotConnectPrefix) (\(detail(code)))"))
        default:
            return .failed(.connection(detail(code)))
        }
    }

    /// The refused connection in words: the host that resolved to the address (none when the
    /// URL names the address), and where a redirect pointed.
    private func refusal(_ address: IPAddress, _ scope: AddressScope) -> MediaFailure {
        var effective: UnsafeMutablePointer<CChar>?
        _ = roost_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.map { String(cString: $0) } ?? job.request
        let name = (try? MediaFetcher.parse(url).get().name) ?? ""
        let host = name.isEmpty || IPAddress(urlHost: name) != nil ? nil : name
        return .addressRefused(
            host: host, address: address.description, scope: scope, redirectedTo: url == job.request ? nil : url)
    }

    /// curl's message for the failure: the error buffer's, else the code's.
    private func detail(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
    }
}

extension String {
    /// Without spaces, tabs, line breaks and form feeds at either end (what HTML strips from a URL).
    var trimmingASCIIWhitespace: String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
