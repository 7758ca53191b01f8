import Model
import Store
import TestSupport
import Testing

@testable import Build

/// The build cache knows stores only as document sources: one that is no folder and no file
/// (held in memory) is cached entry by entry, its unchanged entries not read again.
@Suite("Build cache: any document source")
struct SourceCacheTests {
    static let documents = [
        user("u1", "mina"), user("u2", "jiwoo"), like("u2", "t1"),
        tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "first"),
        tweet("t2", by: "u2", at: "2023-01-02T00:00:00Z", "second", replyTo: "t1"),
    ]

    static func read(_ source: MemorySource, cache: TemporaryFolder) throws -> CachedStoreRead {
        try CachedStoreRead(
            source: source, cacheFolder: cache.path(), walk: nil, clock: .ahead(by: 2), phases: { _ in })
    }

    /// What a page shows of a snapshot, to compare one read with another.
    static func shown(_ snapshot: Snapshot) -> [String] {
        snapshot.users.map(\.username) + snapshot.tweets.map(\.caption) + ["\(snapshot.likeCount) likes"]
    }

    @Test func aSourceInMemoryIsCachedEntryByEntry() throws {
        let cache = try TemporaryFolder()
        let source = MemorySource(Self.documents)
        let whole = try Snapshot.read(from: source).0
        _ = source.takeReadCount()

        let first = try Self.read(source, cache: cache)
        #expect((first.readFiles, first.reusedFiles) == (5, 0))
        #expect(source.takeReadCount() == 5)
        #expect(Self.shown(first.snapshot) == Self.shown(whole))

        let second = try Self.read(source, cache: cache)
        #expect((second.readFiles, second.reusedFiles) == (0, 5))
        #expect(source.takeReadCount() == 0)
        #expect(Self.shown(second.snapshot) == Self.shown(whole))

        source.put(tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "edited"), time: 2)
        let third = try Self.read(source, cache: cache)
        #expect((third.readFiles, third.reusedFiles) == (1, 4))
        #expect(source.takeReadCount() == 1)
        #expect(Self.shown(third.snapshot) == Self.shown(try Snapshot.read(from: source).0))
        #expect(third.snapshot.tweets.contains { $0.caption == "edited" })
    }
}
