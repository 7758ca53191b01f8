import Support
import TestSupport
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
        let files = StoreFileStamps(chunks: chunks.reversed().map { StoreFileStamps.Chunk(recorded: $0) }).index()
        #expect(files.count == 500)
        for (k, path) in paths.enumerated() { #expect(files[path] == stamp(Int64(k))) }
        #expect(files["tweets/t500.json"] == nil)
    }

    /// Two files whose paths hash alike are both left out (stat-ed again), never mixed up.
    @Test func aSharedHashIsDropped() {
        let hash = StableHash.fnv1a("users/a.json")
        let files = StoreFileStamps(chunks: [
            StoreFileStamps.Chunk(recorded: [(hash, stamp(1)), (StableHash.fnv1a("users/b.json"), stamp(2))]),
            StoreFileStamps.Chunk(recorded: [(hash, stamp(3))]),
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
        let files = StoreFileStamps(chunks: [
            StoreFileStamps.Chunk(recorded: chunk), StoreFileStamps.Chunk(recorded: [(shared, stamp(90_003))]),
        ]).index()
        #expect(files[pathHash: shared] == nil)
        #expect(files.count == 2000)
        for k in 0..<2000 { #expect(files[pathHash: UInt64(k) << 40] == stamp(Int64(k))) }
        #expect(files[pathHash: 2000 << 40] == nil)
    }
}

/// A store of 2,100 tweets (more than one part of `tweets/` in a walk), a user with a like and
/// a favorite.
func walkedStore() throws -> TemporaryFolder {
    let dir = try TemporaryFolder()
    try dir.write("users/u1.json", #"{"username": "a"}"#)
    try dir.write("users/u1/user-likes/t1.json", "{}")
    for i in 0..<2100 { try dir.write("tweets/t\(i).json", #"{"caption": "hello"}"#) }
    try dir.write("favorites/u1/favorites/p1.json", #"{"placeName": "x"}"#)
    return dir
}

/// What a walk saw of each file, in walk order (`StoreStamp.seen`), and what a later walk of
/// the same folders finds moved since (`StoreFileStamps.moved`), by place, with each place's path.
@Suite("StoreFileStamps: the files moved since a walk")
struct StoreFileStampsMovedTests {
    func sample() throws -> TemporaryFolder { try walkedStore() }

    /// A walk that records files and keeps what it saw, trusting the stamps of files last
    /// changed before `settledBefore`.
    func walk(_ dir: TemporaryFolder, settledBefore: Int64 = .max) throws -> StoreStamp {
        try StoreStamp.of(dir.path(), recordingFiles: true, listings: (nil, settledBefore))
    }

    @Test func eachPlaceHasItsFilesPath() throws {
        let dir = try sample()
        let files = try #require(try walk(dir).files)
        #expect(files.count == 2103)
        let paths = Set((0..<files.count).map(files.relativePath(at:)))
        #expect(paths.count == 2103)
        #expect(paths.contains("users/u1/user-likes/t1.json") && paths.contains("tweets/t2099.json"))
        #expect(paths.contains("users/u1.json") && paths.contains("favorites/u1/favorites/p1.json"))
    }

    @Test func filesEditedInPlaceAreFoundByTheirPlaces() throws {
        let dir = try sample()
        let seen = try #require(try walk(dir).seen)
        #expect(seen.count == 2103)
        #expect(try walk(dir).files?.moved(since: seen) == [])
        // (A walk that records no files keeps the same.)
        #expect(try StoreStamp.of(dir.path(), listings: (nil, .max)).seen == seen)

        try dir.write("tweets/t1500.json", #"{"caption": "hello, again"}"#)
        try dir.write("users/u1/user-likes/t1.json", #"{"timestamp": 5}"#)
        let files = try #require(try walk(dir).files)
        let moved = try #require(files.moved(since: seen))
        #expect(Set(moved.map(files.relativePath(at:))) == ["tweets/t1500.json", "users/u1/user-likes/t1.json"])
    }

    /// A file changed too recently to trust its stamp is seen as no stamp: found moved at
    /// every later walk.
    @Test func anUnsettledFileIsAlwaysMoved() throws {
        let dir = try sample()
        let files = try #require(try walk(dir).files)
        let index = files.index()
        let t7 = try #require(index["tweets/t7.json"])
        let seen = try #require(try walk(dir, settledBefore: t7.newest).seen)
        let again = try #require(try walk(dir).files)
        let moved = try #require(again.moved(since: seen)).map(again.relativePath(at:))
        #expect(moved.contains("tweets/t7.json"))
        #expect(moved.allSatisfy { try! #require(index[$0]).newest >= t7.newest })
    }

    /// What a walk saw with some files seen as untrusted: those, and only those, are found
    /// moved by every later walk of the same files.
    @Test func filesSeenUntrustedAreAlwaysMoved() throws {
        let dir = try sample()
        let walked = try walk(dir)
        let (files, seen) = (try #require(walked.files), try #require(walked.seen))
        let untrusted: Set<String> = ["tweets/t12.json", "users/u1/user-likes/t1.json"]
        let kept = files.seen(seen, untrusting: Set(untrusted.map { StableHash.fnv1a($0) }))
        for _ in 0..<2 {
            let again = try #require(try walk(dir).files)
            #expect(Set(try #require(again.moved(since: kept)).map(again.relativePath(at:))) == untrusted)
        }
    }

    /// Another number of files is no answer (the places no longer line up).
    @Test func aFileAddedGivesNoAnswer() throws {
        let dir = try sample()
        let seen = try #require(try walk(dir).seen)
        try dir.write("tweets/new.json", #"{"caption": "new"}"#)
        #expect(try walk(dir).files?.moved(since: seen) == nil)
    }
}
