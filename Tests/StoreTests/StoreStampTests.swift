import Foundation
import Store
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("StoreStamp: a store's file metadata without reading it")
struct StoreStampTests {
    func sample() throws -> TemporaryFolder {
        let dir = try TemporaryFolder()
        try dir.write("users/u1.json", #"{"username": "a"}"#)
        try dir.write("users/u1/user-likes/t1.json", "{}")
        try dir.write("tweets/t1.json", #"{"caption": "hello"}"#)
        try dir.write("favorites/u1/favorites/p1.json", #"{"name": "x"}"#)
        return dir
    }

    @Test func anUntouchedStoreKeepsItsStamp() throws {
        let dir = try sample()
        let a = try StoreStamp.of(dir.path())
        let b = try StoreStamp.of(dir.path())
        #expect(a == b)
        #expect(a.entries == 12, "the root, 7 folders and 4 files: 12; \(a.entries)")
    }

    /// The links the walk meets, at any depth, by their paths in the store, in order; the
    /// store's own folder given through a link is no link of the store's.
    @Test func theWalkNamesTheLinksItDoesNotFollow() throws {
        let dir = try sample()
        #expect(try StoreStamp.of(dir.path()).links.isEmpty)
        try dir.write("elsewhere/t9.json", "{}")
        symlink(dir.path("elsewhere/t9.json"), dir.path("tweets/t9.json"))
        symlink(dir.path("elsewhere"), dir.path("users/u1/user-likes/more"))
        symlink(dir.path("elsewhere"), dir.path("places"))
        symlink(dir.path(), dir.path("../store-link-\(getpid())"))
        defer { unlink(dir.path("../store-link-\(getpid())")) }
        let expected = ["places", "tweets/t9.json", "users/u1/user-likes/more"]
        for recording in [false, true] {
            #expect(try StoreStamp.of(dir.path(), recordingFiles: recording).links == expected)
        }
        #expect(try StoreStamp.of(dir.path("../store-link-\(getpid())")).links == expected)
        // Names taken from the last walk's listings: the links are named all the same.
        let first = try StoreStamp.of(dir.path(), listings: (nil, Int64.max))
        let second = try StoreStamp.of(dir.path(), listings: (first.listings, Int64.max))
        #expect(second.foldersTaken > 0 && second.links == expected)
    }

    @Test func everyKindOfChangeMovesTheDigest() throws {
        let dir = try sample()
        var seen = [try StoreStamp.of(dir.path()).digest]
        func expectNew(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let digest = try StoreStamp.of(dir.path()).digest
            #expect(!seen.contains(digest), "\(what) left the digest as it was", sourceLocation: sourceLocation)
            seen.append(digest)
        }
        // Same size, and the old modification time put back: the change time still moves.
        let file = dir.path("tweets/t1.json")
        var before = stat()
        stat(file, &before)
        usleep(20_000)
        try dir.write("tweets/t1.json", #"{"caption": "HELLO"}"#)
        var times = [before.st_atim, before.st_mtim]
        utimensat(AT_FDCWD, file, &times, 0)
        try expectNew("a same-size edit with its old mtime")
        try dir.write("users/u1/user-likes/t2.json", "{}")
        try expectNew("a file added deep down")
        try FileManager.default.removeItem(atPath: dir.path("users/u1/user-likes/t1.json"))
        try expectNew("a file removed")
        try FileManager.default.moveItem(atPath: dir.path("tweets/t1.json"), toPath: dir.path("tweets/t9.json"))
        try expectNew("a file renamed")
        try dir.mkdir("tweets/t9")
        try expectNew("an empty folder added")
        // A folder is counted from its own stamp (taken once it is open): its times alone moved.
        var folderTimes = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, dir.path("favorites/u1/favorites"), &folderTimes, 0)
        try expectNew("a folder's times changed deep down")
        utimensat(AT_FDCWD, dir.path("users"), &folderTimes, 0)
        try expectNew("a collection's times changed")
    }

    /// A cached read takes each file's stamp from the walk: it must be the one `FileStamp`
    /// gives for that path, for every regular file (in big collections too), and none for
    /// folders or files the walk did not see.
    @Test func theWalkRecordsEveryFilesStampByPath() throws {
        let dir = try sample()
        for i in 0..<2100 { try dir.write("tweets/b\(i).json", "{}") }
        #expect(try StoreStamp.of(dir.path()).files == nil, "recorded without being asked")
        let stamp = try StoreStamp.of(dir.path(), recordingFiles: true)
        let files = try #require(stamp.files)
        #expect(files.count == 4 + 2100)
        let index = files.index()
        for relative in ["users/u1.json", "users/u1/user-likes/t1.json", "favorites/u1/favorites/p1.json"]
            + (0..<2100).map({ "tweets/b\($0).json" })
        {
            #expect(index[relative] == FileStamp.of(dir.path(relative)), "\(relative)")
        }
        #expect(index["users/u1"] == nil)
        #expect(index["users"] == nil)
        #expect(index["tweets/t2.json"] == nil)
        #expect(try StoreStamp.of(dir.path()) == stamp, "recording changes the stamp")
    }

    /// Big collections are stat'ed in chunks on several threads: every entry still counts once.
    @Test func aLargeCollectionCountsEveryEntryOnce() throws {
        let dir = try TemporaryFolder()
        for i in 0..<2500 { try dir.write("tweets/t\(i).json", "{}") }
        let a = try StoreStamp.of(dir.path())
        #expect(a.entries == 2502, "the root, tweets/ and 2,500 files (two chunks); \(a.entries)")
        #expect(try StoreStamp.of(dir.path()) == a)
        try dir.write("tweets/t2321.json", "{ }")
        #expect(try StoreStamp.of(dir.path()).digest != a.digest)
    }

    /// The folders below the collections (a user's) are walked some at a time: every file of
    /// each, however deep, is counted and recorded once, the last batch's too.
    @Test func manyUsersFoldersAreEachWalkedOnce() throws {
        let dir = try TemporaryFolder()
        let users = 75  // two batches and part of a third
        for u in 0..<users {
            try dir.write("users/u\(u).json", "{}")
            try dir.write("users/u\(u)/user-likes/t\(u).json", "{}")
            try dir.write("users/u\(u)/user-likes/s\(u).json", "{}")
        }
        let a = try StoreStamp.of(dir.path(), recordingFiles: true)
        // The root, users/, each user's file, folder, likes folder and two likes.
        #expect(a.entries == 2 + users * 5, "\(a.entries)")
        let files = try #require(a.files)
        #expect(files.count == users * 3)
        let index = files.index()
        for u in 0..<users {
            #expect(
                index["users/u\(u)/user-likes/s\(u).json"]
                    == FileStamp.of(dir.path("users/u\(u)/user-likes/s\(u).json")))
        }
        #expect(try StoreStamp.of(dir.path()) == a)
        try dir.write("users/u\(users - 1)/user-likes/t\(users - 1).json", "{ }")
        #expect(try StoreStamp.of(dir.path()).digest != a.digest, "an edit in the last user's folder went unseen")
    }

    @Test func namesStartingWithADotAreLeftOut() throws {
        let dir = try sample()
        try dir.write(".git/HEAD", "ref")
        try dir.write("users/.DS_Store", "x")
        // (The folders holding them changed, which moves the digest; their entries do not count.)
        #expect(try StoreStamp.of(dir.path()).entries == 12)
    }

    @Test func theNewestTimeIsTheLatestChange() throws {
        let dir = try sample()
        let file = dir.path("tweets/t1.json")
        var future = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
        utimensat(AT_FDCWD, file, &future, 0)
        let stamp = try StoreStamp.of(dir.path())
        #expect(stamp.newest >= Int64(time(nil) + 3600) * 1_000_000_000)
    }

    @Test func aSingleFileStoreIsItsOwnStamp() throws {
        let dir = try TemporaryFolder()
        let file = try dir.write("store.json", #"{"documents": []}"#)
        let a = try StoreStamp.of(file)
        let b = try StoreStamp.of(file)
        #expect(a.entries == 1 && a == b)
        try dir.write("store.json", #"{"documents": [ ]}"#)
        #expect(try StoreStamp.of(file).digest != a.digest)
    }

    @Test func aMissingStoreIsNotFound() {
        #expect(throws: StoreError.self) { try StoreStamp.of("/nonexistent/roost-store") }
    }
}
