import Store

/// The timestamp forms of SPEC 2.4, and RFC 3339 text for pages and feeds.
extension Timestamp {
    /// Firestore's range: 0001-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z.
    static let earliestSeconds: Int64 = -62_135_596_800
    static let latestSeconds: Int64 = 253_402_300_800

    /// Reads any accepted form; nil when the value is none of them or out of range.
    public init?(_ value: Value) {
        switch value {
        case .timestamp(let t):
            self = t
        case .string(let text):
            guard let t = Timestamp(rfc3339: text) else { return nil }
            self = t
        case .integer(let seconds):
            self.init(seconds: seconds, nanoseconds: 0)
        case .double(let seconds):
            guard seconds.isFinite, seconds >= Double(Self.earliestSeconds), seconds < Double(Self.latestSeconds) else { return nil }
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
            guard let (s, n) = Self.secondsAndNanos(fields, "_seconds", "_nanoseconds")
                ?? Self.secondsAndNanos(fields, "seconds", "nanoseconds") else { return nil }
            self.init(seconds: s, nanoseconds: n)
        default:
            return nil
        }
        guard seconds >= Self.earliestSeconds, seconds < Self.latestSeconds,
              (0..<1_000_000_000).contains(nanoseconds) else { return nil }
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

    /// Parses `2021-11-05T09:30:00Z`, with optional fractional seconds and a `±hh:mm` offset
    /// (`t`/`z` and a space separator accepted, as RFC 3339 allows).
    public init?(rfc3339 text: String) {
        var utf8 = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int64? {
            guard utf8.count >= digits else { return nil }
            var n: Int64 = 0
            for _ in 0..<digits {
                let c = utf8.removeFirst()
                guard (48...57).contains(c) else { return nil }
                n = n * 10 + Int64(c - 48)
            }
            return n
        }
        func expect(_ chars: UInt8...) -> Bool {
            guard let c = utf8.first, chars.contains(c) else { return false }
            utf8.removeFirst()
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              expect(84, 116, 32), let hour = number(2), expect(58), let minute = number(2), expect(58),
              let second = number(2) else { return nil }
        var nanos: Int64 = 0
        if expect(46) {
            var digits = 0
            while let c = utf8.first, (48...57).contains(c) {
                utf8.removeFirst()
                if digits < 9 { nanos = nanos * 10 + Int64(c - 48) }
                digits += 1
            }
            guard digits > 0 else { return nil }
            if digits < 9 { for _ in digits..<9 { nanos *= 10 } }
        }
        var offset: Int64 = 0
        if expect(90, 122) {
            offset = 0
        } else if let sign = utf8.first, sign == 43 || sign == 45 {
            utf8.removeFirst()
            guard let oh = number(2), expect(58), let om = number(2), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (sign == 45 ? -1 : 1)
        } else {
            return nil
        }
        guard utf8.isEmpty, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 61 else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let s = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        guard s >= Self.earliestSeconds, s < Self.latestSeconds else { return nil }
        self.init(seconds: s, nanoseconds: Int32(nanos))
    }

    /// `2021-11-05T09:30:00Z`, with `.fff…` only when there are nanoseconds (trailing zeros trimmed).
    public var rfc3339: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondsOfDay = seconds - days * 86_400
        let (y, m, d) = Self.civil(fromDays: days)
        func pad(_ n: Int64, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if nanoseconds > 0 {
            var fraction = pad(Int64(nanoseconds), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    static func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
