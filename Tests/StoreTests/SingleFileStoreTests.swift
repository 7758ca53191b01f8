import Foundation
import JSON
import TestSupport
import Testing

@testable import Store

@Suite struct SingleFileStoreTests {
    // MARK: node-firestore-import-export

    static let node = """
        {"__collections__": {
          "users": {
            "u1": {"username": "alice", "__collections__": {
              "user-likes": {"t1": {"timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1636104600, "_nanoseconds": 5}}}}
            }},
            "u2": {"username": "bob", "__collections__": {}}
          },
          "tweets": {
            "t1": {"caption": "hi", "uid": "u1",
                   "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1636104600, "_nanoseconds": 0}},
                   "where": {"__datatype__": "geopoint", "value": {"_latitude": 37.5, "_longitude": 127}},
                   "author": {"__datatype__": "documentReference", "value": "users/u1"},
                   "list": [{"__datatype__": "timestamp", "value": {"_seconds": 0, "_nanoseconds": 0}}],
                   "odd": {"__datatype__": "mystery", "value": 1}}
          },
          "favorites": {"u1": {"__collections__": {"favorites": {"p1": {"placeName": "Cafe"}}}}}
        }}
        """

    @Test func nodeFirestoreImportExport() throws {
        let t = try TemporaryFolder()
        let file = try t.write("export.json", Self.node)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .nodeFirestoreImportExport)
        #expect(
            store.documents.map(\.path.description) == [
                "favorites/u1/favorites/p1", "tweets/t1", "users/u1", "users/u1/user-likes/t1", "users/u2",
            ])
        #expect(store.documents.allSatisfy { $0.source == file })
        let tweet = store.documents.first { $0.path == path("tweets/t1") }!
        #expect(tweet.fields["timestamp"] == .timestamp(Timestamp(seconds: 1_636_104_600)))
        #expect(tweet.fields["where"] == .geoPoint(latitude: 37.5, longitude: 127))
        #expect(tweet.fields["author"] == .reference("users/u1"))
        #expect(tweet.fields["list"] == .array([.timestamp(Timestamp(seconds: 0))]))
        guard case .map(let odd)? = tweet.fields["odd"] else {
            Issue.record("unknown datatype should stay a map")
            return
        }
        #expect(odd["__datatype__"] == .string("mystery"))
        let like = store.documents.first { $0.path == path("users/u1/user-likes/t1") }!
        #expect(like.fields["timestamp"] == .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 5)))
        let u1 = store.documents.first { $0.path == path("users/u1") }!
        #expect(u1.fields.pairs.map(\.key) == ["username"])
        // favorites/u1, an object holding only `__collections__`, is a missing parent.
        #expect(store.missingParents == [path("favorites/u1")])
        // `"__collections__": {}` alone (the tool writes it on every document): no fields.
        #expect(store.documents.first { $0.path == path("users/u2") }?.fields.pairs.map(\.key) == ["username"])
    }

    // MARK: firestore-export-import

    static let exportImport = """
        {
          "users": {
            "u1": {"username": "alice", "subCollection": {
              "users/u1/user-likes": {"t1": {"timestamp": {"_seconds": 1636104600, "_nanoseconds": 123000000}}}
            }}
          },
          "tweets": {
            "t1": {"caption": "hi", "timestamp": {"_seconds": 1636104600, "_nanoseconds": 0},
                   "place": {"_latitude": 37.5, "_longitude": 127.25},
                   "notTs": {"_seconds": 1, "_nanoseconds": 2, "extra": 3},
                   "nested": {"when": {"_seconds": 5, "_nanoseconds": 0}},
                   "subCollection": "just a field"}
          },
          "favorites": {
            "u1": {"subCollection": {"favorites": {"p1": {"placeName": "Cafe", "coordinate": {"_latitude": 1, "_longitude": 2}}}}}
          }
        }
        """

    @Test func firestoreExportImport() throws {
        let t = try TemporaryFolder()
        let file = try t.write("backup.json", Self.exportImport)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .firestoreExportImport)
        #expect(
            store.documents.map(\.path.description) == [
                "favorites/u1", "favorites/u1/favorites/p1", "tweets/t1", "users/u1", "users/u1/user-likes/t1",
            ])
        let tweet = store.documents.first { $0.path == path("tweets/t1") }!
        #expect(tweet.fields["timestamp"] == .timestamp(Timestamp(seconds: 1_636_104_600)))
        #expect(tweet.fields["place"] == .geoPoint(latitude: 37.5, longitude: 127.25))
        guard case .map(let notTs)? = tweet.fields["notTs"] else {
            Issue.record("a map with extra keys stays a map")
            return
        }
        #expect(notTs.count == 3)
        #expect(tweet.fields["nested"] == .map(Fields([("when", .timestamp(Timestamp(seconds: 5)))])))
        #expect(tweet.fields["subCollection"] == .string("just a field"))
        let like = store.documents.first { $0.path == path("users/u1/user-likes/t1") }!
        #expect(like.fields["timestamp"] == .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 123_000_000)))
        let place = store.documents.first { $0.path == path("favorites/u1/favorites/p1") }!
        #expect(place.fields["coordinate"] == .geoPoint(latitude: 1, longitude: 2))
        #expect(store.documents.first { $0.path == path("users/u1") }?.fields.pairs.map(\.key) == ["username"])
    }

    // MARK: REST

    static let restFields = """
        "fields": {
          "s": {"stringValue": "hello"},
          "i": {"integerValue": "-9223372036854775808"},
          "d": {"doubleValue": 2.5},
          "dInt": {"doubleValue": 3},
          "nan": {"doubleValue": "NaN"},
          "b": {"booleanValue": true},
          "n": {"nullValue": null},
          "ts": {"timestampValue": "2021-11-05T09:30:00.123456789Z"},
          "tsOffset": {"timestampValue": "2021-11-05T18:30:00+09:00"},
          "geo": {"geoPointValue": {"latitude": 37.5, "longitude": 127.25}},
          "geoZero": {"geoPointValue": {"longitude": 1}},
          "ref": {"referenceValue": "projects/p/databases/(default)/documents/users/u1"},
          "bytes": {"bytesValue": "aGVsbG8="},
          "arr": {"arrayValue": {"values": [{"integerValue": "1"}, {"stringValue": "x"}]}},
          "emptyArr": {"arrayValue": {}},
          "map": {"mapValue": {"fields": {"k": {"booleanValue": false}}}},
          "emptyMap": {"mapValue": {}}
        }
        """

    static let expectedRESTFields = Fields([
        ("s", .string("hello")),
        ("i", .integer(.min)),
        ("d", .double(2.5)),
        ("dInt", .double(3)),
        ("nan", .double(.nan)),  // compared separately
        ("b", .bool(true)),
        ("n", .null),
        ("ts", .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_789))),
        ("tsOffset", .timestamp(Timestamp(seconds: 1_636_104_600))),
        ("geo", .geoPoint(latitude: 37.5, longitude: 127.25)),
        ("geoZero", .geoPoint(latitude: 0, longitude: 1)),
        ("ref", .reference("users/u1")),
        ("bytes", .bytes("aGVsbG8=")),
        ("arr", .array([.integer(1), .string("x")])),
        ("emptyArr", .array([])),
        ("map", .map(Fields([("k", .bool(false))]))),
        ("emptyMap", .map(Fields())),
    ])

    func checkRESTDocument(_ d: Document) {
        #expect(d.path == path("tweets/t1"))
        #expect(d.fields.pairs.map(\.key) == Self.expectedRESTFields.pairs.map(\.key))
        for (key, value) in Self.expectedRESTFields where key != "nan" {
            #expect(d.fields[key] == value, "field \(key)")
        }
        if case .double(let x)? = d.fields["nan"] { #expect(x.isNaN) } else { Issue.record("nan") }
    }

    static let restDoc = """
        {"name": "projects/p/databases/(default)/documents/tweets/t1", \(restFields),
         "createTime": "2021-11-05T09:30:00Z", "updateTime": "2021-11-05T09:30:00Z"}
        """
    static let restLike = #"{"name": "projects/p/databases/(default)/documents/users/u1/user-likes/t1", "fields": {}}"#
    static let restUser = #"{"name": "projects/p/databases/(default)/documents/users/u1"}"#

    @Test func restDocumentsList() throws {
        let t = try TemporaryFolder()
        let file = try t.write(
            "list.json",
            "{\"documents\": [\(Self.restDoc), \(Self.restLike), \(Self.restUser)], \"nextPageToken\": \"abc\"}")
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .restDocumentsList)
        #expect(store.documents.map(\.path.description) == ["tweets/t1", "users/u1", "users/u1/user-likes/t1"])
        checkRESTDocument(store.documents[0])
        #expect(store.documents[1].fields.isEmpty)
        #expect(store.missingParents.isEmpty)
    }

    @Test func restRunQuery() throws {
        let t = try TemporaryFolder()
        let file = try t.write(
            "query.json",
            """
            [{"document": \(Self.restDoc), "readTime": "2021-11-05T09:30:00Z"},
             {"readTime": "2021-11-05T09:30:00Z"},
             {"document": \(Self.restLike), "readTime": "2021-11-05T09:30:00Z", "skippedResults": 1}]
            """)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .restRunQuery)
        #expect(store.documents.map(\.path.description) == ["tweets/t1", "users/u1/user-likes/t1"])
        checkRESTDocument(store.documents[0])
        #expect(store.missingParents == [path("users/u1")])
    }

    @Test func restDocumentArray() throws {
        let t = try TemporaryFolder()
        let file = try t.write("array.json", "[\(Self.restLike), \(Self.restDoc)]")
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .restDocumentArray)
        #expect(store.documents.map(\.path.description) == ["tweets/t1", "users/u1/user-likes/t1"])
        checkRESTDocument(store.documents[0])
    }

    @Test func emptyShapes() throws {
        let t = try TemporaryFolder()
        #expect(try DocumentStore.read(at: t.write("a.json", "[]")).documents.isEmpty)
        #expect(try DocumentStore.read(at: t.write("b.json", "{}")).documents.isEmpty)
        #expect(try DocumentStore.read(at: t.write("c.json", #"{"documents": []}"#)).format == .restDocumentsList)
        #expect(
            try DocumentStore.read(at: t.write("d.json", #"{"__collections__": {}}"#)).format
                == .nodeFirestoreImportExport)
    }

    // MARK: errors

    @Test func unrecognisedShapes() throws {
        let t = try TemporaryFolder()
        let cases: [(String, String)] = [
            ("\"text\"", "the top level is a string"),
            ("[1, 2]", "array element [0] is not a REST document with a \"name\""),
            (#"{"users": [1]}"#, "top-level key \"users\" holds an array, expected an object of documents"),
            (#"{"users": {"u1": 5}}"#, "\"users\".\"u1\" is a number, expected a document object"),
            (#"{"__collections__": []}"#, "\"__collections__\" is an array, expected an object of collections"),
        ]
        for (k, (text, detail)) in cases.enumerated() {
            let file = try t.write("f\(k).json", text)
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(
                e?.description.hasPrefix(
                    "\(file): not a recognised single-file store (\(detail)); accepted: node-firestore-import-export")
                    == true,
                "\(text): \(String(describing: e))")
        }
    }

    @Test func invalidJSONInSingleFile() throws {
        let t = try TemporaryFolder()
        let file = try t.write("bad.json", "{\"documents\": [\n  {\"name\": \"x\",}\n]}")
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file):2:16: invalid JSON: trailing comma before '}'")
        let utf = try t.write("utf.json", bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D])
        #expect(
            storeError { try DocumentStore.read(at: utf) }?.description.hasPrefix("\(utf):1:3: invalid UTF-8") == true)
    }

    @Test func restUnknownValueTypeNamesDocumentAndField() throws {
        let t = try TemporaryFolder()
        let file = try t.write(
            "r.json",
            """
            {"documents": [{"name": "projects/p/databases/d/documents/tweets/t1",
              "fields": {"meta": {"mapValue": {"fields": {"when": {"dateValue": "x"}}}}}}]}
            """)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(
            e?.description.hasPrefix(
                "\(file): document tweets/t1, field meta.when: unknown Firestore REST value type \"dateValue\"") == true
        )
    }

    @Test func restInvalidValues() throws {
        let t = try TemporaryFolder()
        let cases: [(String, String)] = [
            (#"{"integerValue": "12x"}"#, "field f: integerValue \"12x\" is not a 64-bit integer"),
            (#"{"timestampValue": "yesterday"}"#, "field f: timestampValue \"yesterday\" is not an RFC 3339 timestamp"),
            (
                #"{"arrayValue": {"values": [{"booleanValue": "yes"}]}}"#,
                "field f[0]: booleanValue is a string, expected true or false"
            ),
            (#""plain""#, "field f: expected a typed value such as {\"stringValue\": …}, found a string"),
        ]
        for (k, (value, message)) in cases.enumerated() {
            let file = try t.write(
                "v\(k).json", #"[{"name": "projects/p/databases/d/documents/users/u1", "fields": {"f": \#(value)}}]"#)
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(e?.description == "\(file): document users/u1, \(message)")
        }
    }

    @Test func restBadDocumentName() throws {
        let t = try TemporaryFolder()
        let file = try t.write("n.json", #"{"documents": [{"name": "projects/p/databases/d/documents/users"}]}"#)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(
            e?.description.hasPrefix(
                "\(file): documents[0]: \"name\": \"projects/p/databases/d/documents/users\" is not a document name")
                == true)
    }

    @Test func restNamesWithoutADocumentPath() throws {
        let t = try TemporaryFolder()
        for (k, name) in [
            "projects/p/databases/d/documents", "projects/p/databases/d/documents/", "", "/", "users//u1", "a/b/c",
        ].enumerated() {
            let file = try t.write("n\(k).json", "[{\"name\": \"\(name)\"}]")
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(e?.description.contains("is not a document name") == true, "\(name)")
        }
        // References keep what follows the prefix; names without the prefix are paths.
        #expect(SingleFileStore.stripDatabasePrefix("projects/p/databases/(default)/documents/users/u1") == "users/u1")
        #expect(SingleFileStore.stripDatabasePrefix("/users/u1") == "users/u1")
        #expect(SingleFileStore.stripDatabasePrefix("users/u1") == "users/u1")
    }

    @Test func documentNotAnObjectInSingleFile() throws {
        let t = try TemporaryFolder()
        let file = try t.write(
            "n.json", #"{"__collections__": {"users": {"u1": {"__collections__": {"user-likes": {"t1": [1]}}}}}}"#)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file): document users/u1/user-likes/t1 is an array, not a JSON object")
    }

    @Test func hostileDeepSingleFile() throws {
        let t = try TemporaryFolder()
        let file = try t.write("deep.json", String(repeating: "[", count: 200_000))
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file):1:513: invalid JSON: nesting deeper than 512 levels")
    }
}

/// Path order and missing parents of single-file stores, against the directory store.
@Suite struct SingleFileOrderTests {
    /// IDs whose order differs between "/"-joined and segment-wise comparison (`a/b` and
    /// `a-b`, `u1/…` and `u1x`), and non-ASCII IDs whose string order is not their byte order:
    /// Å (U+212B ANGSTROM SIGN, canonically U+00C5), K (U+212A KELVIN SIGN, canonically `K`),
    /// `a` + U+0308 (canonically ä).
    static let paths = [
        "a/b", "a/b/c/d", "a/b-c", "a/b/c/d-e", "a/b/c/d/e/f", "a/b c", "a/b!", "a-b/x", "a.b/x", "A/b",
        "users/u1", "users/u1/user-likes/x", "users/u1x", "users/u1-", "users/u1/user-likes-x/y",
        "users/u1/user-likes/x/z/w", "users/u1!/l/x", "users/U1", "users/u",
        "c/z", "c/é", "c/\u{212B}", "c/\u{212A}1", "c/L", "c/K0", "c/ä/x/y", "c/a\u{308}b", "c/b",
        "tweets/t1", "tweets/t10", "tweets/t2", "tweets/T1", "tweets/t 1", "tweets/日本",
    ]

    /// `paths` as a directory store.
    static func directory(_ t: TemporaryFolder, _ paths: [String]) throws -> String {
        for p in paths { try t.write("dir/\(p).json", "{\"p\": \"\(p)\"}") }
        return t.path("dir")
    }

    /// `paths` as a REST document array, in the given order.
    static func restArray(_ paths: [String]) -> String {
        "["
            + paths.map {
                "{\"name\": \"projects/p/databases/(default)/documents/\($0)\", \"fields\": {\"p\": {\"stringValue\": \"\($0)\"}}}"
            }
            .joined(separator: ",\n") + "]"
    }

    /// A fixed shuffle: every 7th element, cycling.
    static func scrambled<T>(_ a: [T]) -> [T] {
        var out: [T] = []
        for start in 0..<7 { out += stride(from: start, to: a.count, by: 7).map { a[$0] } }
        return out.reversed()
    }

    @Test func unsortedInputComesOutSortedLikeTheDirectoryStore() throws {
        let t = try TemporaryFolder()
        let directory = try DocumentStore.read(at: Self.directory(t, Self.paths))
        let input = Self.scrambled(Self.paths)
        let single = try DocumentStore.read(at: t.write("array.json", Self.restArray(input)))
        #expect(single.documents.map(\.path) == directory.documents.map(\.path))
        #expect(single.documents.map(\.path) == Self.paths.map(path).sorted())
        #expect(single.documents.map { $0.fields["p"] } == directory.documents.map { $0.fields["p"] })
        #expect(single.missingParents == directory.missingParents)
        #expect(single.missingParents.map(\.description) == ["c/ä", "users/u1!"])
        let order = single.documents.map(\.path.description)
        #expect(order.firstIndex(of: "a/b/c/d")! < order.firstIndex(of: "a/b-c")!)
        #expect(order.firstIndex(of: "users/u1/user-likes/x")! < order.firstIndex(of: "users/u1x")!)
        #expect(order.firstIndex(of: "users/u1/user-likes/x")! < order.firstIndex(of: "users/u1-")!)
        #expect(order.firstIndex(of: "c/\u{212A}1")! < order.firstIndex(of: "c/L")!)
        #expect(order.firstIndex(of: "c/\u{212B}")! < order.firstIndex(of: "c/é")!)
        #expect(order.firstIndex(of: "c/ä/x/y")! < order.firstIndex(of: "c/a\u{308}b")!)
        // In order already: the same result.
        let sorted = try DocumentStore.read(at: t.write("sorted.json", Self.restArray(order)))
        #expect(
            sorted.documents == single.documents.map { Document(path: $0.path, fields: $0.fields, source: sorted.path) }
        )
        #expect(sorted.missingParents == single.missingParents)
    }

    @Test func documentsWithTheSamePathKeepTheirInputOrder() throws {
        let t = try TemporaryFolder()
        let doc = { (p: String, v: Int) in
            "{\"name\": \"projects/p/databases/d/documents/\(p)\", \"fields\": {\"v\": {\"integerValue\": \"\(v)\"}}}"
        }
        for (k, docs) in [
            [doc("users/u2", 0), doc("users/u1", 1), doc("users/u1", 2), doc("users/u1/l/x", 3), doc("users/u1", 4)],
            [doc("users/u1", 1), doc("users/u1", 2), doc("users/u1", 4), doc("users/u1/l/x", 3), doc("users/u2", 0)],
        ].enumerated() {
            let store = try DocumentStore.read(at: t.write("d\(k).json", "[\(docs.joined(separator: ","))]"))
            #expect(
                store.documents.map(\.path.description) == [
                    "users/u1", "users/u1", "users/u1", "users/u1/l/x", "users/u2",
                ])
            #expect(store.documents.map { $0.fields["v"] } == [1, 2, 4, 3, 0].map { .integer($0) })
            #expect(store.missingParents.isEmpty)
        }
    }

    @Test func missingParentsOfNestedSubcollections() throws {
        let t = try TemporaryFolder()
        // a/x and a/x/b/y hold only subcollections; a/w has a body, a/w/b/y does not.
        let node = try DocumentStore.read(
            at: t.write(
                "node.json",
                """
                {"__collections__": {"a": {
                  "x": {"__collections__": {"b": {"y": {"__collections__": {"c": {"z": {"v": 1, "__collections__": {}}}}}}}},
                  "w": {"f": 1, "__collections__": {"b": {"y": {"__collections__": {"c": {"z": {}}}}}}}
                }}}
                """))
        let expected = ["a/w/b/y", "a/x", "a/x/b/y"].map(path)
        #expect(node.documents.map(\.path.description) == ["a/w", "a/w/b/y/c/z", "a/x/b/y/c/z"])
        #expect(node.missingParents == expected)
        // Without any holder objects: the same parents, from the documents below them.
        let rest = try DocumentStore.read(
            at: t.write("rest.json", Self.restArray(["a/x/b/y/c/z", "a/w/b/y/c/z", "a/w"])))
        #expect(rest.documents.map(\.path) == node.documents.map(\.path))
        #expect(rest.missingParents == expected)
        let directory = try DocumentStore.read(at: Self.directory(t, ["a/x/b/y/c/z", "a/w/b/y/c/z", "a/w"]))
        #expect(directory.missingParents == expected)
        // firestore-export-import with full subcollection paths.
        let exportImport = try DocumentStore.read(
            at: t.write(
                "ei.json",
                """
                {"a": {"w": {"f": 1, "subCollection": {"a/w/b/y/c": {"z": {}}, "a/x/b/y/c": {"z": {}}}}}}
                """))
        #expect(exportImport.documents.map(\.path) == node.documents.map(\.path))
        #expect(exportImport.missingParents == expected)
    }

    @Test func collectionsOnlyObjectIsAMissingParent() throws {
        let t = try TemporaryFolder()
        let file = try t.write(
            "node.json",
            """
            {"__collections__": {"favorites": {
              "u3": {"__collections__": {"favorites": {}}},
              "u1": {"__collections__": {"favorites": {"p1": {"placeName": "Cafe", "__collections__": {}}}}},
              "u2": {"__collections__": {}}
            }, "users": {"u1": {"username": "a"}}}}
            """)
        let store = try DocumentStore.read(at: file)
        // u2 is a document without fields (the tool writes `"__collections__": {}` on every document).
        #expect(store.documents.map(\.path.description) == ["favorites/u1/favorites/p1", "favorites/u2", "users/u1"])
        #expect(store.documents[1].fields.isEmpty)
        #expect(store.missingParents.map(\.description) == ["favorites/u1", "favorites/u3"])

        // Imported: no favorites/u1.json; a folder for each missing parent, as the directory store has.
        try DirectoryStoreWriter.write(
            store.documents, to: t.path("out"), force: false, missingParents: store.missingParents)
        #expect(!t.exists("out/favorites/u1.json") && !t.exists("out/favorites/u3.json"))
        #expect(t.exists("out/favorites/u1") && t.exists("out/favorites/u3") && t.exists("out/favorites/u2.json"))
        let back = try DocumentStore.read(at: t.path("out"))
        #expect(back.documents.map(\.path) == store.documents.map(\.path))
        #expect(back.missingParents == store.missingParents)
    }

    @Test func unsafeMissingParentIsRefusedBeforeWriting() throws {
        let t = try TemporaryFolder()
        let e = storeError {
            try DirectoryStoreWriter.write(
                [], to: t.path("out"), force: false, missingParents: [DocumentPath(["favorites", ".."])])
        }
        #expect(e?.description.contains("favorites/..") == true)
        #expect(!t.exists("out"))
    }

    // MARK: against the former implementation

    /// The order before `PathOrder`: one NUL-joined string per document, a (stable) sort.
    static func referenceSort(_ documents: [Document]) -> [Document] {
        var keyed = documents.map { (key: $0.path.segments.joined(separator: "\u{0}"), document: $0) }
        keyed.sort { $0.key < $1.key }
        return keyed.map(\.document)
    }

    /// Missing parents before `PathOrder`: sets of paths.
    static func referenceMissingParents(_ documents: [Document]) -> [DocumentPath] {
        var present = Set<DocumentPath>()
        for d in documents { present.insert(d.path) }
        var missing = Set<DocumentPath>()
        for d in documents {
            var p = d.path.parent
            while let q = p, !present.contains(q) {
                if !missing.insert(q).inserted { break }
                p = q.parent
            }
        }
        return missing.sorted()
    }

    @Test(arguments: 0..<40)
    func matchesTheFormerSortAndMissingParents(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        // Including canonically equivalent IDs (é, e + U+0301) and, from seed 20 on, a NUL.
        var ids = ["a", "b", "a-b", "a b", "ab", "A", "é", "e\u{301}", "\u{212B}", "Å", "z", "0", "u1", "u1x", "日"]
        if seed >= 20 { ids.append("a\u{0}b") }
        let collections = ["c", "d", "c-d", "user-likes"]
        var documents: [Document] = []
        for k in 0..<(50 + next(300)) {
            var segments: [String] = []
            for _ in 0...next(3) { segments += [collections[next(collections.count)], ids[next(ids.count)]] }
            documents.append(
                Document(path: DocumentPath(segments), fields: Fields([("k", .integer(Int64(k)))]), source: ""))
        }
        if seed % 4 == 0 { documents = Self.referenceSort(documents) }  // in order already
        let expected = Self.referenceSort(documents)
        var sorted = documents
        let missing = PathOrder.arrange(&sorted)
        #expect(sorted == expected)
        #expect(missing == Self.referenceMissingParents(expected))
        #expect(DocumentStore.missingParents(of: documents) == Self.referenceMissingParents(expected))
    }
}
