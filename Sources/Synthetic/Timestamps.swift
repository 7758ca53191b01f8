import Support

/// Timestamps in the forms a Firestore export holds (SPEC 2.4): mostly RFC 3339 strings,
/// some `{"_seconds", "_nanoseconds"}` objects.
enum TimestampForm {
    case utc  // 2022-03-04T05:06:07Z
    case utcMillis  // 2022-03-04T05:06:07.123Z
    case seoul  // 2022-03-04T14:06:07+09:00
    case secondsObject  // {"_seconds": …, "_nanoseconds": …}

    /// 10% objects; of the strings 60% `Z`, 20% with milliseconds, 20% at +09:00.
    static func draw(_ random: inout SplitMix64) -> TimestampForm {
        if random.chance(0.10) { return .secondsObject }
        let x = random.unit()
        return x < 0.6 ? .utc : x < 0.8 ? .utcMillis : .seoul
    }
}

extension Array where Element == UInt8 {
    /// The JSON value of a timestamp; `indent` is the indentation of the line it is on.
    mutating func appendTimestamp(seconds: Int, nanoseconds: Int, form: TimestampForm, indent: Int) {
        switch form {
        case .secondsObject:
            append("{\n")
            append(contentsOf: repeatElement(0x20, count: indent + 2))
            append("\"_seconds\": ")
            appendInteger(seconds)
            append(",\n")
            append(contentsOf: repeatElement(0x20, count: indent + 2))
            append("\"_nanoseconds\": ")
            appendInteger(nanoseconds)
            append(0x0A)
            append(contentsOf: repeatElement(0x20, count: indent))
            append(0x7D)
        case .utc, .utcMillis, .seoul:
            let offset = form == .seoul ? 9 * 3600 : 0
            let local = seconds + offset
            let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
            let secondOfDay = local - days * 86400
            let (year, month, day) = CivilDate.date(days: days)
            append(0x22)
            appendPadded(year, width: 4)
            append(0x2D)
            appendPadded(month, width: 2)
            append(0x2D)
            appendPadded(day, width: 2)
            append(0x54)
            appendPadded(secondOfDay / 3600, width: 2)
            append(0x3A)
            appendPadded(secondOfDay / 60 % 60, width: 2)
            append(0x3A)
            appendPadded(secondOfDay % 60, width: 2)
            switch form {
            case .utcMillis:
                append(0x2E)
                appendPadded(nanoseconds / 1_000_000, width: 3)
                append(0x5A)
            case .seoul: append("+09:00")
            default: append(0x5A)
            }
            append(0x22)
        }
    }
}
