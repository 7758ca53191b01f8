import Store

/// The timestamp forms of SPEC 2.4.
extension Timestamp {
    /// Firestore's range: 0001-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z.
    static let earliestSeconds: Int64 = -62_135_596_800
    static let latestSeconds: Int64 = 253_402_300_800

    /// Reads any accepted form; nil when the value is none of them or out of range.
    package init?(_ value: Value) {
        switch value {
        case .timestamp(let t):
            self = t
        case .string(let text):
            guard let t = Timestamp(rfc3339: text) else { return nil }
            self = t
        case .integer(let seconds):
            self.init(seconds: seconds, nanoseconds: 0)
        case .double(let seconds):
            guard seconds.isFinite, seconds >= Double(Self.earliestSeconds), seconds < Double(Self.latestSeconds) else {
                return nil
            }
            let whole = seconds.rounded(.down)
            let nanos = min(999_999_999, Int32(((seconds - whole) * 1e9).rounded()))
            self.init(seconds: Int64(whole), nanoseconds: nanos)
        case .map(let fields):
            if case .string("timestamp")? = fields["__datatype__"], let inner = fields["value"] {
                guard let t = Timestamp(inner) else { return nil }
                self = t
                return
            }
            if let type = fields["type"], type != .string("firestore/timestamp/1.0") { return nil }
            guard
                let (s, n) = Self.secondsAndNanos(fields, "_seconds", "_nanoseconds")
                    ?? Self.secondsAndNanos(fields, "seconds", "nanoseconds")
            else { return nil }
            self.init(seconds: s, nanoseconds: n)
        default:
            return nil
        }
        guard seconds >= Self.earliestSeconds, seconds < Self.latestSeconds,
            (0..<1_000_000_000).contains(nanoseconds)
        else { return nil }
    }

    private static func secondsAndNanos(_ fields: Fields, _ s: String, _ n: String) -> (Int64, Int32)? {
        guard let secondsValue = fields[s] else { return nil }
        guard let seconds = wholeNumber(secondsValue) else { return nil }
        guard let nanosValue = fields[n] else { return (seconds, 0) }
        guard let nanos = wholeNumber(nanosValue), (0..<1_000_000_000).contains(nanos) else { return nil }
        return (seconds, Int32(nanos))
    }

    private static func wholeNumber(_ value: Value) -> Int64? {
        switch value {
        case .integer(let i): return i
        case .double(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e17: return Int64(d)
        default: return nil
        }
    }

    /// Parses an RFC 3339 string (Store's parser) within Firestore's range.
    package init?(rfc3339 text: String) {
        guard let t = RFC3339.parse(text), t.seconds >= Self.earliestSeconds, t.seconds < Self.latestSeconds else {
            return nil
        }
        self = t
    }

    /// `2021-11-05T09:30:00Z`, with nine fractional digits when there are nanoseconds.
    package var rfc3339: String {
        RFC3339.format(self) ?? "\(seconds)s"
    }
}
