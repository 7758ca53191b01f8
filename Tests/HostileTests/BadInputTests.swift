import Foundation
import Model
import Site
import Store
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

// A hang is caught within the limit. It is generous because a test's clock runs while it waits
// for a thread: on 2 cores, the tests that wait for child processes can hold both for minutes.
/// SPEC 6: bad input gives a clean error naming the file (or the document and field), or a
/// clean build — never a crash or a hang.
@Suite(.timeLimit(.minutes(5)))
struct BadInputTests {
    /// A store with one good user and one good tweet, to which a test adds one bad thing.
    static func base() throws -> StoreFolder {
        let folder = try StoreFolder()
        folder.document("users/u1.json", ["username": json("mina")])
        folder.document(
            "tweets/t0.json", ["caption": json("fine"), "timestamp": json("2024-01-01T00:00:00Z"), "uid": json("u1")])
        return folder
    }

    /// The diagnostics of the store, which must be read without a store error.
    static func errors(_ folder: StoreFolder, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        -> [Diagnostic]
    {
        switch build(folder.path) {
        case .dataErrors(let errors, _): return errors
        case let other:
            Issue.record("expected data errors, got \(other.summary)", sourceLocation: sourceLocation)
            return []
        }
    }

    /// The store error, which must name `file`.
    static func storeError(
        _ storePath: String, naming file: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String? {
        switch build(storePath) {
        case .storeError(let error):
            let message = "\(error)"
            #expect(message.contains(file), "\(message) does not name \(file)", sourceLocation: sourceLocation)
            return message
        case let other:
            Issue.record("expected a store error naming \(file), got \(other.summary)", sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: timestamps

    static let badTimestamps: [(String, String)] = [
        ("year0", json("0000-12-31T23:59:59Z")), ("year10000", json("10000-01-01T00:00:00Z")),
        ("yearNeg", json("-0001-01-01T00:00:00Z")), ("offsetBelow", json("0001-01-01T00:00:00+00:01")),
        ("offsetAbove", json("9999-12-31T23:59:59-00:01")), ("feb30", json("2021-02-30T00:00:00Z")),
        ("month13", json("2021-13-01T00:00:00Z")), ("hour24", json("2021-01-01T24:00:01Z")),
        ("nanString", json("NaN")), ("infString", json("Infinity")), ("empty", json("")),
        ("huge", "1e300"), ("hugeNeg", "-1e300"), ("overflowInt", "99999999999999999999999"),
        ("int64Max", "9223372036854775807"), ("int64Min", "-9223372036854775808"),
        ("secondsYear10000", "253402300800"), ("secondsYear0", "-62135596801"),
        ("negNanos", #"{"_seconds": 0, "_nanoseconds": -1}"#),
        ("bigNanos", #"{"seconds": 0, "nanoseconds": 1000000000}"#),
        ("fracNanos", #"{"_seconds": 0, "_nanoseconds": 0.5}"#),
        ("hugeSeconds", #"{"_seconds": 1e20, "_nanoseconds": 0}"#),
        ("minSeconds", #"{"seconds": -9223372036854775808}"#), ("stringSeconds", #"{"_seconds": "1700000000"}"#),
        ("webWrongType", #"{"type": "firestore/geopoint/1.0", "seconds": 0}"#),
        ("datatypeBad", #"{"__datatype__": "timestamp", "value": {"_seconds": 1e19}}"#),
        ("datatypeNested", #"{"__datatype__": "timestamp", "value": {"__datatype__": "timestamp", "value": "x"}}"#),
        ("bool", "true"), ("array", "[1700000000]"), ("object", "{}"),
    ]

    @Test func timestampsOutOfRangeNameDocumentAndField() throws {
        let folder = try Self.base()
        for (id, value) in Self.badTimestamps {
            folder.write("tweets/\(id).json", "{\"caption\": \"x\", \"uid\": \"u1\", \"timestamp\": \(value)}")
            folder.write("users/u1/user-likes/\(id).json", "{\"timestamp\": \(value)}")
        }
        let errors = try Self.errors(folder)
        for (id, _) in Self.badTimestamps {
            for path in ["tweets/\(id)", "users/u1/user-likes/\(id)"] {
                #expect(
                    errors.contains { $0.path == path && $0.field == "timestamp" && $0.severity == .error },
                    "no error for \(path).timestamp")
            }
        }
        #expect(errors.count == 2 * Self.badTimestamps.count, "\(errors.map(\.description))")
        #expect(errors.allSatisfy { $0.description.hasPrefix("\($0.path): field 'timestamp': ") })
    }

    /// The same in the single-file formats, whose values are typed: NaN and infinities can be written there.
    @Test func timestampsOutOfRangeInExports() throws {
        let rest: [(String, String)] = [
            ("nan", #"{"doubleValue": "NaN"}"#), ("inf", #"{"doubleValue": "Infinity"}"#),
            ("ninf", #"{"doubleValue": "-Infinity"}"#),
            ("int64Max", #"{"integerValue": "9223372036854775807"}"#),
            ("year0", #"{"timestampValue": "0000-01-01T00:00:00Z"}"#),
            ("year10000", #"{"timestampValue": "10000-01-01T00:00:00Z"}"#),
            (
                "negNanos",
                #"{"mapValue": {"fields": {"seconds": {"integerValue": "0"}, "nanoseconds": {"integerValue": "-1"}}}}"#
            ),
            ("string", #"{"stringValue": "NaN"}"#),
        ]  // (an integerValue beyond Int64 is refused by the reader, naming file, document and field)
        let folder = try StoreFolder()
        var cases: [(file: String, id: String)] = []
        for (id, value) in rest {
            folder.write(
                "rest-\(id).json",
                #"[{"name": "projects/p/databases/(default)/documents/tweets/\#(id)", "fields": {"caption": {"stringValue": "x"}, "uid": {"stringValue": "u1"}, "timestamp": \#(value)}}]"#
            )
            cases.append(("rest-\(id).json", id))
        }
        let node = [
            ("negNanos", #"{"_seconds": 0, "_nanoseconds": -5}"#),
            ("hugeSeconds", #"{"_seconds": 1e30, "_nanoseconds": 0}"#),
            ("year10000", #"{"_seconds": 253402300800, "_nanoseconds": 0}"#),
            ("nanos1e9", #"{"_seconds": 0, "_nanoseconds": 1000000000}"#),
        ]
        for (id, value) in node {
            folder.write(
                "node-\(id).json",
                #"{"__collections__": {"tweets": {"\#(id)": {"caption": "x", "uid": "u1", "timestamp": {"__datatype__": "timestamp", "value": \#(value)}}}}}"#
            )
            cases.append(("node-\(id).json", id))
        }
        for (file, id) in cases {
            switch build(folder.path + "/" + file) {
            case .storeError(let error):
                // A typed value the reader refuses: the file, the document and the field are named.
                let message = "\(error)"
                #expect(
                    message.contains(file) && message.contains("tweets/\(id)") && message.contains("timestamp"),
                    "\(message)")
            case .dataErrors(let errors, _):
                #expect(errors.contains { $0.path == "tweets/\(id)" && $0.field == "timestamp" }, "\(file): \(errors)")
            case let other:
                Issue.record("\(file): \(other.summary)")
            }
        }
    }

    /// The edges of the range are fine, and shown with the right year.
    @Test func timestampsAtTheEdgesBuild() throws {
        let folder = try StoreFolder()
        folder.document("users/u1.json", ["username": json("mina")])
        let edges = [
            ("first", json("0001-01-01T00:00:00Z"), "0001-01-01T00:00:00Z"),
            ("last", json("9999-12-31T23:59:59.999999999Z"), "9999-12-31T23:59:59"),
            ("firstSeconds", "-62135596800", "0001-01-01T00:00:00Z"),
            ("lastSeconds", "253402300799.999", "9999-12-31T23:59:59"),
            ("offsetInside", json("0001-01-01T00:30:00+00:30"), "0001-01-01T00:00:00Z"),
            ("leap", json("2016-12-31T23:59:60Z"), "2017-01-01T00:00:00Z"),
            (
                "manyDigits", json("2021-01-01T00:00:00." + String(repeating: "9", count: 10_000) + "Z"),
                "2021-01-01T00:00:00"
            ),
        ]
        for (id, value, _) in edges {
            folder.write("tweets/\(id).json", "{\"caption\": \"x\", \"uid\": \"u1\", \"timestamp\": \(value)}")
        }
        let outcome = build(folder.path)
        if case .dataErrors(let errors, _) = outcome {
            // Refusing a leap second is acceptable; nothing else at the edges is.
            #expect(errors.allSatisfy { $0.path == "tweets/leap" }, "\(errors.map(\.description))")
            return
        }
        let site = try #require(outcome.site, "\(outcome.summary)")
        #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
        for (id, _, shown) in edges {
            let page = try #require(site.text("t/\(id)/index.html"))
            #expect(
                page.contains("datetime=\"\(shown)"),
                "t/\(id): \(page.components(separatedBy: "datetime=").dropFirst().first?.prefix(40) ?? "")")
        }
    }

    // MARK: types

    static let wrongTypes: [(file: String, body: String, path: String, field: String)] = [
        ("tweets/c.json", #"{"caption": 5, "timestamp": 0, "uid": "u1"}"#, "tweets/c", "caption"),
        ("tweets/u.json", #"{"caption": "x", "timestamp": 0, "uid": 42}"#, "tweets/u", "uid"),
        ("tweets/l.json", #"{"caption": "x", "timestamp": 0, "uid": "u1", "likes": "7"}"#, "tweets/l", "likes"),
        ("tweets/lf.json", #"{"caption": "x", "timestamp": 0, "uid": "u1", "likes": 1.5}"#, "tweets/lf", "likes"),
        ("tweets/lb.json", #"{"caption": "x", "timestamp": 0, "uid": "u1", "likes": 1e300}"#, "tweets/lb", "likes"),
        ("tweets/r.json", #"{"caption": "x", "timestamp": 0, "uid": "u1", "replyTo": 5}"#, "tweets/r", "replyTo"),
        ("tweets/t.json", #"{"caption": "x", "timestamp": "yesterday", "uid": "u1"}"#, "tweets/t", "timestamp"),
        ("tweets/a.json", #"{"caption": ["x"], "timestamp": 0, "uid": "u1"}"#, "tweets/a", "caption"),
        ("tweets/o.json", #"{"caption": {"text": "x"}, "timestamp": 0, "uid": "u1"}"#, "tweets/o", "caption"),
        ("tweets/m.json", #"{"timestamp": 0, "uid": "u1"}"#, "tweets/m", "caption"),
        ("tweets/n.json", #"{"caption": null, "timestamp": 0, "uid": "u1"}"#, "tweets/n", "caption"),
        ("users/x1.json", #"{"username": 42}"#, "users/x1", "username"),
        ("users/x2.json", #"{"username": "a", "fullname": 42}"#, "users/x2", "fullname"),
        ("users/x3.json", #"{"username": "b", "bio": ["x"]}"#, "users/x3", "bio"),
        ("users/x4.json", #"{"username": "c", "profileImageUrl": 5}"#, "users/x4", "profileImageUrl"),
        ("users/x5.json", #"{"username": true}"#, "users/x5", "username"),
        ("users/x6.json", #"{}"#, "users/x6", "username"),
        ("favorites/u1/favorites/p1.json", #"{"placeName": 5}"#, "favorites/u1/favorites/p1", "placeName"),
        (
            "favorites/u1/favorites/p2.json", #"{"placeName": "x", "address": {"road": "y"}}"#,
            "favorites/u1/favorites/p2", "address"
        ),
        ("users/u1/user-likes/t0.json", #"{"timestamp": "soon"}"#, "users/u1/user-likes/t0", "timestamp"),
    ]

    @Test func wrongTypesNameDocumentAndField() throws {
        let folder = try Self.base()
        for item in Self.wrongTypes { folder.write(item.file, item.body) }
        // Strings where numbers belong in a coordinate are a warning, not an error; nonsense is one too.
        folder.write(
            "favorites/u1/favorites/p3.json",
            #"{"placeName": "x", "coordinate": {"latitude": "north", "longitude": [1]}}"#)
        folder.write(
            "favorites/u1/favorites/p4.json",
            #"{"placeName": "x", "coordinate": {"latitude": 1e400, "longitude": -1e400}}"#)
        let outcome = build(folder.path)
        if case .storeError(let error) = outcome {
            // 1e400 is out of Double's range: refusing the file is fine, if it names it.
            #expect("\(error)".contains("p4.json"), "\(error)")
            folder.write(
                "favorites/u1/favorites/p4.json",
                #"{"placeName": "x", "coordinate": {"latitude": 91, "longitude": -181}}"#)
        }
        let errors = try Self.errors(folder)
        for item in Self.wrongTypes {
            #expect(
                errors.contains { $0.path == item.path && $0.field == item.field },
                "no error for \(item.path).\(item.field)")
        }
        #expect(errors.count == Self.wrongTypes.count, "\(errors.map(\.description))")
    }

    /// Deeply nested values in fields: wrong type (or ignored, in unknown fields), no stack overflow.
    @Test func deepValuesInFields() throws {
        let folder = try Self.base()
        let deepObject = String(repeating: "{\"a\": ", count: 500) + "1" + String(repeating: "}", count: 500)
        let deepArray = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        folder.write("tweets/d1.json", "{\"caption\": \(deepObject), \"timestamp\": 0, \"uid\": \"u1\"}")
        folder.write("tweets/d2.json", "{\"caption\": \"x\", \"timestamp\": \(deepArray), \"uid\": \"u1\"}")
        folder.write(
            "tweets/d3.json", "{\"caption\": \"x\", \"timestamp\": 0, \"uid\": \"u1\", \"unknown\": \(deepObject)}")
        folder.write("users/d4.json", "{\"username\": \"d\", \"unknown\": \(deepArray), \"bio\": \(deepArray)}")
        let errors = try Self.errors(folder)
        #expect(
            errors.map { "\($0.path).\($0.field ?? "")" }.sorted() == [
                "tweets/d1.caption", "tweets/d2.timestamp", "users/d4.bio",
            ])
    }

    /// Reply cycles (a tweet replying to itself, a → b → a), duplicate keys and a user who
    /// likes their own tweet: no loop, no crash, every page whole.
    @Test func replyCyclesAndDuplicateKeys() throws {
        let folder = try Self.base()
        folder.write("tweets/self.json", #"{"caption": "me", "timestamp": 1, "uid": "u1", "replyTo": "self"}"#)
        folder.write("tweets/a.json", #"{"caption": "a", "timestamp": 2, "uid": "u1", "replyTo": "b"}"#)
        folder.write("tweets/b.json", #"{"caption": "b", "timestamp": 3, "uid": "u1", "replyTo": "a"}"#)
        folder.write(
            "tweets/c.json", #"{"caption": "<x-hostile>", "caption": "safe", "timestamp": 4, "uid": "u1", "uid": "u1"}"#
        )
        folder.write("users/u1/user-likes/self.json", "{}")
        let site = try requireSite(folder.path)
        #expect(site.snapshot.tweets.count == 5)
        #expect(
            siteProblems(site, forbidden: ["<x-hostile"]).isEmpty,
            "\(lines(siteProblems(site, forbidden: ["<x-hostile"])))")
    }

    // MARK: big and deep files

    @Test func aOneMegabyteCaption() throws {
        let folder = try Self.base()
        let unit =
            String(repeating: "plain words of a long caption, ", count: 30)
            + "**bold** _it_ #tag @mina https://example.com/x <b>raw</b> [l](https://e.x) `code` \n"
        let caption = String(repeating: unit, count: 1_048_576 / unit.utf8.count + 1)
        folder.document(
            "tweets/big.json", ["caption": json(caption), "timestamp": json("2024-02-01T00:00:00Z"), "uid": json("u1")])
        let clock = ContinuousClock()
        let start = clock.now
        let site = try requireSite(folder.path)
        #expect(clock.now - start < .seconds(20))
        let page = try #require(site.text("t/big/index.html"))
        #expect(page.utf8.count > 1_000_000)
        #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
        // The title and the feed entry's title are short.
        let title = try #require(
            page.components(separatedBy: "<title>").dropFirst().first?.components(separatedBy: "</title>").first)
        #expect(title.count < 200, "title of \(title.count) characters")
    }

    /// Markdown that is expensive for naive parsers, at 100 KB each.
    @Test func pathologicalMarkdown() throws {
        let folder = try Self.base()
        let n = 50_000
        let captions = [
            String(repeating: "[", count: n) + String(repeating: "]", count: n),
            String(repeating: "*a ", count: n), String(repeating: "> ", count: n) + "deep",
            String(repeating: "- ", count: 5_000) + "deep list", String(repeating: "`", count: n),
            String(repeating: "<", count: n), String(repeating: "&#", count: n), String(repeating: "![", count: n),
            String(repeating: "#", count: n) + " #" + String(repeating: "t", count: n),
            String(repeating: "@", count: n) + "mina",
            String(repeating: "https://", count: n / 4), String(repeating: "\u{301}", count: n) + "e",
        ]
        for (i, caption) in captions.enumerated() {
            folder.document(
                "tweets/p\(i).json",
                ["caption": json(caption), "timestamp": json("2024-02-01T00:00:00Z"), "uid": json("u1")])
        }
        let clock = ContinuousClock()
        let start = clock.now
        let site = try requireSite(folder.path)
        #expect(clock.now - start < .seconds(20))
        #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
    }

    @Test(arguments: ["[", "{\"a\":", "[{\"a\": ["])
    func jsonNested100000DeepNamesTheFile(opening: String) throws {
        let folder = try Self.base()
        let text = "{\"caption\": " + String(repeating: opening, count: 100_000)
        folder.write("tweets/deep.json", text)
        let message = Self.storeError(folder.path, naming: "tweets/deep.json")
        #expect(message?.contains("deep") == true)
        // The same as a single-file store.
        folder.write("export.json", "{\"__collections__\": " + String(repeating: opening, count: 100_000))
        _ = Self.storeError(folder.path + "/export.json", naming: "export.json")
        // Deep but closed.
        let closer = opening == "[" ? "]" : opening == "{\"a\":" ? "}" : "]}]"
        folder.write(
            "tweets/deep.json",
            "{\"x\": " + String(repeating: opening, count: 100_000) + "1"
                + String(repeating: closer, count: 100_000) + "}")
        _ = Self.storeError(folder.path, naming: "tweets/deep.json")
    }

    // MARK: files that are not JSON documents

    static let notDocuments: [(name: String, bytes: [UInt8])] = [
        ("empty", []), ("spaces", Array("  \n\t ".utf8)), ("null", Array("null".utf8)), ("array", Array("[]".utf8)),
        ("string", Array("\"x\"".utf8)), ("number", Array("5".utf8)), ("two", Array("{} {}".utf8)),
        ("truncated", Array("{\"username\": \"a".utf8)), ("nul", [0]),
        ("nulInside", Array("{\"username\": \"a\u{0}\"}".utf8)),
        ("bad-utf8", Array("{\"username\": \"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)),
        ("overlong", Array("{\"username\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8)),
        ("surrogate", Array("{\"username\": \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8)),
        ("cut-utf8", Array("{\"username\": \"".utf8) + [0xE2, 0x82]),
        ("bad-utf8-key", Array("{\"".utf8) + [0xFF] + Array("\": 1}".utf8)),
        ("utf16", [0xFF, 0xFE] + Array("{}".utf16.flatMap { [UInt8($0), 0] })),
        ("trailing-comma", Array("{\"username\": \"a\",}".utf8)), ("comment", Array("// x\n{}".utf8)),
        ("nan", Array("{\"likes\": NaN}".utf8)), ("single-quotes", Array("{'username': 'a'}".utf8)),
        ("lone-surrogate-escape", Array("{\"username\": \"\\ud800\"}".utf8)),
        ("bad-escape", Array("{\"username\": \"\\x41\"}".utf8)),
        ("control-in-string", Array("{\"username\": \"a\u{1}b\"}".utf8)),
    ]

    @Test(arguments: notDocuments.map(\.name))
    func aFileThatIsNotADocumentIsNamedOrReadCleanly(name: String) throws {
        let bytes = Self.notDocuments.first { $0.name == name }!.bytes
        let folder = try Self.base()
        folder.write("users/\(name).json", bytes: bytes)
        switch build(folder.path) {
        case .storeError(let error):
            #expect("\(error)".contains("users/\(name).json"), "\(error)")
        case .dataErrors(let errors, _):
            // A well-formed document with a bad field: named by document and field.
            #expect(errors.allSatisfy { $0.path == "users/\(name)" && $0.field != nil }, "\(errors.map(\.description))")
        case .built(let site):
            #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
        case .renderError(let message):
            Issue.record("render error: \(message)")
        }
    }

    @Test func theSameFilesAsSingleFileStores() throws {
        for item in Self.notDocuments {
            let folder = try StoreFolder()
            folder.write("export.json", bytes: item.bytes)
            switch build(folder.path + "/export.json") {
            case .storeError(let error):
                #expect("\(error)".contains("export.json"), "\(item.name): \(error)")
            case let other:
                // `[]` is an empty REST array: an empty site is fine.
                #expect(item.name == "array" || item.name == "lone-surrogate-escape", "\(item.name): \(other.summary)")
            }
        }
    }

    /// A file name that is not UTF-8 is skipped (with a note), never a crash.
    @Test func fileNamesThatAreNotUTF8() throws {
        let folder = try Self.base()
        folder.write(
            Array("tweets/".utf8) + [0xFF, 0xFE] + Array(".json".utf8),
            Array(#"{"caption": "x", "timestamp": 0, "uid": "u1"}"#.utf8))
        folder.write(Array("users/".utf8) + [0xC3] + Array("/user-likes/t0.json".utf8), Array("{}".utf8))
        folder.write(
            Array("favorites/u1/favorites/".utf8) + [0x80] + Array(".json".utf8), Array(#"{"placeName": "x"}"#.utf8))
        folder.write(Array("users/u1/user-likes/".utf8) + [0xED, 0xA0, 0x80] + Array(".json".utf8), Array("{}".utf8))
        let outcome = build(folder.path)
        let site = try #require(outcome.site, "\(outcome.summary)")
        #expect(site.store.ignored.count == 4, "\(site.store.ignored)")
        #expect(site.snapshot.tweets.count == 1)
        #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
    }

    // MARK: folders, FIFOs and symbolic links

    @Test func folderWithoutItsFile() throws {
        let folder = try Self.base()
        // A user that is only a folder: their likes are likes by a missing user (a warning).
        folder.document("users/ghost/user-likes/t0.json", [:])
        // A folder where a document file is expected, named like one.
        folder.folder("users/folder.json")
        folder.folder("tweets/empty.json/sub")
        folder.folder("users/u1/user-likes/t0.json")
        // An empty collection and a file where a collection is expected.
        folder.folder("favorites")
        folder.write("users/u1/user-likes.json", "{}")
        let outcome = build(folder.path)
        let site = try #require(outcome.site, "\(outcome.summary)")
        #expect(site.snapshot.users.count == 1 && site.snapshot.tweets.count == 1)
        #expect(site.snapshot.warnings.contains { $0.kind == .likeByMissingUser })
        #expect(siteProblems(site).isEmpty, "\(lines(siteProblems(site)))")
    }

    /// A FIFO or device in the store is never opened (opening a FIFO would hang).
    @Test func fifosAreNeverOpened() throws {
        let folder = try Self.base()
        folder.folder("tweets")
        #expect(mkfifo(folder.path + "/tweets/fifo.json", 0o644) == 0)
        #expect(mkfifo(folder.path + "/users/fifo.json", 0o644) == 0)
        let site = try requireSite(folder.path)
        #expect(site.snapshot.tweets.count == 1)
    }

    /// Symbolic links below the store root are skipped, never followed: their targets are not read.
    @Test func symlinksPointingOutsideAreIgnored() throws {
        let folder = try Self.base()
        let secretTweet = try folder.outside(
            "secret.json", #"{"caption": "TOPSECRET-tweet", "timestamp": 0, "uid": "u1"}"#)
        let brokenJSON = try folder.outside("broken.json", "{ this is not JSON")
        let outsideUser = try folder.outside("users/evil.json", #"{"username": "TOPSECRET-user"}"#)
        _ = try folder.outside("users/evil/user-likes/t0.json", "{ not json either")
        let outsideRoot = (outsideUser as NSString).deletingLastPathComponent
        folder.symlink("tweets/secret.json", to: secretTweet)
        folder.symlink("tweets/broken.json", to: brokenJSON)
        folder.symlink("tweets/relative.json", to: "../../outside/secret.json")
        folder.symlink("tweets/dangling.json", to: "/nonexistent/\(UUID().uuidString).json")
        folder.symlink("tweets/zero.json", to: "/dev/zero")
        folder.symlink("tweets/self.json", to: "self.json")
        folder.symlink("users/evil", to: outsideRoot + "/evil")
        folder.symlink("users/loop", to: ".")
        folder.symlink("favorites", to: outsideRoot)
        folder.symlink("comments", to: "/")
        let site = try requireSite(folder.path)
        #expect(site.snapshot.tweets.map(\.id) == ["t0"])
        #expect(site.snapshot.users.map(\.uid) == ["u1"])
        #expect(site.store.ignored.count == 10, "\(site.store.ignored)")
        #expect(site.store.ignored.allSatisfy { $0.reason.contains("symbolic link") })
        #expect(siteProblems(site, forbidden: ["TOPSECRET"]).isEmpty)
        // Reading one document (what the preview does on a change) refuses links and escapes too.
        for file in [
            "tweets/secret.json", "tweets/broken.json", "users/evil/user-likes/t0.json",
            "../outside/secret.json", "tweets/../../outside/secret.json", folder.root + "/outside/secret.json",
        ] {
            let document = try DirectoryStore.readDocument(file: file, root: folder.path)
            #expect(document == nil, "\(file) was read")
        }
    }

    /// The store root itself may be a link the user named (followed: it is what they asked for).
    @Test func theStoreRootMayBeALink() throws {
        let folder = try Self.base()
        let link = folder.root + "/link"
        #expect(symlink(folder.path, link) == 0)
        let site = try requireSite(link)
        #expect(site.snapshot.tweets.count == 1)
    }
}
