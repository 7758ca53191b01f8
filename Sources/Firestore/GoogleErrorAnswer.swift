import JSON

/// What an error answer of a Google API says: `{"error": {"code", "message", "status"}}`,
/// alone or as the first element of a streamed array (runQuery); or, from a server that is
/// not one (a proxy, a misconfigured host), the start of its text.
struct GoogleErrorAnswer {
    var status: String?
    var message: String
    /// The HTTP code the error JSON says (inside a 200 stream, the only one there is).
    var code: Int?

    init(body: [UInt8]) {
        let json = try? JSONParser.parse(body)
        self.init(json: json, body: body)
    }

    /// `json` being `body` parsed (nil when it is not JSON).
    init(json: JSONValue?, body: [UInt8]) {
        if let error = json?["error"] ?? json?.arrayValue?.first?["error"], let said = Self(error: error) {
            self = said
            return
        }
        status = nil
        code = nil
        message = Self.excerpt(body)
    }

    /// The `error` object of an answer; nil when it is not an object.
    init?(error: JSONValue) {
        guard case .object = error else { return nil }
        status = error["status"]?.stringValue
        code = error["code"]?.numberValue.map { Int($0) }
        message = error["message"]?.stringValue ?? "no message"
    }

    /// At most 200 characters of a body, on one line; "no message" for an empty one.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(600), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        if line.isEmpty { return "no message" }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
