import JSON

/// A token endpoint's answer while it is read: an access token, or why there is none.
struct TokenAnswer {
    let status: Int
    let body: [UInt8]
    let endpoint: String
    let database: String

    /// When an answer gives no lifetime: the hour Google's tokens live.
    static let usualLifetime: Int64 = 3600

    func refused(_ detail: String) -> FirestoreError {
        .tokenRefused(database: database, endpoint: endpoint, status: status, detail: detail)
    }

    func token(now: Int64) throws(FirestoreError) -> AccessToken {
        guard let object = try? JSONParser.parse(body), object.objectPairs != nil else {
            throw refused("the answer is not a JSON object (\(excerpt))")
        }
        if status != 200 || object["error"] != nil { throw refused(errorDetail(object)) }
        guard let token = object["access_token"]?.stringValue, !token.isEmpty else {
            throw refused("the answer holds no access_token")
        }
        return AccessToken(token: token, expiresAt: now + lifetime(object["expires_in"]))
    }

    /// Seconds the token lives, as `expires_in` says (a number, or a string of digits).
    private func lifetime(_ value: JSONValue?) -> Int64 {
        switch value {
        case .integer(let seconds)?: return max(0, seconds)
        case .double(let seconds)? where seconds >= 0 && seconds < 1e9: return Int64(seconds)
        case .string(let text)?: return Int64(text).map { max(0, $0) } ?? Self.usualLifetime
        default: return Self.usualLifetime
        }
    }

    /// OAuth's `{"error": "invalid_grant", "error_description": "…"}`, or Google's API form
    /// `{"error": {"status": …, "message": …}}`, as one line.
    private func errorDetail(_ object: JSONValue) -> String {
        var detail: String
        switch object["error"] {
        case .string(let code)?:
            detail = object["error_description"]?.stringValue.map { "\(code): \($0)" } ?? code
        case let error? where error.objectPairs != nil:
            let parts = [error["status"]?.stringValue, error["message"]?.stringValue].compactMap { $0 }
            detail = parts.isEmpty ? "the answer says no more" : parts.joined(separator: ": ")
        default:
            detail = "the answer says no more"
        }
        // Google refuses a JWT whose iat or exp is off by minutes: a wrong clock, not a bad key.
        if detail.contains("iat") || detail.contains("timeframe") { detail += " (is this machine's clock right?)" }
        return detail
    }

    /// The start of a body that is no JSON, printable, for the message.
    private var excerpt: String {
        if body.isEmpty { return "it is empty" }
        let shown = body.prefix(80).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }
        return "it begins \"" + String(decoding: shown, as: UTF8.self) + (body.count > 80 ? "…\"" : "\"")
    }
}
