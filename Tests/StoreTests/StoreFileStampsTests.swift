import Support
import Testing

@testable import Store

@Suite("StoreFileStamps: the walk's stamps, found by path")
struct StoreFileStampsTests {
    func stamp(_ n: Int64) -> FileStamp { FileStamp(size: n, modified: n, changed: n, inode: UInt64(n)) }

    @Test func findsEachPathAcrossChunks() {
        let paths = (0..<500).map { "tweets/t\($0).json" }
        let chunks = stride(from: 0, to: paths.count, by: 64).map { lo in
            (lo..<min(lo + 64, paths.count)).map { (StableHash.fnv1a(paths[$0]), stamp(Int64($0))) }
        }
        let files = StoreFileStamps(chunks: chunks.reversed()).index()
        #expect(files.count == 500)
        for (k, path) in paths.enumerated() { #expect(files[path] == stamp(Int64(k))) }
        #expect(files["tweets/t500.json"] == nil)
    }

    /// Two files whose paths hash alike are both left out (stat-ed again), never mixed up.
    @Test func aSharedHashIsDropped() {
        let hash = StableHash.fnv1a("users/a.json")
        let files = StoreFileStamps(chunks: [
            [(hash, stamp(1)), (StableHash.fnv1a("users/b.json"), stamp(2))], [(hash, stamp(3))],
        ]).index()
        #expect(files["users/a.json"] == nil)
        #expect(files["users/b.json"] == stamp(2))
        #expect(files.count == 1)
    }

    /// Three files on one hash, and many hashes crowding the same slots of the table: each
    /// other file is still found, and the shared hash stays out however many share it.
    @Test func aHashSharedThreeTimesAmongCrowdedSlotsIsDroppedAlone() {
        let shared: UInt64 = 0x1234
        var chunk: [(UInt64, FileStamp)] = (0..<2000).map { (UInt64($0) << 40, stamp(Int64($0))) }
        chunk.insert((shared, stamp(90_001)), at: 7)
        chunk.insert((shared, stamp(90_002)), at: 900)
        let files = StoreFileStamps(chunks: [chunk, [(shared, stamp(90_003))]]).index()
        #expect(files[pathHash: shared] == nil)
        #expect(files.count == 2000)
        for k in 0..<2000 { #expect(files[pathHash: UInt64(k) << 40] == stamp(Int64(k))) }
        #expect(files[pathHash: 2000 << 40] == nil)
    }
}
