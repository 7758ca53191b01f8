import Foundation
import Model
import Store
import TestSupport
import Testing

/// The same small store in every single-file format of SPEC 2.2: reading each gives the
/// same snapshot, and so does reading the directory store `roost import` writes from it.
@Suite("Import: every single-file format round-trips to the same model")
struct ImportRoundTripTests {
    static let t1 = 1_672_531_200, t2 = 1_672_534_800, liked = 1_672_617_600

    static let formats: [String: String] = [
        "node-firestore-import-export": """
        {"__collections__": {
          "users": {
            "u1": {"username": "alice", "fullname": "Alice", "email": "a@example.com", "__collections__": {}},
            "u2": {"username": "bob", "__collections__": {"user-likes": {
              "t1": {"timestamp": {"__datatype__": "timestamp", "value": {"_seconds": \(liked), "_nanoseconds": 5}}, "__collections__": {}}}}}
          },
          "tweets": {
            "t1": {"caption": "hi #Swift", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": \(t1), "_nanoseconds": 0}}, "uid": "u1", "likes": 1, "__collections__": {}},
            "t2": {"caption": "@alice yes", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": \(t2), "_nanoseconds": 0}}, "uid": "u2", "replyTo": "t1", "__collections__": {}}
          },
          "favorites": {
            "u1": {"__collections__": {"favorites": {
              "p1": {"placeName": "Cafe", "coordinate": {"__datatype__": "geopoint", "value": {"_latitude": 37.5, "_longitude": 127.25}}, "__collections__": {}}}}}
          }
        }}
        """,
        "firestore-export-import": """
        {
          "users": {
            "u1": {"username": "alice", "fullname": "Alice", "email": "a@example.com"},
            "u2": {"username": "bob", "subCollection": {"users/u2/user-likes": {
              "t1": {"timestamp": {"_seconds": \(liked), "_nanoseconds": 5}}}}}
          },
          "tweets": {
            "t1": {"caption": "hi #Swift", "timestamp": {"_seconds": \(t1), "_nanoseconds": 0}, "uid": "u1", "likes": 1},
            "t2": {"caption": "@alice yes", "timestamp": {"_seconds": \(t2), "_nanoseconds": 0}, "uid": "u2", "replyTo": "t1"}
          },
          "favorites": {
            "u1": {"subCollection": {"favorites/u1/favorites": {
              "p1": {"placeName": "Cafe", "coordinate": {"_latitude": 37.5, "_longitude": 127.25}}}}}
          }
        }
        """,
        "REST documents.list": "{\"documents\": [\(restDocuments.joined(separator: ",\n"))], \"nextPageToken\": \"x\"}",
        "REST runQuery": "["
            + restDocuments.map { "{\"document\": \($0), \"readTime\": \"2024-01-01T00:00:00Z\"}" }
            .joined(separator: ",\n") + ", {\"readTime\": \"2024-01-01T00:00:00Z\"}]",
        "REST array": "[" + restDocuments.joined(separator: ",\n") + "]",
    ]

    static let restDocuments: [String] = {
        let prefix = "projects/demo/databases/(default)/documents/"
        func doc(_ path: String, _ fields: String) -> String {
            "{\"name\": \"\(prefix)\(path)\", \"fields\": {\(fields)}, \"createTime\": \"2024-01-01T00:00:00Z\"}"
        }
        return [
            doc(
                "users/u1",
                #""username": {"stringValue": "alice"}, "fullname": {"stringValue": "Alice"}, "email": {"stringValue": "a@example.com"}"#
            ),
            doc("users/u2", #""username": {"stringValue": "bob"}"#),
            doc("users/u2/user-likes/t1", #""timestamp": {"timestampValue": "2023-01-02T00:00:00.000000005Z"}"#),
            doc(
                "tweets/t1",
                #""caption": {"stringValue": "hi #Swift"}, "timestamp": {"timestampValue": "2023-01-01T00:00:00Z"}, "uid": {"stringValue": "u1"}, "likes": {"integerValue": "1"}"#
            ),
            doc(
                "tweets/t2",
                #""caption": {"stringValue": "@alice yes"}, "timestamp": {"timestampValue": "2023-01-01T01:00:00Z"}, "uid": {"stringValue": "u2"}, "replyTo": {"stringValue": "t1"}"#
            ),
            doc(
                "favorites/u1/favorites/p1",
                #""placeName": {"stringValue": "Cafe"}, "coordinate": {"geoPointValue": {"latitude": 37.5, "longitude": 127.25}}"#
            ),
        ]
    }()

    static func snapshot(_ path: String) throws -> Snapshot {
        Snapshot(documents: try DocumentStore.read(at: path).documents)
    }

    @Test(arguments: formats.keys.sorted())
    func roundTrip(_ format: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", Self.formats[format]!)

        let fromFile = try Self.snapshot(file)
        #expect(fromFile.diagnostics.isEmpty, "\(fromFile.diagnostics)")
        #expect(fromFile.users.map(\.username) == ["alice", "bob"])
        #expect(fromFile.tweets.map(\.id) == ["t2", "t1"])
        #expect(fromFile.tweets[1].timestamp == Timestamp(seconds: Int64(Self.t1)))
        #expect(
            fromFile.likes == [
                Like(uid: "u2", tweetID: "t1", timestamp: Timestamp(seconds: Int64(Self.liked), nanoseconds: 5))
            ])
        #expect(fromFile.userActivity[0].favorites.first?.coordinate == Coordinate(latitude: 37.5, longitude: 127.25))
        #expect(fromFile.tweetRelations[0].parent == 1)
        #expect(fromFile.tags.map(\.tag) == ["swift"])

        let directory = folder.path("store")
        try DirectoryStoreWriter.write(try DocumentStore.read(at: file).documents, to: directory, force: false)
        let fromDirectory = try Self.snapshot(directory)
        #expect(fromDirectory.users == fromFile.users)
        #expect(fromDirectory.tweets == fromFile.tweets)
        #expect(fromDirectory.likes == fromFile.likes)
        #expect(fromDirectory.userActivity == fromFile.userActivity)
        #expect(fromDirectory.tweetRelations == fromFile.tweetRelations)
        #expect(fromDirectory.diagnostics == fromFile.diagnostics)
    }
}
