import Build
import Firestore
import FirestoreExport
import Foundation
import Site
import Store
import Synchronization
import TestSupport
import Testing

/// Export folders the emulator wrote, read through their source: recognised by their
/// metadata in both layouts, every value kind as the REST form of the same data gives it, the
/// sample store's export building the sample's site byte for byte, and `import` giving back
/// the documents.
@Suite("Export folders")
struct ExportFolderSourceTests {
    @Test func bothLayoutsAndTheirMetadataFilesAreRecognisedAndNothingElse() throws {
        for path in [
            "kinds", "kinds/kinds.overall_export_metadata", "firebase", "firebase/firebase-export-metadata.json",
            "firebase/firestore_export",
        ] {
            #expect(ExportFolderSource.recognises(fixtures + "/" + path), "\(path)")
            #expect(try StoreAddress.source(for: fixtures + "/" + path) is ExportFolderSource)
        }
        for path in ["", "kinds/all_namespaces", "kinds.rest.json", "missing"] {
            #expect(!ExportFolderSource.recognises(fixtures + "/" + path), "\(path)")
        }
        #expect(!ExportFolderSource.recognises(packageRoot + "/content"))
        #expect(try StoreAddress.source(for: packageRoot + "/content") is FolderSource)
        #expect(try StoreAddress.source(for: fixtures + "/kinds.rest.json") is ExportFileSource)
    }

    /// What the emulator wrote for each kind of value, read back: the values the REST form of
    /// the same documents gives (`kinds.rest.json`, what was written into it), with the
    /// sub-microsecond part of timestamps gone (the export keeps microseconds).
    @Test func everyValueKindReadsAsTheRESTFormOfTheSameData() throws {
        let rest = try ExportFileSource(file: fixtures + "/kinds.rest.json").readStore()
        for layout in ["kinds", "firebase"] {
            let export = try ExportFolderSource(folder: fixtures + "/" + layout).readStore()
            #expect(export.format == .exportFolder)
            #expect(export.documents.map(\.path) == rest.documents.map(\.path))
            #expect(comparableDocuments(export) == comparableDocuments(rest))
            #expect(export.missingParents.map(\.description) == ["favorites/u1", "favorites/u2"])
        }
    }

