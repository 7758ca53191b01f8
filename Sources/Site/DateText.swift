import Model
import Store

/// How pages show a time: `Jun 10, 2023, 03:00 UTC` (UTC, so every build and viewer agree).
enum DateText {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func display(_ t: Timestamp) -> String {
        // rfc3339 is `YYYY-MM-DDTHH:MM:SS…Z`; reuse its calendar arithmetic.
        let text = Array(t.rfc3339.utf8)
        func part(_ from: Int, _ to: Int) -> String { String(decoding: text[from..<to], as: UTF8.self) }
        let month = Int(part(5, 7)) ?? 1
        let day = Int(part(8, 10)) ?? 1
        return "\(months[month - 1]) \(day), \(part(0, 4)), \(part(11, 16)) UTC"
    }

    /// RFC 3339 without fractional seconds, for `datetime` attributes and feeds.
    static func iso(_ t: Timestamp) -> String {
        Timestamp(seconds: t.seconds).rfc3339
    }
}
