import Support

/// RFC 3339 timestamps ↔ `Timestamp`, without Foundation's formatters (which lose nanoseconds).
package enum RFC3339 {
    /// Parses `2021-11-05T09:30:00Z`, `2021-11-05T09:30:00.123456789Z`, `2021-11-05T18:30:00+09:00`
    /// (`t`/`z` lower case and a space for `T` accepted; fractions beyond nanoseconds are
    /// truncated; a leap second `:60` counts as the next second). Nil if malformed.
    package static func parse(_ text: String) -> Timestamp? {
        var s = text
        return s.withUTF8 { parse(bytes: $0) }
    }

    static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")),
            let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else { return nil }
        guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else {
            return nil
        }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")),
            let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var nanos = 0
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            var n = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if n < 9 { nanos = nanos * 10 + Int(b[i] - 48) }
                n += 1
                i += 1
            }
            guard n > 0 else { return nil }
            for _ in n..<max(n, 9) { nanos *= 10 }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2), expect(UInt8(ascii: ":")), let om = digits(2), oh <= 23, om <= 59 else {
                return nil
            }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return Timestamp(seconds: Int64(seconds), nanoseconds: Int32(nanos))
    }

    /// `2021-11-05T09:30:00Z`, with `.123456789` (always nine digits) when the nanoseconds
    /// are not zero. Nil when the year is outside 0000...9999, which RFC 3339 cannot write,
    /// or the nanoseconds are outside 0..<1,000,000,000.
    package static func format(_ t: Timestamp) -> String? {
        guard t.nanoseconds >= 0 && t.nanoseconds < 1_000_000_000 else { return nil }
        let secs = t.seconds
        guard secs >= -62_167_219_200, secs < 253_402_300_800 else { return nil }  // 0000-01-01 ..< 10000-01-01
        var days = secs / 86400
        var rem = secs % 86400
        if rem < 0 {
            rem += 86400
            days -= 1
        }
        let (y, m, d) = CivilDate.date(days: Int(days))
        var out: [UInt8] = []
        out.reserveCapacity(30)
        func put(_ v: Int, _ width: Int) {
            var digits = [UInt8](repeating: 48, count: width)
            var x = v
            for k in stride(from: width - 1, through: 0, by: -1) {
                digits[k] = UInt8(48 + x % 10)
                x /= 10
            }
            out.append(contentsOf: digits)
        }
        put(y, 4)
        out.append(UInt8(ascii: "-"))
        put(m, 2)
        out.append(UInt8(ascii: "-"))
        put(d, 2)
        out.append(UInt8(ascii: "T"))
        put(Int(rem / 3600), 2)
        out.append(UInt8(ascii: ":"))
        put(Int(rem % 3600 / 60), 2)
        out.append(UInt8(ascii: ":"))
        put(Int(rem % 60), 2)
        if t.nanoseconds != 0 {
            out.append(UInt8(ascii: "."))
            put(Int(t.nanoseconds), 9)
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
