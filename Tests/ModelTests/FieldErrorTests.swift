import Model
import Store
import TestSupport
import Testing

@Suite("Snapshot: field errors name the document and field")
struct FieldErrorTests {
    @Test func missingRequiredFields() {
        let s = Snapshot(documents: [doc("users/u1"), doc("tweets/t1", [("uid", .string("u1"))])])
        let errors = s.errors.map(\.description)
        #expect(errors.contains("users/u1: field 'username': required string is missing"))
        #expect(errors.contains("tweets/t1: field 'caption': required string is missing"))
        #expect(errors.contains("tweets/t1: field 'timestamp': required timestamp is missing"))
        #expect(s.tweets.isEmpty && s.users.isEmpty)
    }

    @Test func wrongTypes() {
        let s = Snapshot(documents: [
            doc("users/u1", [("username", .integer(7))]),
            doc(
                "tweets/t1",
                [
                    ("caption", .string("x")), ("timestamp", .string("2023-01-01T00:00:00Z")),
                    ("uid", .string("u1")), ("likes", .string("three")),
                ]),
        ])
        let errors = s.errors.map(\.description)
        #expect(errors.contains("users/u1: field 'username': expected a string, found an integer"))
        #expect(errors.contains("tweets/t1: field 'likes': expected an integer, found a string"))
    }

    @Test(arguments: ["yesterday", "2023-13-01T00:00:00Z", "10000-01-01T00:00:00Z", "2023-02-29T00:00:00Z"])
    func invalidTimestamps(_ text: String) {
        let s = Snapshot(documents: [tweet("t1", by: "u", at: text)])
        #expect(s.errors.first?.kind == .invalidTimestamp)
        #expect(s.errors.first?.path == "tweets/t1")
        #expect(s.errors.first?.field == "timestamp")
    }

    @Test func negativeCounterIsAWarning() {
        let s = Snapshot(documents: [user("u", "u"), tweet("t1", by: "u", at: "2023-01-01T00:00:00Z", likes: -2)])
        #expect(s.warnings.map(\.description) == ["tweets/t1: field 'likes': stored likes is -2"])
    }

    /// SPEC 9: `check` notes images without alt text; every image's URL is kept for mirroring.
    @Test func imagesWithoutAltTextAreNotices() {
        let s = Snapshot(documents: [
            user("u", "u", bio: "me ![](https://x/b.png)", image: "https://x/me.png"),
            tweet(
                "t1", by: "u", at: "2023-01-01T00:00:00Z",
                "![a cat](https://x/c.png) ![ ](https://x/d.png) ![a cat](https://x/c.png)"),
        ])
        let notices = s.diagnostics.filter { $0.kind == .imageWithoutAlt }.map(\.description).sorted()
        #expect(
            notices == [
                "tweets/t1: field 'caption': image without alt text: https://x/d.png",
                "users/u: field 'bio': image without alt text: https://x/b.png",
            ])
        #expect(s.errors.isEmpty && s.warnings.isEmpty)
        #expect(s.tweets[0].images == ["https://x/c.png", "https://x/d.png"])
        #expect(s.users[0].bioImages == ["https://x/b.png"])
    }
}

@Suite("Timestamps: every form of SPEC 2.4")
struct TimestampFormTests {
    static let expected = Timestamp(seconds: 1_636_104_600, nanoseconds: 0)  // 2021-11-05T09:30:00Z

    static func map(_ pairs: [(String, Value)]) -> Value { .map(Fields(pairs.map { (key: $0.0, value: $0.1) })) }

    static let forms: [(String, Value)] = [
        ("RFC 3339 Z", .string("2021-11-05T09:30:00Z")),
        ("RFC 3339 offset", .string("2021-11-05T18:30:00+09:00")),
        ("RFC 3339 fraction", .string("2021-11-05T09:30:00.000Z")),
        ("Node Admin SDK", map([("_seconds", .integer(1_636_104_600)), ("_nanoseconds", .integer(0))])),
        ("Swift Codable", map([("seconds", .integer(1_636_104_600)), ("nanoseconds", .integer(0))])),
        (
            "__datatype__",
            map([
                ("__datatype__", .string("timestamp")),
                ("value", map([("_seconds", .integer(1_636_104_600)), ("_nanoseconds", .integer(0))])),
            ])
        ),
        (
            "web SDK",
            map([
                ("type", .string("firestore/timestamp/1.0")), ("seconds", .integer(1_636_104_600)),
                ("nanoseconds", .integer(0)),
            ])
        ),
        ("typed", .timestamp(expected)),
        ("seconds number", .integer(1_636_104_600)),
        ("seconds double", .double(1_636_104_600.0)),
    ]

    @Test(arguments: forms.map(\.0))
    func form(_ name: String) {
        let value = Self.forms.first { $0.0 == name }!.1
        #expect(Timestamp(value) == Self.expected)
    }

    @Test func fractionsAndFormatting() {
        let t = Timestamp(rfc3339: "2021-11-05T09:30:00.123456789Z")!
        #expect(t.nanoseconds == 123_456_789)
        #expect(t.rfc3339 == "2021-11-05T09:30:00.123456789Z")
        #expect(Timestamp(rfc3339: "1969-12-31T23:59:59Z")!.seconds == -1)
        #expect(Timestamp(seconds: -1).rfc3339 == "1969-12-31T23:59:59Z")
        #expect(Timestamp(rfc3339: "2021-11-05T09:30:00.5+01:30")!.rfc3339 == "2021-11-05T08:00:00.500000000Z")
        #expect(Timestamp(.double(.nan)) == nil)
        #expect(Timestamp(.integer(Int64.max)) == nil)
        #expect(Timestamp(rfc3339: "0000-01-01T00:00:00Z") == nil)
    }
}
