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
            let (year, month, day) = civilDate(daysSinceEpoch: days)
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

/// The proleptic Gregorian date of a day counted from 1970-01-01, by 400-year cycles
/// (146,097 days each) counted from 0000-03-01, so that February ends a year.
func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
    let fromMarch0000 = daysSinceEpoch + 719_468
    let cycle = (fromMarch0000 >= 0 ? fromMarch0000 : fromMarch0000 - 146_096) / 146_097
    let dayOfCycle = fromMarch0000 - cycle * 146_097
    let yearOfCycle = (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36524 - dayOfCycle / 146_096) / 365
    let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfCycle + cycle * 400 + (month <= 2 ? 1 : 0), month, day)
}
