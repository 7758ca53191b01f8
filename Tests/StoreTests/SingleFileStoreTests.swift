import Foundation
import Testing
import JSON
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
        let t = TempDir()
        let file = t.write("export.json", Self.node)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .nodeFirestoreImportExport)
        #expect(store.documents.map(\.path.description) == [
            "favorites/u1", "favorites/u1/favorites/p1", "tweets/t1", "users/u1", "users/u1/user-likes/t1", "users/u2",
        ])
        #expect(store.documents.allSatisfy { $0.source == file })
        let tweet = store.documents.first { $0.path == path("tweets/t1") }!
        #expect(tweet.fields["timestamp"] == .timestamp(Timestamp(seconds: 1636104600)))
        #expect(tweet.fields["where"] == .geoPoint(latitude: 37.5, longitude: 127))
        #expect(tweet.fields["author"] == .reference("users/u1"))
        #expect(tweet.fields["list"] == .array([.timestamp(Timestamp(seconds: 0))]))
        guard case .map(let odd)? = tweet.fields["odd"] else { Issue.record("unknown datatype should stay a map"); return }
        #expect(odd["__datatype__"] == .string("mystery"))
        let like = store.documents.first { $0.path == path("users/u1/user-likes/t1") }!
        #expect(like.fields["timestamp"] == .timestamp(Timestamp(seconds: 1636104600, nanoseconds: 5)))
        let u1 = store.documents.first { $0.path == path("users/u1") }!
        #expect(u1.fields.pairs.map(\.key) == ["username"])
        // favorites/u1 exists as a document with no fields here (the export writes it).
        #expect(store.documents.first { $0.path == path("favorites/u1") }?.fields.isEmpty == true)
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
        let t = TempDir()
        let file = t.write("backup.json", Self.exportImport)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .firestoreExportImport)
        #expect(store.documents.map(\.path.description) == [
            "favorites/u1", "favorites/u1/favorites/p1", "tweets/t1", "users/u1", "users/u1/user-likes/t1",
        ])
        let tweet = store.documents.first { $0.path == path("tweets/t1") }!
        #expect(tweet.fields["timestamp"] == .timestamp(Timestamp(seconds: 1636104600)))
        #expect(tweet.fields["place"] == .geoPoint(latitude: 37.5, longitude: 127.25))
        guard case .map(let notTs)? = tweet.fields["notTs"] else { Issue.record("a map with extra keys stays a map"); return }
        #expect(notTs.count == 3)
        #expect(tweet.fields["nested"] == .map(Fields([("when", .timestamp(Timestamp(seconds: 5)))])))
        #expect(tweet.fields["subCollection"] == .string("just a field"))
        let like = store.documents.first { $0.path == path("users/u1/user-likes/t1") }!
        #expect(like.fields["timestamp"] == .timestamp(Timestamp(seconds: 1636104600, nanoseconds: 123_000_000)))
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
        ("nan", .double(.nan)), // compared separately
        ("b", .bool(true)),
        ("n", .null),
        ("ts", .timestamp(Timestamp(seconds: 1636104600, nanoseconds: 123_456_789))),
        ("tsOffset", .timestamp(Timestamp(seconds: 1636104600))),
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
        let t = TempDir()
        let file = t.write("list.json", "{\"documents\": [\(Self.restDoc), \(Self.restLike), \(Self.restUser)], \"nextPageToken\": \"abc\"}")
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .restDocumentsList)
        #expect(store.documents.map(\.path.description) == ["tweets/t1", "users/u1", "users/u1/user-likes/t1"])
        checkRESTDocument(store.documents[0])
        #expect(store.documents[1].fields.isEmpty)
        #expect(store.missingParents.isEmpty)
    }

    @Test func restRunQuery() throws {
        let t = TempDir()
        let file = t.write("query.json", """
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
        let t = TempDir()
        let file = t.write("array.json", "[\(Self.restLike), \(Self.restDoc)]")
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .restDocumentArray)
        #expect(store.documents.map(\.path.description) == ["tweets/t1", "users/u1/user-likes/t1"])
        checkRESTDocument(store.documents[0])
    }

    @Test func emptyShapes() throws {
        let t = TempDir()
        #expect(try DocumentStore.read(at: t.write("a.json", "[]")).documents.isEmpty)
        #expect(try DocumentStore.read(at: t.write("b.json", "{}")).documents.isEmpty)
        #expect(try DocumentStore.read(at: t.write("c.json", #"{"documents": []}"#)).format == .restDocumentsList)
        #expect(try DocumentStore.read(at: t.write("d.json", #"{"__collections__": {}}"#)).format == .nodeFirestoreImportExport)
    }

    // MARK: errors

    @Test func unrecognisedShapes() {
        let t = TempDir()
        let cases: [(String, String)] = [
            ("\"text\"", "the top level is a string"),
            ("[1, 2]", "array element [0] is not a REST document with a \"name\""),
            (#"{"users": [1]}"#, "top-level key \"users\" holds an array, expected an object of documents"),
            (#"{"users": {"u1": 5}}"#, "\"users\".\"u1\" is a number, expected a document object"),
            (#"{"__collections__": []}"#, "\"__collections__\" is an array, expected an object of collections"),
        ]
        for (k, (text, detail)) in cases.enumerated() {
            let file = t.write("f\(k).json", text)
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(e?.description.hasPrefix("\(file): not a recognised single-file store (\(detail)); accepted: node-firestore-import-export") == true,
                    "\(text): \(String(describing: e))")
        }
    }

    @Test func invalidJSONInSingleFile() {
        let t = TempDir()
        let file = t.write("bad.json", "{\"documents\": [\n  {\"name\": \"x\",}\n]}")
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file):2:16: invalid JSON: trailing comma before '}'")
        let utf = t.write("utf.json", bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D])
        #expect(storeError { try DocumentStore.read(at: utf) }?.description.hasPrefix("\(utf):1:3: invalid UTF-8") == true)
    }

    @Test func restUnknownValueTypeNamesDocumentAndField() {
        let t = TempDir()
        let file = t.write("r.json", """
        {"documents": [{"name": "projects/p/databases/d/documents/tweets/t1",
          "fields": {"meta": {"mapValue": {"fields": {"when": {"dateValue": "x"}}}}}}]}
        """)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description.hasPrefix("\(file): document tweets/t1, field meta.when: unknown Firestore REST value type \"dateValue\"") == true)
    }

    @Test func restInvalidValues() {
        let t = TempDir()
        let cases: [(String, String)] = [
            (#"{"integerValue": "12x"}"#, "field f: integerValue \"12x\" is not a 64-bit integer"),
            (#"{"timestampValue": "yesterday"}"#, "field f: timestampValue \"yesterday\" is not an RFC 3339 timestamp"),
            (#"{"arrayValue": {"values": [{"booleanValue": "yes"}]}}"#, "field f[0]: booleanValue is a string, expected true or false"),
            (#""plain""#, "field f: expected a typed value such as {\"stringValue\": …}, found a string"),
        ]
        for (k, (value, message)) in cases.enumerated() {
            let file = t.write("v\(k).json", #"[{"name": "projects/p/databases/d/documents/users/u1", "fields": {"f": \#(value)}}]"#)
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(e?.description == "\(file): document users/u1, \(message)")
        }
    }

    @Test func restBadDocumentName() {
        let t = TempDir()
        let file = t.write("n.json", #"{"documents": [{"name": "projects/p/databases/d/documents/users"}]}"#)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description.hasPrefix("\(file): documents[0]: \"name\": \"projects/p/databases/d/documents/users\" is not a document name") == true)
    }

    @Test func restNamesWithoutADocumentPath() {
        let t = TempDir()
        for (k, name) in ["projects/p/databases/d/documents", "projects/p/databases/d/documents/", "", "/", "users//u1", "a/b/c"].enumerated() {
            let file = t.write("n\(k).json", "[{\"name\": \"\(name)\"}]")
            let e = storeError { try DocumentStore.read(at: file) }
            #expect(e?.description.contains("is not a document name") == true, "\(name)")
        }
        // References keep what follows the prefix; names without the prefix are paths.
        #expect(SingleFileStore.stripDatabasePrefix("projects/p/databases/(default)/documents/users/u1") == "users/u1")
        #expect(SingleFileStore.stripDatabasePrefix("/users/u1") == "users/u1")
        #expect(SingleFileStore.stripDatabasePrefix("users/u1") == "users/u1")
    }

    @Test func documentNotAnObjectInSingleFile() {
        let t = TempDir()
        let file = t.write("n.json", #"{"__collections__": {"users": {"u1": {"__collections__": {"user-likes": {"t1": [1]}}}}}}"#)
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file): document users/u1/user-likes/t1 is an array, not a JSON object")
    }

    @Test func hostileDeepSingleFile() {
        let t = TempDir()
        let file = t.write("deep.json", String(repeating: "[", count: 200_000))
        let e = storeError { try DocumentStore.read(at: file) }
        #expect(e?.description == "\(file):1:513: invalid JSON: nesting deeper than 512 levels")
    }
}
