import Model
import Mustache
import Store
import Support

/// How pages show a time: the theme's `date` text rendered with the time's parts, in UTC
/// (so every build and viewer agree): `Jun 10, 2023, 03:00 UTC`, `2023년 6월 10일 오전 3:00 UTC`.
enum DateText {
    /// The context of the `date` text (docs/templates.md, "Words").
    struct Parts: MustacheObject {
        /// Four digits, as RFC 3339 writes it.
        let year: String
        /// 1…12.
        let month: Int
        let day: Int
        /// 0…23.
        let hour: Int
        let minute: Int
        /// The theme's `month.1` … `month.12`.
        let monthNames: [String]

        init(_ t: Timestamp, monthNames: [String]) {
            self.monthNames = monthNames
            // Within RFC 3339's years and with valid nanoseconds (every timestamp the model
            // makes), the parts `t.rfc3339` would write, without writing and reading it back.
            if t.nanoseconds >= 0, t.nanoseconds < 1_000_000_000, t.seconds >= Self.firstSecond,
                t.seconds < Self.endSecond
            {
                let days = CivilDate.day(ofSeconds: t.seconds)
                let second = Int(t.seconds - Int64(days) * 86_400)
                let date = CivilDate.date(days: days)
                let digits = String(date.year)
                year = String(repeating: "0", count: 4 - digits.utf8.count) + digits
                month = date.month
                day = date.day
                hour = second / 3600
                minute = second % 3600 / 60
                return
            }
            // rfc3339 is `YYYY-MM-DDTHH:MM:SS…Z`; reuse its calendar arithmetic.
            // (Timestamps outside years 0…9999 have no such form; the model does not make them.)
            var text = Array(t.rfc3339.utf8)
            if text.count < 16 { text = Array("0000-01-01T00:00".utf8) }
            func part(_ from: Int, _ to: Int) -> Int { Int(String(decoding: text[from..<to], as: UTF8.self)) ?? 0 }
            year = String(decoding: text[0..<4], as: UTF8.self)
            month = max(1, min(12, part(5, 7)))
            day = part(8, 10)
            hour = part(11, 13)
            minute = part(14, 16)
        }

        /// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years RFC 3339 writes.
        private static let firstSecond: Int64 = -62_167_219_200
        private static let endSecond: Int64 = 253_402_300_800

        func value(forKey key: String) -> MustacheValue? {
            switch key {
            case "year": .string(year)
            case "month": .int(month)
            case "month2": .string(Self.twoDigits(month))
            case "monthName": .string(monthNames[month - 1])
            case "day": .int(day)
            case "day2": .string(Self.twoDigits(day))
            case "hour": .string(Self.twoDigits(hour))
            case "hour12": .int(hour % 12 == 0 ? 12 : hour % 12)
            case "minute": .string(Self.twoDigits(minute))
            case "isAM": .bool(hour < 12)
            case "isPM": .bool(hour >= 12)
            default: nil
            }
        }

        static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    }

    /// RFC 3339 without fractional seconds, for `datetime` attributes and feeds.
    static func iso(_ t: Timestamp) -> String {
        Timestamp(seconds: t.seconds).rfc3339
    }
}
