import Foundation
import Store
import Support
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The stamp walk takes a folder's names from the last walk's listings when the folder's
/// own stamp has not moved, and stamps the store exactly as a walk that lists everything.
@Suite("FolderListings: folders not listed again when they have not moved")
struct FolderListingsTests {
    /// Every folder settled: what the walks below keep.
    let settled = Int64.max
    let folders = [
        "", "users", "users/u1", "users/u1/user-likes", "tweets", "favorites", "favorites/u1",
        "favorites/u1/favorites",
    ]

    /// A small store whose folders' modification times are put back a day, so that a name added
    /// or removed by a test moves them even within the clock tick the walk ran in.
    func sample() throws -> TemporaryFolder {
        let dir = try walkedStore()
        for folder in folders { backdate(dir.path(folder)) }
        return dir
    }

    func backdate(_ path: String) {
        var times = [
            timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0), timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0),
        ]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// What a walk that lists every folder gives, next to one that takes `known`'s names.
    func expectSameStamp(
        _ dir: TemporaryFolder, known: FolderListings?, taken: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StoreStamp {
        let plain = try StoreStamp.of(dir.path(), recordingFiles: true)
        let walked = try StoreStamp.of(dir.path(), recordingFiles: true, listings: (known, settled))
        #expect(walked == plain, sourceLocation: sourceLocation)
        #expect(walked.folders == plain.folders, sourceLocation: sourceLocation)
        #expect(walked.files?.count == plain.files?.count, sourceLocation: sourceLocation)
        let (a, b) = (try #require(walked.files).index(), try #require(plain.files).index())
        for i in 0..<2100 { #expect(a["tweets/t\(i).json"] == b["tweets/t\(i).json"], sourceLocation: sourceLocation) }
        #expect(walked.foldersTaken == taken, sourceLocation: sourceLocation)
        #expect(walked.foldersListed == folders.count - taken, sourceLocation: sourceLocation)
        // The weights the walk counted are those of the listings it kept, compared one by one.
        let kept = try #require(walked.listings)
        #expect(
            kept.weight == kept.folders.values.reduce(0) { $0 + $1.names.count + 1 }, sourceLocation: sourceLocation)
        let same = kept.folders.filter { known?.folders[$0.key]?.stamp == $0.value.stamp }
        #expect(
            walked.listingWeights == (kept.weight, same.values.reduce(0) { $0 + $1.names.count + 1 }),
            sourceLocation: sourceLocation)
        return walked
    }

    @Test func anUnmovedStoreIsNotListedAgain() throws {
        let dir = try sample()
        let first = try expectSameStamp(dir, known: nil, taken: 0)
        let listings = try #require(first.listings)
        #expect(listings.folders.keys.sorted() == folders.sorted())
        _ = try expectSameStamp(dir, known: listings, taken: folders.count)
    }

    @Test func aFolderWhoseNamesMovedIsListedAgain() throws {
        let dir = try sample()
        var listings = try #require(try expectSameStamp(dir, known: nil, taken: 0).listings)
        // An edit in place moves only the file: every folder is taken, the file's new stamp seen.
        try dir.write("tweets/t7.json", #"{"caption": "edited"}"#)
        listings = try #require(try expectSameStamp(dir, known: listings, taken: folders.count).listings)
        try dir.write("users/u1/user-likes/t2.json", "{}")
        listings = try #require(try expectSameStamp(dir, known: listings, taken: folders.count - 1).listings)
        backdate(dir.path("users/u1/user-likes"))
        try FileManager.default.removeItem(atPath: dir.path("tweets/t3.json"))
        listings = try #require(try expectSameStamp(dir, known: listings, taken: folders.count - 2).listings)
        backdate(dir.path("tweets"))
        try FileManager.default.moveItem(atPath: dir.path("tweets/t4.json"), toPath: dir.path("tweets/t4b.json"))
        listings = try #require(try expectSameStamp(dir, known: listings, taken: folders.count - 1).listings)
        try dir.mkdir("favorites/u2")
        let last = try StoreStamp.of(dir.path(), recordingFiles: true, listings: (listings, settled))
        #expect(last.foldersListed == 2, "favorites/ and its new u2/")
        #expect(last == (try StoreStamp.of(dir.path())))
    }

    @Test func aFolderThatHasNotSettledIsNotKept() throws {
        let dir = try sample()
        let stamp = try StoreStamp.of(dir.path(), listings: (nil, 0))
        #expect(stamp.listings?.folders.isEmpty == true)
        let recent = try StoreStamp.of(dir.path(), listings: (nil, Int64(time(nil) - 3600) * 1_000_000_000))
        #expect(recent.listings?.folders.isEmpty == true, "every folder was changed a day ago, or just now")
    }

    @Test func listingsRoundTripAndRefuseNamesNoListingGives() throws {
        let dir = try sample()
        let listings = try #require(try StoreStamp.of(dir.path(), listings: (nil, settled)).listings)
        func encoded(_ listings: FolderListings) -> [UInt8] {
            var out = ByteWriter()
            listings.encode { body in body(&out) }
            return out.bytes
        }
        let bytes = encoded(listings)
        let decoded = try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return try FolderListings(from: &reader)
        }
        #expect(decoded == listings)
        #expect(encoded(decoded) == bytes, "the same listings, the same bytes")
        for bad in ["", ".hidden", "a/b", "..", String(repeating: "x", count: 256), "a\0.b", "a\0\0b", "a\0b/"] {
            let names = Array(bad.utf8) + [0]
            #expect(FolderNames(bytes: names, kinds: [.regular]) == nil, "\(bad)")
        }
        #expect(FolderNames(bytes: Array("a\0b\0".utf8), kinds: [.regular]) == nil, "one kind short")
        #expect(FolderNames(bytes: Array("a\0b".utf8), kinds: [.regular, .regular]) == nil, "no last NUL")
        #expect(FolderNames(bytes: Array("a\0b\0".utf8), kinds: [.regular, .directory])?.count == 2)
    }

    @Test func listingsCutShortOrNamingAFolderTwiceAreRefused() throws {
        let dir = try sample()
        let listings = try #require(try StoreStamp.of(dir.path(), listings: (nil, settled)).listings)
        // The count, then each folder, as `encode` emits them.
        var parts: [[UInt8]] = []
        listings.encode { body in
            var out = ByteWriter()
            body(&out)
            parts.append(out.bytes)
        }
        #expect(parts.count == listings.folders.count + 1)
        func decodes(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { raw in
                var reader = ByteReader(raw)
                return (try? FolderListings(from: &reader)) != nil
            }
        }
        let whole = parts.flatMap { $0 }
        #expect(decodes(whole))
        for cut in stride(from: 0, to: whole.count, by: max(1, whole.count / 97)) {
            #expect(!decodes(Array(whole[..<cut])), "cut at \(cut) of \(whole.count) bytes")
        }
        var count = ByteWriter()
        count.append(length: listings.folders.count + 1)
        #expect(!decodes(count.bytes + parts[1] + parts.dropFirst().flatMap { $0 }), "a folder twice")
    }
}
