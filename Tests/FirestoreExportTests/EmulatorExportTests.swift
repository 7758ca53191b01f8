import Build
import Firestore
import FirestoreExport
import Foundation
import Store
import Synthetic
import TestSupport
import Testing

/// Stores written into the real emulator and exported by it, read back: the sample store and a
/// generated one build the sites their folders build, byte for byte, and every value kind comes
/// back as it went in (SPEC 12). Google's Python client plays the app that writes directory
/// stores (`FirestoreApp.load`: a `timestamp` string as a timestamp); typed values go in through
/// Roost's own writer. The fixtures in Fixtures/ were made the same way (Fixtures/README.md).
@Suite(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
struct EmulatorExportTests {
    /// The directory store `folder` written into a new project by the app and exported.
    static func exported(_ folder: String, into work: TemporaryFolder, name: String) throws -> String {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject(name)
        try FirestoreApp(emulator: emulator, project: project).load(folder)
        return try emulator.export(project: project, to: work.path(), name: name)
    }

    /// The files of the sites built from `store` and from `export`, which must be equal.
    static func sites(_ store: String, _ export: String, in work: TemporaryFolder) throws -> (
        [String: Data], [String: Data]
    ) {
        try SiteBuild(BuildOptions(store: store, output: work.path("fromFolder"))).run()
        try SiteBuild(BuildOptions(store: export, output: work.path("fromExport"))).run()
        return (work.files("fromFolder"), work.files("fromExport"))
    }

    @Test func theSampleStoreBuildsTheSameSiteFromItsExport() throws {
        let work = try TemporaryFolder()
        let export = try Self.exported(packageRoot + "/content", into: work, name: "sample")
        let (fromFolder, fromExport) = try Self.sites(packageRoot + "/content", export, in: work)
        #expect(fromFolder.count > 100)
        #expect(fromExport == fromFolder)
    }

    /// An export of an empty database is refused, as the database itself and an empty
    /// folder are, not built into an empty site.
    @Test func anExportOfAnEmptyDatabaseIsRefused() throws {
        let work = try TemporaryFolder()
        let emulator = try FirestoreEmulator.shared()
        let export = try emulator.export(project: FirestoreEmulator.newProject("empty"), to: work.path(), name: "empty")
        #expect {
            try SiteBuild(BuildOptions(store: export, output: work.path("site"))).run()
        } throws: { error in
            "\(error)".contains("the export holds no documents")
        }
        #expect(!FileManager.default.fileExists(atPath: work.path("site")))
    }

    @Test func aGeneratedStoreBuildsTheSameSiteFromItsExport() throws {
        let work = try TemporaryFolder()
        _ = try SyntheticStore.generate(
            SyntheticStore.Options(users: 60, tweets: 600, seed: 28), to: work.path("generated"), force: false)
        let export = try Self.exported(work.path("generated"), into: work, name: "generated")
        let (fromFolder, fromExport) = try Self.sites(work.path("generated"), export, in: work)
        #expect(fromFolder.count > 600)
        #expect(fromExport == fromFolder)
    }

    /// Each form of SPEC 2.3/2.4 in a directory store, through the emulator and its export, and
    /// back with `import --to DIR`: the same documents (a `timestamp` string the app wrote as a
    /// timestamp comes back as the RFC 3339 string of the same instant). Not node-firestore-
    /// import-export's `{"__datatype__": …}`: Firestore refuses names like `__x__` ("reserved"),
    /// so no database holds it.
    @Test func everyDirectoryFormComesBackFromTheExport() throws {
        let work = try TemporaryFolder()
        try work.write(
            "store/users/u1.json",
            #"{"username": "mina", "fullname": "Mina", "email": "m@example.com", "bio": "*hi*", "followers": 12, "score": 2.5, "verified": true, "nickname": null, "tags": ["a", 1, 2.5, false, null, {"k": [1, {"deep": []}]}], "settings": {}, "empty": []}"#
        )
        try work.write(
            "store/users/u2.json",
            #"{"username": "jiwoo", "fullName": "지우", "profileImageUrl": "https://example.com/j.png"}"#)
        try work.write(
            "store/tweets/t1.json",
            #"{"caption": "RFC 3339 #swift", "timestamp": "2023-01-01T00:00:00Z", "uid": "u1", "likes": 1}"#)
        try work.write(
            "store/tweets/t2.json",
            #"{"caption": "fraction and offset", "timestamp": "2023-01-02T09:30:00.123+09:00", "uid": "u2", "replyTo": "t1"}"#
        )
        try work.write(
            "store/tweets/t3.json",
            #"{"caption": "Node Admin SDK", "timestamp": {"_seconds": 1672704000, "_nanoseconds": 5000}, "uid": "u1"}"#)
        try work.write(
            "store/tweets/t4.json",
            #"{"caption": "Codable", "timestamp": {"seconds": 1672790400, "nanoseconds": 0}, "uid": "u1"}"#)
        try work.write(
            "store/tweets/t6.json",
            #"{"caption": "web SDK", "timestamp": {"type": "firestore/timestamp/1.0", "seconds": 1672963200, "nanoseconds": 1}, "uid": "u2"}"#
        )
        try work.write("store/tweets/t7.json", #"{"caption": "seconds", "timestamp": 1673049600, "uid": "u1"}"#)
        try work.write("store/users/u1/user-likes/t2.json", "{}")
        try work.write("store/users/u2/user-likes/t1.json", #"{"timestamp": "2023-01-03T00:00:00Z"}"#)
        try work.write(
            "store/favorites/u1/favorites/p1.json",
            #"{"placeName": "Numbers", "coordinate": {"latitude": 37.5, "longtitude": 127.25}}"#)
        try work.write(
            "store/favorites/u1/favorites/p2.json",
            #"{"placeName": "Strings", "placeID": "other", "address": "서울", "coordinate": {"latitude": "37.5", "longitude": "127.0"}}"#
        )
        try work.write(
            "store/favorites/u2/favorites/p3.json",
            #"{"placeName": "A geopoint's form", "coordinate": {"_latitude": -33.9, "_longitude": 151.2}}"#)
        try work.write(
            "store/other/x.json",
            #"{"reference": "users/u1", "bytes": "AAEC/w==", "big": 9223372036854775807, "tiny": -9223372036854775808, "e": 1e300}"#
        )
        let export = try Self.exported(work.path("store"), into: work, name: "forms")

        let source = try StoreAddress.source(for: export)
        #expect(source is ExportFolderSource)
        let read = try source.readStore()
        try DirectoryStoreWriter.write(
            read.documents, to: work.path("imported"), force: false, missingParents: read.missingParents)
        let original = try FolderSource(root: work.path("store")).readStore()
        let imported = try FolderSource(root: work.path("imported")).readStore()
        #expect(imported.missingParents == original.missingParents)
        #expect(Self.instants(comparableDocuments(imported)) == Self.instants(comparableDocuments(original)))
        let (fromFolder, fromExport) = try Self.sites(work.path("store"), export, in: work)
        #expect(fromExport == fromFolder)
    }

    /// A string that is an RFC 3339 time as its instant: what a `timestamp` string is once
    /// the app has written it as a timestamp and the import written it back.
    static func instants(_ documents: [String: [String: String]]) -> [String: [String: String]] {
        documents.mapValues { fields in
            fields.mapValues { value in
                guard value.hasPrefix("string(\""), value.hasSuffix("\")"),
                    let time = RFC3339.parse(String(value.dropFirst(8).dropLast(2)))
                else { return value }
                return "instant(\(time.seconds), \(time.nanoseconds))"
            }
        }
    }
}

/// Typed values (every REST kind, `Fixtures/kinds.rest.json`) written into the emulator by
/// Roost's database writer, exported, and read back: the values that went in, to the
/// microsecond the export keeps.
@Suite(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
struct EmulatorTypedExportTests {
    @Test func everyTypedValueComesBackFromTheExport() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("kinds")
        let rest = try ExportFileSource(file: fixtures + "/kinds.rest.json").readStore()
        let endpoint = try FirestoreEndpoint.resolve(
            FirestoreAddress(project: project), environment: emulator.environment(project: project))
        try FirestoreWriter(FirestoreClient(endpoint)).write(rest.documents)
        let work = try TemporaryFolder()
        let export = try emulator.export(project: project, to: work.path(), name: "kinds")
        let read = try ExportFolderSource(folder: export).readStore()
        #expect(read.documents.map(\.path) == rest.documents.map(\.path))
        #expect(comparableDocuments(read) == comparableDocuments(rest))
    }
}
