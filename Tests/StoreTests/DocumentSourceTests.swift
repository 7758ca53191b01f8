import Foundation
import JSON
import Store
import Synchronization
import TestSupport
import Testing

/// A store is read through its source: a folder and an export file of the same documents
/// give the same documents, each entry can be stamped and read alone, and a followed source
/// reports each change as what it is for the store.
@Suite("Document sources: a folder and an export file")
struct DocumentSourceTests {
    static let documents = [
        user("u1", "mina"), user("u2", "jiwoo"),
        tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "first"),
        tweet("t2", by: "u2", at: "2023-01-02T00:00:00Z", "second"),
    ]

    /// The documents as a firestore-export-import file: `{collection: {id: {fields}}}`.
    static func exportFile(_ documents: [Document]) -> String {
        var collections: [(key: String, value: JSONValue)] = []
        for document in documents {
            let (collection, id) = (document.path.segments[0], document.path.id)
            let body = DirectoryStoreWriter.jsonObject(document.fields)
            if let k = collections.firstIndex(where: { $0.key == collection }),
                case .object(let ids) = collections[k].value
            {
                collections[k].value = .object(ids + [(id, body)])
            } else {
                collections.append((collection, .object([(id, body)])))
            }
        }
        return String(decoding: JSONWriter.write(.object(collections)), as: UTF8.self)
    }

    @Test func aFolderAndAFileGiveTheSameDocuments() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.documents, in: "store")
        try folder.write("export.json", Self.exportFile(Self.documents))
        let fromFolder = try DocumentStore.source(at: folder.path("store"))
        let fromFile = try DocumentStore.source(at: folder.path("export.json"))
        #expect(fromFolder is FolderSource && fromFolder.layout == .documentPerEntry)
        #expect(fromFile is ExportFileSource && fromFile.layout == .oneEntry)

        let paths = Self.documents.map(\.path).sorted()
        for source in [fromFolder, fromFile] {
            try source.checkShape()
            #expect(try source.readStore().documents.map(\.path) == paths)
            let read = try source.read(stamps: nil, reusing: nil, transform: { document, _ in document.path })
            #expect(read.values.sorted() == paths)
            var batches: [[DocumentPath]] = []
            _ = try source.read(transform: { $0.path }, take: { batches.append($0) }, restart: { batches = [] })
            #expect(batches.flatMap { $0 }.sorted() == paths)
        }
        #expect(try fromFolder.readStore().documents.map(\.fields) == fromFile.readStore().documents.map(\.fields))
        #expect(throws: (any Error).self) { try DocumentStore.source(at: folder.path("missing")) }
    }

    @Test func aFolderEntryIsOneDocumentFileStampedAndReadAlone() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.documents, in: "store")
        let source = try DocumentStore.source(at: folder.path("store"))
        #expect(source.stamp(ofEntry: "tweets/t1.json") != nil)
        #expect(source.stamp(ofEntry: "tweets/none.json") == nil)
        #expect(try source.documents(inEntry: "tweets/t1.json")?.map(\.path.description) == ["tweets/t1"])
        #expect(try source.documents(inEntry: "tweets/none.json") == nil)
        let listed = try #require(try source.entries(inFolder: "tweets"))
        #expect(listed.entries == ["tweets/t1.json", "tweets/t2.json"])
        // Reused entries are not read; the others get their stamp.
        let read = try source.read(
            stamps: nil, reusing: { entry, _ in entry.hasPrefix("users/") ? "cached \(entry)" : nil },
            transform: { document, stamp in "read \(document.source) \(stamp != nil)" })
        #expect(
            read.values.sorted() == [
                "cached users/u1.json", "cached users/u2.json", "read tweets/t1.json true", "read tweets/t2.json true",
            ])
        #expect(read.folders != nil)
    }

    @Test func anExportFileIsOneEntry() throws {
        let folder = try TemporaryFolder()
        try folder.write("export.json", Self.exportFile(Self.documents))
        let source = try DocumentStore.source(at: folder.path("export.json"))
        #expect(source.stamp(ofEntry: "") != nil)
        #expect(source.stamp(ofEntry: "tweets/t1") == nil)
        #expect(try source.documents(inEntry: "")?.count == Self.documents.count)
        #expect(try source.entries(inFolder: "tweets") == nil)
    }

    /// What `follow` reports, batch by batch, until `count` changes came (or 5 s passed).
    static func followed(_ source: any DocumentSource, count: Int, making changes: () throws -> Void) throws
        -> [SourceChange]
    {
        let seen = Mutex<[SourceChange]>([])
        let arrived = DispatchSemaphore(value: 0)
        let following = try source.follow(debounce: .milliseconds(20)) { batch in
            seen.withLock { $0 += batch }
            arrived.signal()
        }
        defer { following.stop() }
        try changes()
        let deadline = Date().addingTimeInterval(5)
        while seen.withLock({ $0.count }) < count, Date() < deadline {
            _ = arrived.wait(timeout: .now() + 0.2)
        }
        return seen.withLock { $0 }
    }

    @Test func aFollowedFolderReportsDocumentsAndFoldersNotOtherFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.documents + [like("u2", "t1")], in: "store")
        let source = try DocumentStore.source(at: folder.path("store"))
        let changes = try Self.followed(source, count: 3) {
            try folder.write("store/tweets/.t1.json.swp", "editor")
            try folder.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "edited")], in: "store")
            try FileManager.default.removeItem(atPath: folder.path("store/tweets/t2.json"))
            try FileManager.default.removeItem(atPath: folder.path("store/users/u2"))
        }
        let (t1, t2) = (DocumentPath(["tweets", "t1"]), DocumentPath(["tweets", "t2"]))
        #expect(changes.contains(SourceChange(.document(t1, entry: "tweets/t1.json"), .modified)))
        #expect(changes.contains(SourceChange(.document(t2, entry: "tweets/t2.json"), .deleted)))
        #expect(changes.contains { $0.target == .folder("users/u2") && $0.kind == .deleted }, "\(changes)")
        #expect(!changes.contains { "\($0)".contains("swp") }, "\(changes)")
    }

    @Test func aFollowedExportFileReportsTheWholeStore() throws {
        let folder = try TemporaryFolder()
        try folder.write("export.json", Self.exportFile(Self.documents))
        let source = try DocumentStore.source(at: folder.path("export.json"))
        let changes = try Self.followed(source, count: 1) {
            try folder.write("other.json", "{}")
            try folder.write("export.json", Self.exportFile(Array(Self.documents.prefix(2))))
        }
        #expect(!changes.isEmpty && changes.allSatisfy { $0.target == .store }, "\(changes)")
    }
}
