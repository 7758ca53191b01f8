import Model
import Store
import Testing

@testable import Site

/// `DateText.Parts` takes a time's parts without writing RFC 3339: the same parts as read
/// back from `rfc3339`, at the ends of its years and across days and leap years.
@Suite struct DateTextParts {
    /// The parts as `rfc3339` writes them (`YYYY-MM-DDTHH:MM`).
    static func written(_ t: Timestamp) -> (String, Int, Int, Int, Int) {
        let text = Array(t.rfc3339.utf8)
        func part(_ from: Int, _ to: Int) -> Int { Int(String(decoding: text[from..<to], as: UTF8.self))! }
        return (String(decoding: text[0..<4], as: UTF8.self), part(5, 7), part(8, 10), part(11, 13), part(14, 16))
    }

    @Test func partsAreThoseRFC3339Writes() {
        var seconds: [Int64] = [
            -62_167_219_200, -62_167_219_199, -1, 0, 59, 60, 86_399, 86_400, 951_782_400, 1_709_164_799,
            253_402_300_799,
        ]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(-62_167_219_200 + Int64(x >> 1 % UInt64(315_569_520_000)))
        }
        for s in seconds {
            let t = Timestamp(seconds: s, nanoseconds: Int32(s & 1) * 500_000_000)
            let parts = DateText.Parts(t, monthNames: [])
            let (year, month, day, hour, minute) = Self.written(t)
            #expect(
                parts.year == year && parts.month == month && parts.day == day && parts.hour == hour
                    && parts.minute == minute, "\(t.rfc3339)")
        }
    }

    @Test func timesWithoutAnRFC3339FormAreTheFirstOfYearZero() {
        for t in [
            Timestamp(seconds: 253_402_300_800), Timestamp(seconds: -62_167_219_201),
            Timestamp(seconds: 5, nanoseconds: -1),
        ] {
            let parts = DateText.Parts(t, monthNames: [])
            #expect(parts.year == "0000" && parts.month == 1 && parts.day == 1 && parts.hour == 0 && parts.minute == 0)
        }
    }
}

/// A Latin site marks no ASCII text; other sites still see its Latin letters.
@Suite struct ScriptLanguageASCII {
    @Test func asciiTextOnALatinSiteHasNoLang() {
        #expect(ScriptLanguage(siteLanguage: "en").lang(of: "Hot take: #swift is fun") == nil)
        #expect(ScriptLanguage(siteLanguage: "en").lang(of: "") == nil)
        #expect(ScriptLanguage(siteLanguage: "ko").lang(of: "Hot take: #swift is fun") == "en")
        #expect(ScriptLanguage(siteLanguage: "ko").lang(of: "@mina https://example.com") == nil)
        #expect(ScriptLanguage(siteLanguage: "en").lang(of: "오늘 날씨 good") == "ko")
    }
}
