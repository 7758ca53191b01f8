import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The harness itself: the emulator the tests start, and Google's Python client playing the app
// on it (Tests/FirestoreApp/app.py). Each test has a project of its own on the one emulator.

/// Loud when skipped: a warning in the test output, not a failure.
@Test func emulatorTestsNotice() {
    FirestoreEmulator.noticeIfSkipped("Firestore emulator tests")
    if FirestoreEmulator.shouldRun { FirestoreApp.noticeIfSkipped("Firestore app tests") }
}

@Suite struct EmulatorHarnessTests {
    static let content = packageRoot + "/content"

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func theEmulatorStartsOncePerProcess() throws {
        let emulator = try FirestoreEmulator.shared()
        #expect(try FirestoreEmulator.shared() === emulator)
        #expect(emulator.host.hasPrefix("127.0.0.1:"))
        let answer = try emulator.request("GET", "/")
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self).hasPrefix("Ok"))
        // The JVM it names is the emulator: what atexit and the watchdog kill.
        let commandLine = try String(contentsOfFile: "/proc/\(emulator.processIdentifier)/cmdline", encoding: .utf8)
        #expect(commandLine.contains("CloudFirestore"))
        #expect(
            emulator.environment(project: "p1") == [
                "FIRESTORE_EMULATOR_HOST": emulator.host, "GOOGLE_CLOUD_PROJECT": "p1",
            ])
    }

    @Test func projectIDsAreUniqueAndValid() {
        let ids = ["Likes & Mirror!", "load", "load", "", "9lives", String(repeating: "x", count: 80)].map {
            FirestoreEmulator.newProject($0)
        }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count <= 30 && id.first!.isLetter && id.last != "-", "\(id)")
            #expect(id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }, "\(id)")
        }
    }

    @Test(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
    func loadWritesEveryDocumentOfTheSampleStore() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("load")
        try FirestoreApp(emulator: emulator, project: project).load(Self.content)
        let files = try Self.documentFiles(Self.content)
        var read: [String: [String: Any]] = [:]
        for group in ["users", "user-likes", "tweets", "favorites"] {
            let documents = try emulator.documents(project: project, group: group)
            // A document's collection is the folder its file is in.
            let expected = files.filter { $0.split(separator: "/").dropLast().last == Substring(group) }
            #expect(documents.count == expected.count, "\(group)")
            #expect(Set(documents.map(\.path)) == Set(expected), "\(group)")
            for document in documents { read[document.path] = document.fields }
        }
        // Values as the app's SDK writes them: RFC 3339 `timestamp`s are timestamps (offsets
        // made UTC), integers integers, floats doubles, objects maps.
        let tweet = try #require(read["tweets/0YFCIsYrzaxRdPpOUAoR"])
        #expect(Self.value(tweet["timestamp"]) == ["timestampValue": "2023-05-15T13:30:29Z"])
        #expect(Self.value(tweet["likes"]) == ["integerValue": "1"])
        let like = try #require(read["users/LkedMbE6K2V5RpLDQSjPS65apuv4/user-likes/RCIDUqWJ7rNmV68Tw6oI"])
        #expect(Self.value(like["timestamp"]) == ["timestampValue": "2023-03-12T01:58:12Z"], "from +09:00")
        let seconds = try #require(read["users/BhtKqgSnflkTw1Dd131iQbCsedZi/user-likes/puRZhyv5hPMgBYFG4jhl"])
        #expect((seconds["timestamp"] as? [String: Any])?["mapValue"] != nil, "{_seconds, _nanoseconds} stays a map")
        let place = try #require(try emulator.documents(project: project, group: "favorites").first?.fields)
        let coordinate = try #require((place["coordinate"] as? [String: Any])?["mapValue"] as? [String: Any])
        #expect(((coordinate["fields"] as? [String: Any])?["latitude"] as? [String: Any])?["doubleValue"] != nil)
        let uid = try Self.folders(Self.content + "/favorites").first!
        #expect(try emulator.document(project: project, path: "favorites/\(uid)") == nil)
    }

    @Test(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
    func aLikeChangesTheEmulatorAndTheMirrorAlike() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("like")
        let app = FirestoreApp(emulator: emulator, project: project)
        try app.load(Self.content)
        let mirror = try TemporaryFolder()
        try mirror.copy(Self.content, to: "store")
        let store = mirror.path("store")

        // A tweet this user has not liked yet.
        let uid = "7r3cQoKmFdSv6gcsFLB74fSYZNG0"
        let tweets = try FileManager.default.contentsOfDirectory(atPath: Self.content + "/tweets").sorted()
        let tweetFile = try #require(
            tweets.first { !FileManager.default.fileExists(atPath: "\(store)/users/\(uid)/user-likes/\($0)") })
        let tweet = String(tweetFile.dropLast(".json".count))
        let before = try Self.likes(emulator.document(project: project, path: "tweets/\(tweet)"))
        let original = try Self.json("\(store)/tweets/\(tweetFile)")

        try app.like(uid: uid, tweet: tweet, mirror: store)
        #expect(try emulator.document(project: project, path: "users/\(uid)/user-likes/\(tweet)")?.isEmpty == true)
        #expect(try Self.likes(emulator.document(project: project, path: "tweets/\(tweet)")) == before + 1)
        #expect(try Self.json("\(store)/users/\(uid)/user-likes/\(tweetFile)").isEmpty)
        var edited = try Self.json("\(store)/tweets/\(tweetFile)")
        #expect(edited["likes"] as? Int == before + 1)
        edited["likes"] = original["likes"]
        #expect(NSDictionary(dictionary: edited).isEqual(to: original), "the tweet's other fields are as they were")

        try app.unlike(uid: uid, tweet: tweet, mirror: store)
        #expect(try emulator.document(project: project, path: "users/\(uid)/user-likes/\(tweet)") == nil)
        #expect(try Self.likes(emulator.document(project: project, path: "tweets/\(tweet)")) == before)
        #expect(!FileManager.default.fileExists(atPath: "\(store)/users/\(uid)/user-likes/\(tweetFile)"))
        #expect(try Self.json("\(store)/tweets/\(tweetFile)")["likes"] as? Int == before)

        // A like of a tweet that does not exist: only the like is written, in both.
        try app.like(uid: uid, tweet: "noSuchTweet", mirror: store)
        #expect(try emulator.document(project: project, path: "users/\(uid)/user-likes/noSuchTweet") != nil)
        #expect(try emulator.document(project: project, path: "tweets/noSuchTweet") == nil)
        #expect(FileManager.default.fileExists(atPath: "\(store)/users/\(uid)/user-likes/noSuchTweet.json"))
        #expect(!FileManager.default.fileExists(atPath: "\(store)/tweets/noSuchTweet.json"))
    }

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func projectsDoNotSeeEachOther() throws {
        let emulator = try FirestoreEmulator.shared()
        let (a, b) = (FirestoreEmulator.newProject("apart-a"), FirestoreEmulator.newProject("apart-b"))
        let root = FirestoreEmulator.documentsRoot(a)
        let commit: [String: Any] = [
            "writes": [["update": ["name": "\(root)/users/u1", "fields": ["username": ["stringValue": "mina"]]]]]
        ]
        let answer = try emulator.request(
            "POST", "/v1/\(root):commit", json: try JSONSerialization.data(withJSONObject: commit))
        #expect(answer.status == 200, "\(answer)")
        #expect(try emulator.documents(project: a, group: "users").map(\.path) == ["users/u1"])
        #expect(try emulator.documents(project: b, group: "users").isEmpty)

        let folder = try TemporaryFolder()
        let exported = try emulator.export(project: a, to: folder.path(), name: "snapshot")
        #expect(exported == folder.path("snapshot"))
        #expect(
            FileManager.default.fileExists(
                atPath: exported + "/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata"))

        try emulator.clear(project: a)
        #expect(try emulator.documents(project: a, group: "users").isEmpty)
    }

    // MARK: - Reading the folder and the answers

    /// The document paths of a directory store (`users/U/user-likes/T`), from its .json files.
    static func documentFiles(_ root: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        var paths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let parts = relative.split(separator: "/")
            guard relative.hasSuffix(".json"), !parts.contains(where: { $0.hasPrefix(".") }) else { continue }
            paths.append(String(relative.dropLast(".json".count)))
        }
        return paths
    }

    static func folders(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A REST value as its one `kind: text` pair (`["integerValue": "1"]`), for comparing.
    static func value(_ value: Any?) -> [String: String] {
        (value as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    static func likes(_ fields: [String: Any]?) throws -> Int {
        try #require(Int(value(fields?["likes"])["integerValue"] ?? ""), "a tweet with an integer `likes`")
    }

    static func json(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file)")
    }
}