    /// The emulator's forms spelled out: an empty array is the empty-list mark (and comes first
    /// among the fields), an array of maps holds nested entities, an empty map an entity with
    /// no properties, a numeric-looking ID stays a name.
    @Test func whatTheEmulatorWritesForEachForm() throws {
        let store = try ExportFolderSource(folder: fixtures + "/kinds").readStore()
        let byPath = Dictionary(uniqueKeysWithValues: store.documents.map { ($0.path.description, $0) })
        let arrays = try #require(byPath["kinds/arrays"]).fields
        #expect(arrays.pairs.first?.key == "empty" && arrays["empty"] == .array([]))
        #expect(
            arrays["maps"]
                == .array([
                    .map(Fields([("inner", .array([.integer(1), .integer(2)]))])),
                    .map(Fields([("inner", .array([]))])), .map(Fields()),
                ]))
        let scalars = try #require(byPath["kinds/scalars"]).fields
        #expect(scalars["timestamp"] == .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_000)))
        #expect(scalars["beforeEpoch"] == .timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_000)))
        #expect(scalars["yearOne"] == .timestamp(Timestamp(seconds: -62_135_596_800)))
        #expect(scalars["geopoint"] == .geoPoint(latitude: -33.8568, longitude: 151.2153))
        #expect(scalars["deepReference"] == .reference("users/u1/user-likes/t1"))
        #expect(scalars["bytes"] == .bytes("AAEC/w==") && scalars["emptyBytes"] == .bytes(""))
        #expect(scalars["min"] == .integer(.min) && scalars["null"] == .null && scalars["nul"] == .string("a\u{0}b"))
        #expect(byPath["kinds/__id7__"] != nil && byPath["kinds/한글 ID"] != nil)
        #expect(byPath["kinds/empty"]?.fields.isEmpty == true)
        #expect(try #require(byPath["kinds/maps"]).fields["empty"] == .map(Fields()))
    }

    /// `content/`, written into the emulator and exported (Fixtures/README.md), builds the
    /// site the folder builds, every file byte for byte.
    @Test func theSampleStoresExportBuildsTheSampleSite() throws {
        let work = try TemporaryFolder()
        try SiteBuild(BuildOptions(store: packageRoot + "/content", output: work.path("fromFolder"))).run()
        let report = try SiteBuild(BuildOptions(store: fixtures + "/sample", output: work.path("fromExport"))).run()
        #expect(report.warnings.count == 3)
        let fromFolder = work.files("fromFolder")
        #expect(fromFolder.count > 100)
        #expect(work.files("fromExport") == fromFolder)
    }

    /// `import --to DIR` of the export: the documents of `content/`, and of each kind the
    /// directory store's form of it (SPEC 2.4), which builds the export's site.
    @Test func importGivesBackTheDocuments() throws {
        let work = try TemporaryFolder()
        let sample = try ExportFolderSource(folder: fixtures + "/sample").readStore()
        try DirectoryStoreWriter.write(
            sample.documents, to: work.path("sample"), force: false, missingParents: sample.missingParents)
        let content = try FolderSource(root: packageRoot + "/content").readStore()
        let imported = try FolderSource(root: work.path("sample")).readStore()
        #expect(comparableDocuments(imported) == comparableDocuments(content))
        #expect(imported.missingParents == content.missingParents)

        let kinds = try ExportFolderSource(folder: fixtures + "/kinds").readStore()
        try DirectoryStoreWriter.write(kinds.documents, to: work.path("kinds"), force: false)
        let written = try FolderSource(root: work.path("kinds")).readStore()
        #expect(
            comparableDocuments(written)
                == Dictionary(
                    uniqueKeysWithValues: kinds.documents.map {
                        ($0.path.description, comparable(plainFields($0.fields)))
                    }))
        try SiteBuild(BuildOptions(store: fixtures + "/kinds", output: work.path("kindsFromExport"))).run()
        try SiteBuild(BuildOptions(store: work.path("kinds"), output: work.path("kindsFromFolder"))).run()
        #expect(work.files("kindsFromExport") == work.files("kindsFromFolder"))
    }

    /// The emulator writes an output file for every 1.2 MB or so (the M store's export has 20),
    /// all listed in one entry of the kind's metadata: every one is read, and each is a file of
    /// the entry's stamp.
    @Test func anExportInSeveralOutputFilesIsReadWhole() throws {
        let work = try TemporaryFolder()
        let records = (0..<10).map { k in
            Entity.bytes(path: ["tweets", "t\(k)"], properties: [Entity.string("caption", "tweet \(k)")])
        }
        let folder = try writeExport(records, in: work, at: "export", outputs: 3)
        let source = ExportFolderSource(folder: folder)
        let store = try source.readStore()
        #expect(store.documents.map(\.path.id) == (0..<10).map { "t\($0)" })
        #expect(try source.stamp(recording: false).entries == 2 + 3)
        var batches: [[String]] = []
        _ = try source.read(transform: { $0.path.id }, take: { batches.append($0) }, restart: {})
        #expect(batches.flatMap { $0 } == (0..<10).map { "t\($0)" })

        try FileManager.default.removeItem(atPath: folder + "/all_namespaces/all_kinds/output-1")
        #expect(
            storeError { try source.checkShape() }.map { "\($0)" }
                == "\(folder)/all_namespaces/all_kinds/output-1: incomplete export: missing "
                + "(all_namespaces_all_kinds.export_metadata lists it as an output file); export the database again")
        #expect(source.stamp(ofEntry: "") == nil)
    }

    /// SPEC 13: an export of documents in none of Roost's collections is refused by the reads
    /// a build and `check` make, saying what it holds; `import` (`readStore`) takes it.
    @Test func anExportWithNoneOfRoostsCollectionsIsRefusedButImported() throws {
        let work = try TemporaryFolder()
        let records = [
            Entity.bytes(path: ["orders", "o1"], properties: [Entity.integer("total", 3)]),
            Entity.bytes(path: ["carts", "c1"], properties: []),
        ]
        let source = ExportFolderSource(folder: try writeExport(records, in: work, at: "export"))
        let refused = storeError { try source.read(stamps: nil, reusing: nil, transform: { document, _ in document }) }
        guard case .noRoostCollections(_, let holds)? = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        #expect(holds == ["carts", "orders"])
        #expect(storeError { try source.read(transform: { $0 }, take: { _ in }, restart: {}) } != nil)
        #expect(try source.readStore().documents.count == 2)
    }

    @Test func theOneEntryIsStampedByTheFilesAndMovesWhenOneChanges() throws {
        let work = try TemporaryFolder()
        try work.copy(fixtures + "/kinds", to: "kinds")
        let source = ExportFolderSource(folder: work.path("kinds"))
        try source.checkShape()
        #expect(source.layout == .oneEntry && source.entryKind == "file")
        let (stamp, entry) = (try source.stamp(recording: true), try #require(source.stamp(ofEntry: "")))
        #expect(stamp.entries == 3 && stamp.files == nil)
        #expect(try source.stamp(recording: false) == stamp && source.stamp(ofEntry: "") == entry)
        #expect(entry.size == 96 + 41 + 40_909)
        #expect(source.stamp(ofEntry: "kinds/scalars") == nil)
        #expect(try source.entries(inFolder: "kinds") == nil)
        #expect(try source.documents(inEntry: "")?.count == 15)
        #expect(try source.documents(inEntry: "other") == nil)

        let output = work.path("kinds/all_namespaces/all_kinds/output-0")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: output)
        #expect(try source.stamp(recording: false) != stamp)
        #expect(source.stamp(ofEntry: "") != entry)
    }

    @Test func aCachedBuildTakesTheExportFromTheCacheUntilAFileChanges() throws {
        let work = try TemporaryFolder()
        try work.copy(fixtures + "/kinds", to: "kinds")
        var options = BuildOptions(store: work.path("kinds"), output: work.path("site"), usesCache: true)
        options.media.cache = work.path("cache")
        let first = try SiteBuild(options, clock: .ahead(by: 2)).run()
        #expect(first.storeFiles.map { [$0.read, $0.cached] } == [1, 0])
        try FileManager.default.removeItem(atPath: work.path("site/index.html"))  // so the build runs again
        let second = try SiteBuild(options, clock: .ahead(by: 2)).run()
        #expect(second.storeFiles.map { [$0.read, $0.cached] } == [0, 1])
        let output = work.path("kinds/all_namespaces/all_kinds/output-0")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: output)
        let third = try SiteBuild(options, clock: .ahead(by: 2)).run()
        #expect(third.storeFiles.map { [$0.read, $0.cached] } == [1, 0])
    }

    @Test func aFollowedExportReportsItsFilesNotOthers() throws {
        let work = try TemporaryFolder()
        try work.copy(fixtures + "/firebase", to: "firebase")
        let source = ExportFolderSource(folder: work.path("firebase"))
        let seen = Mutex<[SourceChange]>([])
        let arrived = DispatchSemaphore(value: 0)
        let following = try source.follow(debounce: .milliseconds(20)) { batch in
            seen.withLock { $0 += batch }
            arrived.signal()
        }
        defer { following.stop() }
        try work.write("firebase/auth_export/accounts.json", "{}")
        _ = arrived.wait(timeout: .now() + 0.5)
        #expect(seen.withLock { $0 }.isEmpty)
        let output = "firebase/firestore_export/all_namespaces/all_kinds/output-0"
        try work.write(
            output,
            bytes: work.files("firebase/firestore_export/all_namespaces/all_kinds")["output-0"].map(Array.init) ?? [])
        _ = arrived.wait(timeout: .now() + 5)
        let changes = seen.withLock { $0 }
        #expect(!changes.isEmpty && changes.allSatisfy { $0.target == .store }, "\(changes)")
    }
}
