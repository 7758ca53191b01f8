import Model
import Site
import Store
import Support
import TestSupport
import Testing

@testable import Build

/// The caption cache read back through its tables: every caption finds the entry with its
/// bytes (not another Unicode form of the same text), with that entry's keys and render; a
/// file whose tables point outside it is refused, or finds nothing, but never reads past it.
@Suite("Caption cache")
struct CaptionCacheTests {
    let folder: TemporaryFolder
    var identity: StoreIdentity { StoreIdentity(FolderSource(root: folder.path("store"))) }
    var path: String { folder.path("captions.cache") }

    init() throws { folder = try TemporaryFolder() }

    static let captions = ["first **bold**", "café", "cafe\u{301}", "first **bold**", "", "#tag @name"]

    func tweets(_ captions: [String]) -> [Tweet] {
        let documents =
            [user("u1", "ana")]
            + captions.enumerated().map {
                tweet("t\($0.offset)", by: "u1", at: "2024-01-0\($0.offset + 1)T10:00:00Z", $0.element)
            }
        return Snapshot(documents: documents).tweets
    }

    func write(_ captions: [String]) throws {
        let tweets = tweets(captions)
        let distinct = CaptionCache.distinct(tweets, matched: nil, entryCount: 0)
        try CaptionCache.write(
            path: path, identity: identity, context: 7, captions: tweets.map(\.caption), distinct: distinct,
            keys: { ["key\($0)", tweets[$0].caption] },
            renders: { CaptionRender(html: "<p>\(tweets[$0].caption)</p>", excerpt: "x\($0)") })
    }

    @Test func everyCaptionFindsTheEntryWithItsBytes() throws {
        try write(Self.captions)
        let cache = try #require(CaptionCache.load(path: path, identity: identity))
        let tweets = tweets(Self.captions)
        #expect(cache.entryCount == 5)  // the repeated caption once
        let matched = cache.entries(of: tweets)
        #expect(!matched.contains(-1))
        #expect(Set(matched).count == 5)
        for (t, tweet) in tweets.enumerated() {
            let keys = try #require(cache.keys(entry: matched[t]))
            #expect(keys.count == 2 && keys[1] == tweet.caption && sameBytes(keys[1], tweet.caption))
            let renders = cache.renders(matched: matched)
            #expect(renders.render(t)?.html == "<p>\(tweet.caption)</p>")
            #expect(renders.digest(t) == CaptionRender.digest(html: "<p>\(tweet.caption)</p>"))
        }
        let distinct = CaptionCache.distinct(tweets, matched: matched, entryCount: cache.entryCount)
        #expect(distinct.count == 5)
        #expect(cache.drift(matched: matched, distinct: distinct, context: 7) == 0)
        #expect(cache.drift(matched: matched, distinct: distinct.dropLast(), context: 7) == 1)
        #expect(cache.drift(matched: matched, distinct: distinct, context: 8) == nil)
        // Captions it does not have, nor one of its own in another form, find nothing.
        let others = self.tweets(["first **bold** ", "cafe\u{301}\u{301}", "Café", "new"])
        #expect(cache.entries(of: others) == [-1, -1, -1, -1])
    }

    /// Rewrites the body of the cache at `path` with `change` (its checksum made again).
    func rewrite(_ change: (inout [UInt8]) -> Void) throws {
        let file = try #require(CacheFile.open(path, header: CaptionCache.header(identity: identity)))
        var body = Array(file.mapping[file.body])
        change(&body)
        try CacheFileWriter.write(path: path, header: CaptionCache.header(identity: identity)) {
            (writer: CacheFileWriter) throws(BuildError) in
            try writer.append { $0.append(body) }
        }
    }

    @Test func tablesThatPointOutsideAreRefusedOrFindNothing() throws {
        try write(Self.captions)
        let tweets = tweets(Self.captions)
        func store(_ value: UInt64, at offset: Int, in body: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { for i in 0..<8 { body[offset + i] = $0[i] } }
        }
        // The table's start past the end: no cache.
        try rewrite { store(UInt64.max / 2, at: $0.count - 8, in: &$0) }
        #expect(CaptionCache.load(path: path, identity: identity) == nil)
        // The body cut before the tables: no cache.
        try write(Self.captions)
        try rewrite { $0.removeLast(40) }
        #expect(CaptionCache.load(path: path, identity: identity) == nil)
        // Every record's caption pointing past the entries: read, but nothing is found.
        try write(Self.captions)
        let records = try #require(CaptionCache.load(path: path, identity: identity)).entryCount
        try rewrite { body in
            let start = body.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: body.count - 8, as: UInt64.self)) }
            let headerLength = try! #require(CacheFile.open(path, header: CaptionCache.header(identity: identity))).body
                .lowerBound
            for k in 0..<records { store(1 << 40, at: start - headerLength + k * 32 + 8, in: &body) }
        }
        let cache = try #require(CaptionCache.load(path: path, identity: identity))
        #expect(cache.entries(of: tweets) == [Int32](repeating: -1, count: tweets.count))
        #expect(cache.keys(entry: 0) == nil)
    }

    /// Tables of any bytes (a file that passed its checksum, written by no Roost) never make a
    /// read go outside the file: whatever they say, each question gets an answer or none.
    @Test func tablesOfAnyBytesAreReadSafely() throws {
        let tweets = tweets(Self.captions)
        var random = SeededGenerator(seed: 30)
        for round in 0..<60 {
            try write(Self.captions)
            try rewrite { body in
                let start = body.withUnsafeBytes {
                    Int($0.loadUnaligned(fromByteOffset: body.count - 8, as: UInt64.self))
                }
                let headerLength = try! #require(CacheFile.open(path, header: CaptionCache.header(identity: identity)))
                    .body.lowerBound
                let tables = (start - headerLength)..<body.count
                for _ in 0..<(1 + round % 8) {
                    body[Int.random(in: tables, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            guard let cache = CaptionCache.load(path: path, identity: identity) else { continue }
            let matched = cache.entries(of: tweets)
            let renders = cache.renders(matched: matched)
            for t in tweets.indices {
                _ = cache.keys(entry: matched[t])
                _ = cache.keys(entry: Int32(t))
                if renders.has(t) {
                    _ = renders.render(t)
                    _ = renders.digest(t)
                }
            }
        }
    }
}
