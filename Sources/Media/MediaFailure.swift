import Support

/// Why a remote image is not mirrored: the reason of a warning that names the document,
/// field and URL (`MediaWarning`), after which the page shows the placeholder.
package indirect enum MediaFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a URL curl can parse.
    case invalidURL
    /// Not http or https (`file:`, `data:`, `ftp:`, …): never fetched.
    case notHTTP(scheme: String)
    /// The final response's status was not 2xx (nor a 304 to a conditional request).
    case httpStatus(Int)
    /// The body passed the size cap (announced or while streaming): the download was stopped.
    case tooLarge(limit: Int)
    /// The bytes are none of PNG, JPEG, GIF, WebP, AVIF, whatever the server said.
    case notAnImage(looksLike: String?)
    /// No connection within the connect timeout (`connecting`), or no whole answer within
    /// the total timeout.
    case timedOut(seconds: Double, connecting: Bool)
    case tooManyRedirects(limit: Int)
    /// A redirect to a URL that is not http(s) (`file:///etc/passwd`).
    case redirectRefused(to: String?)
    /// The connection could not be made, or broke (curl's words).
    case connection(String)
    /// Not connected to (SPEC 9): the URL's host, or a redirect's (`redirectedTo`), is or
    /// resolves to an address of `scope` that `--media-allow` does not name. `host` is nil
    /// when the URL names the address itself.
    case addressRefused(host: String?, address: String, scope: AddressScope, redirectedTo: String?)
    /// Not tried: an earlier download from the same host timed out or could not connect in
    /// this run, so the others would too (one dead host never stalls a build for long).
    case hostUnavailable(host: String, because: String)
    /// `offline`, and the cache does not have it.
    case notCached
    /// libcurl cannot download as the rules say (too old a version, out of memory).
    case unsupported(String)
    /// The cache folder could not be written.
    case cache(String)
    /// A failure a recent run had (kept in the cache; a refresh tries again), since the
    /// given time (seconds since 1970).
    case remembered(MediaFailure, since: Int64)

    package var description: String {
        switch self {
        case .invalidURL: return "not a valid URL"
        case .notHTTP(let scheme): return "not an http(s) URL (\(scheme.isEmpty ? "no scheme" : scheme + ":"))"
        case .httpStatus(let code): return "HTTP \(code)"
        case .tooLarge(let limit): return "larger than \(MediaFailure.size(limit)): download stopped"
        case .notAnImage(let looksLike):
            let what = looksLike.map { " (it looks like \($0))" } ?? ""
            return "not a PNG, JPEG, GIF, WebP or AVIF image\(what)"
        case .timedOut(let seconds, let connecting):
            return connecting
                ? "no connection within \(MediaFailure.seconds(seconds))"
                : "not complete within \(MediaFailure.seconds(seconds))"
        case .tooManyRedirects(let limit): return "more than \(limit) redirects"
        case .redirectRefused(let target):
            return "redirected to a URL that is not http(s)" + (target.map { " (\($0))" } ?? "")
        case .connection(let text): return "connection failed: \(text)"
        case .addressRefused(let host, let address, let scope, let redirect):
            let hop = redirect.map { "redirected to \($0), where " } ?? ""
            let what = host.map { "\($0) resolves to \(address), \(scope)" } ?? "\(address) is \(scope)"
            return hop + what
        case .hostUnavailable(let host, let reason): return "not tried: \(host) failed earlier in this run (\(reason))"
        case .notCached: return "not in the media cache (offline)"
        case .unsupported(let text): return "cannot download: \(text)"
        case .cache(let text): return "cannot write the media cache: \(text)"
        case .remembered(let failure, let since):
            return "\(failure.description) (remembered from \(MediaFailure.date(since)); a refresh tries again)"
        }
    }

    /// An address mirroring never connects to, which `--media-allow` may permit.
    package var isAddressRefusal: Bool {
        if case .addressRefused = self { true } else { false }
    }

    /// Worth remembering in the cache: the same request would fail the same way in a minute
    /// (a timeout, a broken connection, a 5xx or 429 may not).
    package var isLasting: Bool {
        switch self {
        case .invalidURL, .notHTTP, .tooLarge, .notAnImage, .tooManyRedirects, .redirectRefused: return true
        case .httpStatus(let code): return (400..<500).contains(code) && code != 408 && code != 429
        // Not lasting: `--media-allow` may permit it on the next build.
        case .timedOut, .connection, .addressRefused, .hostUnavailable, .notCached, .unsupported, .cache, .remembered:
            return false
        }
    }

    static func size(_ bytes: Int) -> String {
        if bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        if bytes % 1024 == 0 { return "\(bytes / 1024) KiB" }
        return "\(bytes) bytes"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// `2026-11-30` (UTC).
    static func date(_ seconds: Int64) -> String {
        let (year, month, day) = CivilDate.date(days: CivilDate.day(ofSeconds: seconds))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// One use of a remote image in the store: the URL as the store has it, and where it is
/// (for the warning when it cannot be mirrored).
package struct MediaReference: Sendable, Hashable {
    package var url: String
    /// The document's path (`users/abc`).
    package var path: String
    /// The field (`profileImageUrl`, `caption`, `bio`).
    package var field: String

    package init(url: String, path: String, field: String) {
        self.url = url
        self.path = path
        self.field = field
    }
}

/// A reference whose image could not be mirrored.
package struct MediaWarning: Sendable, Hashable, CustomStringConvertible {
    package var reference: MediaReference
    package var failure: MediaFailure

    package init(reference: MediaReference, failure: MediaFailure) {
        self.reference = reference
        self.failure = failure
    }

    /// `users/abc: field 'profileImageUrl': https://…/a.png: HTTP 404`, as `Diagnostic` words it.
    package var description: String {
        "\(reference.path): field '\(reference.field)': \(reference.url): \(failure)"
    }
}
