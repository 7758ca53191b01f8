import Foundation
import Glibc
import Store
import TestSupport
import Testing

/// `--store firestore://…` against the real emulator, with Google's Python client writing the
/// data as the app does (SPEC 11): the same store in a folder and in the database gives
/// byte-identical sites, before and after the app's writes.
@Suite(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
struct FirestoreStoreTests {
    static let content = RoostProcess.packageRoot.path + "/content"

    /// A project of its own, loaded by the app from `folder`.
    static func loaded(_ folder: String, _ hint: String) throws -> (FirestoreEmulator, FirestoreApp, String) {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject(hint)
        let app = FirestoreApp(emulator: emulator, project: project)
        try app.load(folder)
        return (emulator, app, project)
    }

    /// The site `store` builds into `output` (no cache, as a fresh build), and its messages.
    @discardableResult
    static func build(
        _ store: String, into output: String, emulator: FirestoreEmulator? = nil, project: String = ""
    ) throws -> RoostProcess.Result {
        let result = try RoostProcess.run(
            ["build", "--store", store, "--output", output, "--no-cache"],
            environment: emulator?.environment(project: project) ?? [:])
        #expect(result.status == 0, "\(store): \(result.stderr)")
        return result
    }

    /// The database's site and the folder's, built side by side into `folder/name-db` and
    /// `folder/name-dir`, are the same.
    static func sameSite(
        project: String, emulator: FirestoreEmulator, as store: String, in folder: TemporaryFolder, _ name: String
    ) throws {
        try build("firestore://\(project)", into: folder.path(name + "-db"), emulator: emulator, project: project)
        try build(store, into: folder.path(name + "-dir"))
        sameSite(folder.path(name + "-db"), folder.path(name + "-dir"))
    }

    static func sameSite(_ a: String, _ b: String) {
        let (left, right) = (fullListing(a), fullListing(b))
        #expect(!left.isEmpty)
        #expect(left == right, "\(differences(left, right))")
    }

    @Test func theSampleStoreInTheEmulatorBuildsTheSameSiteAsTheFolder() throws {
        let (emulator, _, project) = try Self.loaded(Self.content, "sample")
        let folder = try TemporaryFolder()
        let read = try Self.build(
            "firestore://\(project)", into: folder.path("db"), emulator: emulator, project: project)
        try Self.build(Self.content, into: folder.path("dir"))
        Self.sameSite(folder.path("db"), folder.path("dir"))
        #expect(read.stderr.contains("note: 240 documents read from firestore://\(project)"))
    }

    @Test func aGeneratedStoreInTheEmulatorBuildsTheSameSiteAsItsFolder() throws {
        let folder = try TemporaryFolder()
        let store = folder.path("store")
        let generated = try RoostProcess.run([
            "generate", "--users", "25", "--tweets", "150", "--seed", "7", "--to", store,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let (emulator, _, project) = try Self.loaded(store, "generated")
        try Self.sameSite(project: project, emulator: emulator, as: store, in: folder, "site")
    }

    @Test func afterTheAppsWritesTheSiteIsTheFolderWithTheSameEdits() throws {
        let folder = try TemporaryFolder()
        let mirror = folder.path("mirror")
        try copyFolder(Self.content, to: mirror)
        let (emulator, app, project) = try Self.loaded(mirror, "edits")
        let mina = "Yw0vbDbtYhNQ5CALWtprSLbJLAfl"
        let tweets = try FileManager.default.contentsOfDirectory(atPath: mirror + "/tweets").sorted()
            .map { String($0.dropLast(5)) }
        let liked = Set(try FileManager.default.contentsOfDirectory(atPath: "\(mirror)/users/\(mina)/user-likes"))
        let unliked = try #require(tweets.first { !liked.contains($0 + ".json") })
        try app.like(uid: mina, tweet: unliked, mirror: mirror)
        try app.unlike(
            uid: mina, tweet: try #require(liked.sorted().first).replacingOccurrences(of: ".json", with: ""),
            mirror: mirror)
        try app.tweet(
            uid: mina, id: "roostNewTweet01", caption: "Live from the **emulator** #firestore",
            at: "2024-06-01T12:00:00Z", mirror: mirror)
        try app.addFavorite(
            uid: mina, placeID: "roostPlace01", name: "Seoul Forest", address: "Seongdong-gu",
            coordinate: (37.5444, 127.0374), mirror: mirror)
        try Self.sameSite(project: project, emulator: emulator, as: mirror, in: folder, "edited")
        try app.removeFavorite(uid: mina, placeID: "roostPlace01", mirror: mirror)
        try Self.sameSite(project: project, emulator: emulator, as: mirror, in: folder, "unfavorited")
    }

    /// A rebuild from the database renders and writes only what changed, as a folder's does.
    @Test func aRebuildAfterALikeRendersWhatTheFoldersRebuildRenders() throws {
        let folder = try TemporaryFolder()
        let mirror = folder.path("mirror")
        try copyFolder(Self.content, to: mirror)
        let (emulator, app, project) = try Self.loaded(mirror, "rebuild")
        let environment = emulator.environment(project: project)
        func build(_ store: String, _ output: String) throws -> String {
            let result = try RoostProcess.run(
                [
                    "build", "--store", store, "--output", folder.path(output), "--cache",
                    folder.path(output + "-cache"),
                ],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        _ = try build("firestore://\(project)", "db")
        _ = try build(mirror, "dir")
        // The folder's stamps are trusted a second after a change (BuildInputs.racyWindow).
        Thread.sleep(forTimeInterval: 1.2)
        try app.like(uid: "Yw0vbDbtYhNQ5CALWtprSLbJLAfl", tweet: "0YFCIsYrzaxRdPpOUAoR", mirror: mirror)
        Thread.sleep(forTimeInterval: 1.2)
        let database = try build("firestore://\(project)", "db")
        let directory = try build(mirror, "dir")
        // "156 pages (15 rendered) and 11 static files; 13 written, 154 unchanged, 0 removed"
        func counts(_ summary: String) -> String? {
            guard let pages = summary.range(of: #"\d+ pages \(.*removed"#, options: .regularExpression) else {
                return nil
            }
            return String(summary[pages])
        }
        #expect(database.contains(" rendered)"), "\(database)")
        #expect(counts(database) != nil && counts(database) == counts(directory), "\(database) / \(directory)")
        Self.sameSite(folder.path("db"), folder.path("dir"))
    }

    @Test func checkReportsTheDatabasesCountersAsTheFolders() throws {
        let (emulator, _, project) = try Self.loaded(Self.content, "check")
        let database = try RoostProcess.run(
            ["check", "--store", "firestore://\(project)"], environment: emulator.environment(project: project))
        let folder = try RoostProcess.run(["check", "--store", Self.content])
        #expect(database.status == folder.status)
        let body = { (text: String) in text.split(separator: "\n").dropFirst().joined(separator: "\n") }
        #expect(body(database.stdout) == body(folder.stdout))
        #expect(database.stdout.contains("like counter"))
    }

    @Test func importRoundTripsFolderToDatabaseToFolder() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("roundtrip")
        let environment = emulator.environment(project: project)
        let written = try RoostProcess.run(
            ["import", Self.content, "--to", "firestore://\(project)"], environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("240 documents written to firestore://\(project)"))
        let folder = try TemporaryFolder()
        let back = try RoostProcess.run(
            ["import", "firestore://\(project)", "--to", folder.path("back")], environment: environment)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try DocumentStore.read(at: Self.content)
        let returned = try DocumentStore.read(at: folder.path("back"))
        #expect(returned.documents.map(\.path) == original.documents.map(\.path))
        for (a, b) in zip(original.documents, returned.documents) {
            #expect(Self.sorted(a.fields) == Self.sorted(b.fields), "\(a.path)")
        }
        // --force replaces the four groups: a second store's documents alone remain.
        let generated = folder.path("generated")
        _ = try RoostProcess.run(["generate", "--users", "3", "--tweets", "5", "--to", generated])
        let replaced = try RoostProcess.run(
            ["import", generated, "--to", "firestore://\(project)", "--force"], environment: environment)
        #expect(replaced.stdout.contains("(240 documents deleted first)"), "\(replaced.stdout)")
        let again = try RoostProcess.run(
            ["import", "firestore://\(project)", "--to", folder.path("again")], environment: environment)
        #expect(again.status == 0)
        #expect(
            try DocumentStore.read(at: folder.path("again")).documents.count
                == DocumentStore.read(at: generated).documents.count)
    }

    /// A folder store's `{"__datatype__": "timestamp", ...}` (SPEC 2.4) is written as the
    /// timestamp it stands for, not as a map Firestore refuses; a name Firestore reserves
    /// (`__x__`) is an error naming document and field before anything is written, so
    /// `--force` has deleted nothing. (The map went as it was: the import failed partway,
    /// after --force had emptied the database.)
    @Test func aFolderStoreIsCheckedWholeBeforeTheDatabaseChanges() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("typed")
        let environment = emulator.environment(project: project)
        let store = try TemporaryFolder()
        try store.write("users/u1.json", #"{"username": "alice"}"#)
        try store.write(
            "tweets/t1.json",
            #"{"caption": "dt", "uid": "u1", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1672531200, "_nanoseconds": 0}}}"#
        )
        let written = try RoostProcess.run(
            ["import", store.path(), "--to", "firestore://\(project)"], environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        let site = try TemporaryFolder()
        try Self.build("firestore://\(project)", into: site.path("db"), emulator: emulator, project: project)
        try Self.build(store.path(), into: site.path("dir"))
        Self.sameSite(site.path("db"), site.path("dir"))

        for (file, text, named) in [
            ("tweets/t2.json", #"{"caption": "x", "uid": "u1", "timestamp": 1, "__meta__": 1}"#, "field __meta__"),
            ("tweets/__x__.json", #"{"caption": "x", "uid": "u1", "timestamp": 1}"#, "tweets/__x__"),
        ] {
            let bad = try TemporaryFolder()
            try bad.write(file, text)
            let refused = try RoostProcess.run(
                ["import", bad.path(), "--to", "firestore://\(project)", "--force"], environment: environment)
            #expect(refused.status == 1 && refused.stderr.contains(named), "\(refused.stderr)")
            #expect(refused.stderr.contains("__name__"), "\(refused.stderr)")
        }
        let after = try TemporaryFolder()
        try Self.build("firestore://\(project)", into: after.path("db"), emulator: emulator, project: project)
        Self.sameSite(after.path("db"), site.path("dir"))
    }

    /// Fields in key order: Firestore keeps a map's fields by name, not as written.
    static func sorted(_ fields: Fields) -> [String] {
        fields.pairs.map { "\($0.key)=\(describe($0.value))" }.sorted()
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .map(let fields): "{" + sorted(fields).joined(separator: ",") + "}"
        case .array(let values): "[" + values.map(describe).joined(separator: ",") + "]"
        default: "\(value)"
        }
    }
}

/// Refusals that need no emulator.
@Suite struct FirestoreRefusalTests {
    @Test func writingToCloudFirestoreWithoutProductionIsRefusedBeforeTheStoreIsRead() throws {
        for command in [["import", "no-such-store"], ["generate", "--users", "2", "--tweets", "2"]] {
            let result = try RoostProcess.run(
                command + ["--to", "firestore://my-app"], removing: ["FIRESTORE_EMULATOR_HOST"])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(
                    "firestore://my-app: this writes into Cloud Firestore itself, not the emulator: add --production"),
                "\(result.stderr)")
        }
    }

    @Test func aDatabaseWithoutCredentialsSaysHowToGetThem() throws {
        let home = try TemporaryFolder()
        let result = try RoostProcess.run(
            ["build", "--store", "firestore://my-app", "--output", home.path("public")],
            environment: ["HOME": home.path(), "CLOUDSDK_CONFIG": home.path("gcloud")],
            removing: ["FIRESTORE_EMULATOR_HOST", "GOOGLE_APPLICATION_CREDENTIALS"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("no credentials for Cloud Firestore. Run `gcloud auth application-default login`"))
        #expect(!FileManager.default.fileExists(atPath: home.path("public")))
    }

    @Test func aDatabaseThatCannotBeReachedLeavesTheSiteAsItWas() throws {
        let folder = try TemporaryFolder()
        let built = try RoostProcess.run([
            "build", "--store", FirestoreStoreTests.content, "--output", folder.path("public"),
        ])
        #expect(built.status == 0)
        let before = fullListing(folder.path("public"))
        // A port nothing listens on: bound, then closed.
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 ? getsockname(socket, $0, &length) : -1
            }
        }
        close(socket)
        let port = UInt16(bigEndian: address.sin_port)
        let failed = try RoostProcess.run(
            ["build", "--store", "firestore://demo", "--output", folder.path("public")],
            environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:\(port)"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("firestore://demo: cannot reach 127.0.0.1:\(port)"), "\(failed.stderr)")
        #expect(fullListing(folder.path("public")) == before)
    }

    /// `"store": "firestore://…"` in roost.json is an address, not a path beside the file.
    @Test func roostJSONNamesADatabase() throws {
        let home = try TemporaryFolder()
        _ = try home.write("project/roost.json", #"{"store": "firestore://my-app", "output": "site"}"#)
        let result = try RoostProcess.run(
            ["build", "--config", home.path("project/roost.json")], environment: ["HOME": home.path()],
            removing: ["FIRESTORE_EMULATOR_HOST", "GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_CONFIG"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("roost build: firestore://my-app: no credentials"), "\(result.stderr)")
    }

    @Test func anExportOfNoneOfRoostsCollectionsIsRefusedByBuildAndWarnedByImport() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "shop.json", #"{"__collections__": {"orders": {"o1": {"total": 3}}, "carts": {"c1": {}}}}"#)
        let built = try RoostProcess.run(["build", "--store", file, "--output", folder.path("public")])
        #expect(built.status == 1)
        #expect(
            built.stderr.contains(
                "\(file): not a store of Roost's: it holds the collections carts, orders, and none of users, tweets, favorites"
            ),
            "\(built.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("public")))
        let checked = try RoostProcess.run(["check", "--store", file])
        #expect(checked.status == 1)
        let imported = try RoostProcess.run(["import", file, "--to", folder.path("store")])
        #expect(imported.status == 0)
        #expect(imported.stderr.contains("warning: \(file): not a store of Roost's"))
        #expect(FileManager.default.fileExists(atPath: folder.path("store/orders/o1.json")))
    }
}
