import Foundation
import JSON
import TestSupport
import Testing

@testable import Store

@Suite struct DirectoryStoreWriterTests {
    /// read FILE → write DIR → read DIR gives the same documents, typed values in their plain forms.
    func roundTrip(_ text: String, format: StoreFormat) throws {
        let t = try TemporaryFolder()
        let file = try t.write("in.json", text)
        let single = try DocumentStore.read(at: file)
        #expect(single.format == format)
        try DirectoryStoreWriter.write(single.documents, to: t.path("out"), force: false)
        let dir = try DocumentStore.read(at: t.path("out"))
        #expect(dir.format == .directory)
        #expect(dir.documents.map(\.path) == single.documents.map(\.path))
        for (a, b) in zip(single.documents, dir.documents) {
            #expect(plain(a.fields) == b.fields, "\(a.path)")
            #expect(b.source == a.path.description + ".json")
        }
        #expect(dir.ignored.isEmpty)
    }

    @Test func roundTripNode() throws {
        try roundTrip(SingleFileStoreTests.node, format: .nodeFirestoreImportExport)
    }

    @Test func roundTripExportImport() throws {
        try roundTrip(SingleFileStoreTests.exportImport, format: .firestoreExportImport)
    }

    @Test func roundTripREST() throws {
        let docs =
            "[\(SingleFileStoreTests.restDoc), \(SingleFileStoreTests.restLike), \(SingleFileStoreTests.restUser)]"
        try roundTrip("{\"documents\": \(docs)}", format: .restDocumentsList)
        try roundTrip(docs, format: .restDocumentArray)
        try roundTrip("[{\"document\": \(SingleFileStoreTests.restDoc)}, {\"readTime\": \"x\"}]", format: .restRunQuery)
    }

    /// IDs that differ only in their Unicode form are two documents (SPEC 2.1), as in
    /// Firestore: both are written. (Paths compared as Swift strings took them for one
    /// document given twice, and wrote only the last.)
    @Test func idsInTwoUnicodeFormsAreBothWritten() throws {
        let t = try TemporaryFolder()
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let docs = [composed, decomposed].map { id in
            Document(path: DocumentPath(["tweets", id]), fields: Fields([("caption", .string(id))]), source: "x")
        }
        try DirectoryStoreWriter.write(docs, to: t.path("out"), force: false)
        let read = try DocumentStore.read(at: t.path("out"))
        #expect(Set(read.documents.map { Array($0.path.id.utf8) }) == [Array(decomposed.utf8), Array(composed.utf8)])
    }

    /// Folders too: two users whose IDs differ only in their Unicode form each get their
    /// folder of likes (a set of folders made, compared as Swift strings, made only one, and
    /// the second user's like could not be written).
    @Test func foldersInTwoUnicodeFormsAreBothMade() throws {
        let t = try TemporaryFolder()
        let docs = ["\u{E9}", "e\u{301}"].map { uid in
            Document(path: DocumentPath(["users", uid, "user-likes", "t1"]), fields: Fields(), source: "x")
        }
        try DirectoryStoreWriter.write(docs, to: t.path("out"), force: false)
        let read = try DocumentStore.read(at: t.path("out"))
        #expect(read.documents.count == 2)
        #expect(Set(read.documents.map { Array($0.path.segments[1].utf8) }) == [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
    }

