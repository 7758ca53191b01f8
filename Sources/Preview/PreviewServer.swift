import Foundation
import Support
import Synchronization

package enum PreviewError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case portInUse(host: String, port: UInt16)
    case cannotListen(host: String, port: UInt16, reason: String)
    case alreadyStarted

    package var description: String {
        switch self {
        case .portInUse(let host, let port):
            return "\(Self.address(host, port)) is already in use"
        case .cannotListen(let host, let port, let reason):
            return host.isEmpty
                ? "cannot serve on port \(port): \(reason)"
                : "cannot serve on \(Self.address(host, port)): \(reason)"
        case .alreadyStarted:
            return "the preview server is already running"
        }
    }

    package var errorDescription: String? { description }

    static func address(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// The `roost serve` HTTP server: serves a `SiteSource` on `host:port`, adds live reload to HTML
/// responses, and shows a build-error overlay while `setError` holds a message.
///
///     let server = PreviewServer(source: site, port: 8000)   // site: any SiteSource
///     try server.start()                      // PreviewError.portInUse when taken
///     let watcher = try FileWatcher(roots: [store, templates]) { changes in   // (Watch)
///         // rebuild …, then:
///         server.setError(nil)                // or server.setError("content/x.json:3:7: …")
///         server.publish(changedPaths: ["u/mina/index.html", "style.css"])  // or ["*"]
///     }
///
/// Requests: GET and HEAD only (405 otherwise). `/dir/` serves `dir/index.html`, `/dir` redirects (301)
/// to `/dir/`; a missing file gets the site's `404.html` with status 404. Paths are percent-decoded and
/// anything that could leave the site (`..`, `//`, backslashes, NUL, dot-files, bad escapes) is a 404.
/// Every response has `Cache-Control: no-cache` and an `ETag` (`If-None-Match` gives 304).
/// Only requests addressed to the preview are answered (`HostCheck`: its own names and
/// `allowedHosts`); any other `Host` gets 403, and so does an event stream asked for by a page
/// of another site (its `Origin`): no page elsewhere can rebind its name to this machine and
/// read the preview.
/// The server adds `/__roost/live.js`, `/__roost/overlay.css` and `/__roost/events` (server-sent events:
/// `change` with a JSON array of paths, `error` with a JSON string); HTML responses (never the files)
/// get `<script src="/__roost/live.js"></script>` before `</body>`, which the site's CSP allows
/// (`script-src 'self'`). Each connection has its own thread (an event stream blocks its thread);
/// note that browsers open at most 6 HTTP/1.1 connections per host, so very many open tabs queue up.
package final class PreviewServer: Sendable {
    /// One served request, for logging.
    package struct LogEntry: Sendable {
        package var method: String
        package var path: String
        package var status: Int
    }

    private struct State {
        var source: any SiteSource
        var error: String?
        var errorTitle = PreviewServer.buildErrorTitle
        var port: UInt16
        var daemon: HTTPDaemon?
    }

    package let host: String
    /// The `Host` names (and `Origin`s) answered.
    private let hosts: HostCheck
    private let state: Mutex<State>
    private let hub: EventHub
    private let log: (@Sendable (LogEntry) -> Void)?

    /// - Parameters:
    ///   - port: 0 picks a free port; read `port` after `start()`.
    ///   - keepAlive: how often an idle event stream gets a `: keep-alive` comment.
    ///   - allowedHosts: host names answered besides its own (`HostCheck`).
    ///   - log: called after each request (on a connection thread).
    package init(
        source: any SiteSource,
        host: String = "127.0.0.1",
        port: UInt16 = 8000,
        allowedHosts: [String] = [],
        keepAlive: Duration = .seconds(15),
        log: (@Sendable (LogEntry) -> Void)? = nil
    ) {
        self.host = host
        hosts = HostCheck(listeningOn: host, allowed: allowedHosts)
        self.state = Mutex(State(source: source, error: nil, port: port, daemon: nil))
        self.hub = EventHub(keepAliveInterval: max(keepAlive, .milliseconds(10)))
        self.log = log
    }

    deinit { stop() }

    /// The port (the one picked by the system after `start()` when 0 was asked for).
    package var port: UInt16 { state.withLock { $0.port } }

    /// `http://host:port/`
    package var url: URL {
        URL(string: "http://\(PreviewError.address(host, port))/")!
    }

    /// The site being served; the rebuild side may swap it at any time.
    package var source: any SiteSource {
        get { state.withLock { $0.source } }
        set { state.withLock { $0.source = newValue } }
    }

    /// The number of open `/__roost/events` streams.
    package var liveClientCount: Int { hub.count }

    /// Binds and starts serving. Throws `PreviewError.portInUse` when the port is taken.
    package func start() throws(PreviewError) {
        let requested = try state.withLock { state throws(PreviewError) -> UInt16 in
            if state.daemon != nil { throw .alreadyStarted }
            return state.port
        }
        let socket = try ListeningSocket.bind(host: host, port: requested)
        hub.open()
        let daemon = try HTTPDaemon(socket: socket) { [weak self] request, header in
            guard let self else {
                return HTTPResponse(status: 503, headers: [], body: .bytes(Array("Shutting down\n".utf8)))
            }
            let response = self.respond(to: request, header: header)
            self.log?(LogEntry(method: request.method, path: request.path, status: response.status))
            return response
        }
        state.withLock {
            $0.daemon = daemon
            $0.port = socket.port
        }
    }

    /// Ends every event stream, closes every connection and the listening socket.
    package func stop() {
        let daemon = state.withLock { state -> HTTPDaemon? in
            let daemon = state.daemon
            state.daemon = nil
            return daemon
        }
        hub.close()
        daemon?.stop()
    }

    /// Tells open pages that these site paths changed (`u/mina/index.html`, `/u/mina/`, `style.css`, or `*`
    /// for everything); a page reloads when it is named, or when a non-page file (CSS, JS, images) changed.
    package func publish(changedPaths: [String]) {
        guard !changedPaths.isEmpty else { return }
        hub.broadcast(LiveReload.event("change", data: LiveReload.jsonArray(changedPaths)))
    }

    /// The `error` event of `message` under `title`: the default title as a bare string, as
    /// it always has been; another as `{"title", "text"}`.
    static func errorEvent(_ message: String, title: String) -> [UInt8] {
        let data =
            title == buildErrorTitle
            ? LiveReload.jsonString(message)
            : "{\"title\":\(LiveReload.jsonString(title)),\"text\":\(LiveReload.jsonString(message))}"
        return LiveReload.event("error", data: data)
    }

    /// Shows (a message) or hides (nil) the build-error overlay on every page. Setting it sends an
    /// `error` event to open pages; clearing it makes them reload.
    /// `title` heads the overlay: what kind of trouble it is ("Not up to date" while a followed
    /// database cannot be reached).
    package func setError(_ message: String?, title: String = PreviewServer.buildErrorTitle) {
        let previous = state.withLock { state -> String? in
            let previous = state.error
            state.error = message
            state.errorTitle = title
            return previous
        }
        if let message {
            hub.broadcast(Self.errorEvent(message, title: title))
        } else if previous != nil {
            publish(changedPaths: ["*"])
        }
    }

    package static let buildErrorTitle = "Build error"

    /// The current error message, if any.
    package var error: String? { state.withLock { $0.error } }

    // MARK: - Responding

    static let commonHeaders = [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]

    func respond(to request: HTTPRequest, header: (String) -> String?) -> HTTPResponse {
        let host = header("Host")
        if !hosts.allows(host: host) {
            let name = host.flatMap { HostCheck.name(ofHost: $0) } ?? "NAME"
            return forbidden(
                "roost serve answers only its own host names (localhost, 127.0.0.1, [::1] and the address "
                    + "it listens on), not Host: \(host ?? "(none)"); start it with --allow-host \(name) "
                    + "to answer that name too")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(
                status: 405,
                headers: Self.commonHeaders + [("Allow", "GET, HEAD"), ("Content-Type", "text/plain; charset=utf-8")],
                body: .bytes(Array("405 Method Not Allowed\n".utf8)))
        }
        let (source, error) = state.withLock { state in
            (state.source, state.error.map { (title: state.errorTitle, message: $0) })
        }
        guard let path = RequestPath.resolve(request.path) else {
            return notFound(source: source, error: error, ifNoneMatch: header("If-None-Match"))
        }
        let ifNoneMatch = header("If-None-Match")
        switch "/" + path.relative {
        case LiveReload.scriptPath:
            return file(
                Array(LiveReload.script.utf8), type: ContentType.of("live.js"), status: 200, ifNoneMatch: ifNoneMatch)
        case LiveReload.stylesheetPath:
            return file(
                Array(LiveReload.stylesheet.utf8), type: ContentType.of("overlay.css"), status: 200,
                ifNoneMatch: ifNoneMatch)
        case LiveReload.eventsPath:
            if let origin = header("Origin"), !hosts.allows(origin: origin) {
                return forbidden(
                    "the live-reload stream refuses pages of another site (Origin: \(origin)); "
                        + "--allow-host NAME permits a host name")
            }
            return events(head: request.method == "HEAD")
        default:
            break
        }
        if let bytes = source.file(at: path.file) {
            return page(bytes, path: path.file, status: 200, error: error, ifNoneMatch: ifNoneMatch)
        }
        if !path.isFolder, source.file(at: path.relative + "/index.html") != nil {
            var location = request.path
            if let q = location.firstIndex(of: "?") { location = String(location[..<q]) }
            location += "/"
            return HTTPResponse(
                status: 301,
                headers: Self.commonHeaders + [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
                body: .bytes(Array("Moved to \(location)\n".utf8)))
        }
        return notFound(source: source, error: error, ifNoneMatch: ifNoneMatch, path: path.relative)
    }

    /// 403, and why, in a line that names the option that permits it.
    private func forbidden(_ reason: String) -> HTTPResponse {
        HTTPResponse(
            status: 403, headers: Self.commonHeaders + [("Content-Type", "text/plain; charset=utf-8")],
            body: .bytes(Array("403 Forbidden: \(reason)\n".utf8)))
    }

    /// 404: the site's `404.html`; with several stores (`/a/…`), the one of the store the
    /// path is in (`a/404.html`), whose links work from there.
    private func notFound(
        source: any SiteSource, error: (title: String, message: String)?, ifNoneMatch: String?, path: String = ""
    ) -> HTTPResponse {
        var candidates = ["404.html"]
        if let slash = path.firstIndex(of: "/") { candidates.insert(path[..<slash] + "/404.html", at: 0) }
        for candidate in candidates {
            if let page = source.file(at: candidate) {
                return self.page(page, path: candidate, status: 404, error: error, ifNoneMatch: nil)
            }
        }
        return HTTPResponse(
            status: 404,
            headers: Self.commonHeaders + [("Content-Type", "text/plain; charset=utf-8")],
            body: .bytes(Array("404 Not Found\n".utf8)))
    }

    private func page(
        _ bytes: [UInt8], path: String, status: Int, error: (title: String, message: String)?, ifNoneMatch: String?
    ) -> HTTPResponse {
        let type = ContentType.of(path)
        let body = type == ContentType.html ? LiveReload.inject(into: bytes, error: error) : bytes
        return file(body, type: type, status: status, ifNoneMatch: ifNoneMatch)
    }

    private func file(_ body: [UInt8], type: String, status: Int, ifNoneMatch: String?) -> HTTPResponse {
        let tag = Self.etag(body)
        let headers = Self.commonHeaders + [("ETag", tag)]
        if status == 200, let ifNoneMatch, Self.matches(ifNoneMatch, tag) {
            return HTTPResponse(status: 304, headers: headers, body: .bytes([]))
        }
        return HTTPResponse(status: status, headers: headers + [("Content-Type", type)], body: .bytes(body))
    }

    private func events(head: Bool) -> HTTPResponse {
        let headers = [
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("X-Accel-Buffering", "no"),
        ]
        if head { return HTTPResponse(status: 200, headers: headers, body: .bytes([])) }
        var initial = Array("retry: 1000\n: connected\n\n".utf8)
        // A page opened while an error shows gets it under its own title, as open pages did.
        if let (error, title) = state.withLock({ state in state.error.map { ($0, state.errorTitle) } }) {
            initial += Self.errorEvent(error, title: title)
        }
        let hub = self.hub
        let id = hub.connect(initial: initial)
        return HTTPResponse(
            status: 200, headers: headers,
            body: .stream(StreamBody(next: { hub.next(for: id, max: $0) }, finish: { hub.disconnect(id) })))
    }

    /// A strong validator from the bytes served: FNV-1a 64, quoted.
    static func etag(_ bytes: [UInt8]) -> String {
        "\"" + StableHash.hex(StableHash.fnv1a(bytes)) + "-\(bytes.count)\""
    }

    /// `If-None-Match`: `*` or a list of tags (weak comparison, as RFC 9110 asks for this header).
    static func matches(_ header: String, _ tag: String) -> Bool {
        for item in header.split(separator: ",") {
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }
}
