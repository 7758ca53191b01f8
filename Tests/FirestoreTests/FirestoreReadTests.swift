import Firestore
import Foundation
import Model
import Store
import TestSupport
import Testing

/// The database read against the real emulator: paging, and one read time while the app
/// writes (SPEC 11).
@Suite(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
struct FirestoreReadTests {
    static let content = packageRoot + "/content"

    static func source(_ emulator: FirestoreEmulator, _ project: String, pageSize: Int, parallel: Int = 4) throws
        -> FirestoreSource
    {
        let endpoint = try FirestoreEndpoint.resolve(
            FirestoreAddress(project: project), environment: emulator.environment(project: project))
        return FirestoreSource(FirestoreClient(endpoint), pageSize: pageSize, parallelGroups: parallel)
    }

    @Test func smallPagesReadEveryDocumentOnceAsTheFolderHasThem() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("paging")
        try FirestoreApp(emulator: emulator, project: project).load(Self.content)
        let folder = try DocumentStore.read(at: Self.content)
        for (pageSize, parallel) in [(7, 1), (7, 4), (20_000, 4)] {
            let source = try Self.source(emulator, project, pageSize: pageSize, parallel: parallel)
            let store = try source.readStore()
            #expect(store.documents.map(\.path) == folder.documents.map(\.path), "page \(pageSize)")
            #expect(store.missingParents == folder.missingParents)
            #expect(source.documentsRead == folder.documents.count)
        }
    }

    /// The app's like is one batch: the like and the tweet's counter. At one read time, each
    /// tweet's counter minus its likes is what it was before the app began, whatever the app
    /// wrote meanwhile; pages read at different times would see a like without its counter.
    @Test func aReadWhileTheAppWritesSeesOneReadTime() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("consistent")
        let app = FirestoreApp(emulator: emulator, project: project)
        try app.load(Self.content)
        // Pages of 5, one group at a time: a read that spans the writes.
        let source = try Self.source(emulator, project, pageSize: 5, parallel: 1)
        let before = try Self.counterDrift(source.readStore())
        let writer = Thread { _ = try? app.churn(seconds: 6, seed: 3) }
        writer.start()
        Thread.sleep(forTimeInterval: 1.5)
        var reads = 0
        let end = Date(timeIntervalSinceNow: 3.5)
        while Date() < end {
            #expect(try Self.counterDrift(source.readStore()) == before)
            reads += 1
        }
        #expect(reads > 1)
        while writer.isExecuting || !writer.isFinished { Thread.sleep(forTimeInterval: 0.2) }
        #expect(try Self.counterDrift(source.readStore()) == before)
    }

    /// Each tweet's stored counter minus the likes that point at it.
    static func counterDrift(_ store: DocumentStore) -> [String: Int64] {
        var drift: [String: Int64] = [:]
        for document in store.documents {
            let segments = document.path.segments
            if segments.count == 2, segments[0] == "tweets", case .integer(let n)? = document.fields["likes"] {
                drift[segments[1], default: 0] += n
            } else if segments.count == 4, segments[2] == "user-likes" {
                drift[segments[3], default: 0] -= 1
            }
        }
        return drift
    }
}