    /// A write that fails partway leaves the destination as it was: missing, or with the
    /// store `force` was to replace; nothing is left beside it.
    @Test func aFailedWriteLeavesTheDestinationAsItWas() throws {
        let t = try TemporaryFolder()
        let good = Document(path: path("users/u1"), fields: Fields([("username", .string("a"))]), source: "x")
        // Each name is allowed; the whole path is longer than the system takes (PATH_MAX).
        let deep = DocumentPath((0..<40).map { String(repeating: $0 % 2 == 0 ? "c" : "d", count: 200) + "\($0)" })
        let bad = Document(path: deep, fields: Fields(), source: "x")
        #expect(storeError { try DirectoryStoreWriter.write([good, bad], to: t.path("new"), force: false) } != nil)
        #expect(!t.exists("new"))
        try t.write("old/users/u0.json", #"{"username": "old"}"#)
        #expect(storeError { try DirectoryStoreWriter.write([good, bad], to: t.path("old"), force: true) } != nil)
        #expect(t.read("old/users/u0.json") == #"{"username": "old"}"#)
        #expect(!t.exists("old/users/u1.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.path()).sorted() == ["old"])
        // And one that succeeds replaces the old store, nothing left beside it either.
        try DirectoryStoreWriter.write([good], to: t.path("old"), force: true)
        #expect(!t.exists("old/users/u0.json") && t.exists("old/users/u1.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.path()).sorted() == ["old"])
    }

    @Test func typedValuesAreWrittenInSPECForms() throws {
        let t = try TemporaryFolder()
        let doc = Document(
            path: path("tweets/t1"),
            fields: Fields([
                ("ts", .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_789))),
                ("whole", .timestamp(Timestamp(seconds: 1_636_104_600))),
                ("ancient", .timestamp(Timestamp(seconds: -70_000_000_000))),
                ("geo", .geoPoint(latitude: 37.5, longitude: 127)),
                ("ref", .reference("users/u1")),
                ("bytes", .bytes("aGk=")),
                ("text", .string("line\n\"q\" </script>")),
            ]), source: "x")
        try DirectoryStoreWriter.write([doc], to: t.path("out"), force: false)
        #expect(
            t.read("out/tweets/t1.json") == """
                {
                  "ts": "2021-11-05T09:30:00.123456789Z",
                  "whole": "2021-11-05T09:30:00Z",
                  "ancient": {
                    "_seconds": -70000000000,
                    "_nanoseconds": 0
                  },
                  "geo": {
                    "_latitude": 37.5,
                    "_longitude": 127.0
                  },
                  "ref": "users/u1",
                  "bytes": "aGk=",
                  "text": "line\\n\\"q\\" </script>"
                }

                """)
        // The written timestamp strings denote exactly the same instants.
        #expect(
            RFC3339.parse("2021-11-05T09:30:00.123456789Z")
                == Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_789))
    }

    @Test func refusesNonEmptyDestinationUnlessForced() throws {
        let t = try TemporaryFolder()
        try t.write("out/old/stale.json", "{}")
        try t.write("out/.keep", "")
        let doc = Document(path: path("users/u1"), fields: Fields([("username", .string("a"))]), source: "x")
        let e = storeError { try DirectoryStoreWriter.write([doc], to: t.path("out"), force: false) }
        #expect(e?.description == "\(t.path("out")): folder is not empty")
        #expect(t.exists("out/old/stale.json"))
        #expect(!t.exists("out/users/u1.json"))

        // A symlink inside is removed, its target untouched.
        let outside = try TemporaryFolder()
        try outside.write("keep.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: t.path("out/link"), withDestinationPath: outside.path())
        try DirectoryStoreWriter.write([doc], to: t.path("out"), force: true)
        #expect(!t.exists("out/old"))
        #expect(!t.exists("out/.keep"))
        #expect(!t.exists("out/link"))
        #expect(outside.exists("keep.json"))
        #expect(try DocumentStore.read(at: t.path("out")).documents.map(\.path) == [path("users/u1")])
    }

    @Test func writesIntoEmptyOrMissingFolder() throws {
        let t = try TemporaryFolder()
        try t.mkdir("empty")
        let doc = Document(path: path("a/b/c/d"), fields: Fields(), source: "x")
        try DirectoryStoreWriter.write([doc], to: t.path("empty"), force: false)
        try DirectoryStoreWriter.write([doc], to: t.path("new/nested"), force: false)
        #expect(t.read("empty/a/b/c/d.json") == "{}\n")
        #expect(t.read("new/nested/a/b/c/d.json") == "{}\n")
        let file = try t.write("file", "x")
        let e = storeError { try DirectoryStoreWriter.write([doc], to: file, force: true) }
        #expect(e?.description == "\(file): exists and is not a folder")
    }

    @Test func lastOfDuplicatePathsWins() throws {
        let t = try TemporaryFolder()
        let docs = (0..<50).map { i in
            Document(
                path: path("users/u1"),
                fields: Fields([("i", .integer(Int64(i))), ("pad", .string(String(repeating: "x", count: 50 - i)))]),
                source: "x")
        }
        try DirectoryStoreWriter.write(docs, to: t.path("out"), force: false)
        let store = try DocumentStore.read(at: t.path("out"))
        #expect(store.documents.count == 1)
        #expect(store.documents.first?.fields["i"] == .integer(49))
    }

    @Test func refusesUnsafeIDs() throws {
        let cases: [([String], String)] = [
            (["users", ".."], "cannot write document users/..: \"..\" is not allowed as a file name"),
            (["users", "."], "cannot write document users/.: \".\" is not allowed as a file name"),
            (["users", ""], "cannot write document users/: \"\" is empty"),
            (["users", "a/b"], "cannot write document users/a/b: \"a/b\" contains '/'"),
            (["users", "a\u{0}b"], "cannot write document users/a\u{0}b: \"a\\0b\" contains a NUL character"),
            (["..", "x"], "cannot write document ../x: \"..\" is not allowed as a file name"),
            (
                ["users", ".hidden"],
                "cannot write document users/.hidden: \".hidden\" starts with '.', which the directory store ignores"
            ),
            (["users", String(repeating: "x", count: 251)], "is longer than 250 bytes"),
            (["users", "u1", String(repeating: "c", count: 256), "x"], "is longer than 255 bytes"),
        ]
        for (segments, message) in cases {
            let t = try TemporaryFolder()
            let good = Document(path: path("users/ok"), fields: Fields(), source: "x")
            let bad = Document(path: DocumentPath(segments), fields: Fields(), source: "x")
            let e = storeError { try DirectoryStoreWriter.write([good, bad], to: t.path("out"), force: false) }
            #expect(e?.description.contains(message) == true, "\(segments): \(String(describing: e))")
            // Nothing at all is written.
            #expect(!t.exists("out"))
        }
        // Long but allowed.
        let t = try TemporaryFolder()
        let ok = Document(
            path: DocumentPath(["users", String(repeating: "가", count: 83)]), fields: Fields(), source: "x")
        try DirectoryStoreWriter.write([ok], to: t.path("out"), force: false)
    }

    @Test func importedDocumentsStayInsideDestination() throws {
        // Hostile IDs from a single-file store are refused before anything is written.
        let t = try TemporaryFolder()
        let file = try t.write(
            "evil.json", #"{"users": {"..": {"x": 1}, "u1": {"subCollection": {"../../etc": {"passwd": {}}}}}}"#)
        let store = try DocumentStore.read(at: file)
        let e = storeError { try DirectoryStoreWriter.write(store.documents, to: t.path("out"), force: false) }
        #expect(e != nil)
        #expect(!t.exists("out"))
    }
}

@Suite struct RFC3339Tests {
    @Test func parses() {
        #expect(RFC3339.parse("1970-01-01T00:00:00Z") == Timestamp(seconds: 0))
        #expect(RFC3339.parse("2021-11-05T09:30:00Z") == Timestamp(seconds: 1_636_104_600))
        #expect(RFC3339.parse("2021-11-05t09:30:00z") == Timestamp(seconds: 1_636_104_600))
        #expect(RFC3339.parse("2021-11-05T18:30:00+09:00") == Timestamp(seconds: 1_636_104_600))
        #expect(RFC3339.parse("2021-11-05T04:00:00-05:30") == Timestamp(seconds: 1_636_104_600))
        #expect(RFC3339.parse("2021-11-05T09:30:00.5Z") == Timestamp(seconds: 1_636_104_600, nanoseconds: 500_000_000))
        #expect(
            RFC3339.parse("2021-11-05T09:30:00.123456789123Z")
                == Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_789))
        #expect(RFC3339.parse("1969-12-31T23:59:59.999Z") == Timestamp(seconds: -1, nanoseconds: 999_000_000))
        #expect(RFC3339.parse("2024-02-29T00:00:00Z") != nil)
        #expect(RFC3339.parse("0001-01-01T00:00:00Z") == Timestamp(seconds: -62_135_596_800))
        #expect(RFC3339.parse("9999-12-31T23:59:59Z") == Timestamp(seconds: 253_402_300_799))
    }

    @Test func rejects() {
        for s in [
            "", "2021-11-05", "2021-11-05T09:30:00", "2021-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
            "2021-11-05T24:00:00Z", "2021-11-05T09:30:00.Z", "2021-11-05T09:30:00Zjunk", "21-11-05T09:30:00Z",
            "2021-11-05T09:30:00+0900", "１９７０-01-01T00:00:00Z",
        ] {
            #expect(RFC3339.parse(s) == nil, "\(s)")
        }
    }

    @Test func formatsAndRoundTrips() {
        #expect(RFC3339.format(Timestamp(seconds: 0)) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.format(Timestamp(seconds: 1_636_104_600, nanoseconds: 1)) == "2021-11-05T09:30:00.000000001Z")
        #expect(RFC3339.format(Timestamp(seconds: -1, nanoseconds: 999_000_000)) == "1969-12-31T23:59:59.999000000Z")
        #expect(RFC3339.format(Timestamp(seconds: 253_402_300_800)) == nil)
        var seed: UInt64 = 42
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let s = Int64(bitPattern: seed >> 1) % 253_402_300_799
            let n = Int32((seed >> 7) % 1_000_000_000)
            let t = Timestamp(seconds: s, nanoseconds: seed % 3 == 0 ? 0 : n)
            #expect(RFC3339.parse(RFC3339.format(t)!) == t)
        }
    }
}
