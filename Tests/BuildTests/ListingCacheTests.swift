import Foundation
import TestSupport
import Testing

@testable import Build

#if canImport(Glibc)
import Glibc
#endif

/// The listing cache: a rebuild's stamp walk lists only the store's folders whose own stamps
/// moved since the last walk, takes the others' names from the cache, and its site is a clean
/// build's; a damaged listing cache is not used, and written again.
extension BuildCacheTests {
    func listingCachePath() throws -> String {
        work.path(
            "cache/" + (try #require(try files("cache").first { $0.hasPrefix("listing-") && $0.hasSuffix(".cache") })))
    }

    /// The listing cache file's inode and modification time: whether it was written again.
    func listingCacheIdentity() throws -> [Int] {
        var st = stat()
        guard stat(try listingCachePath(), &st) == 0 else { return [] }
        return [Int(st.st_ino), st.st_mtim.tv_sec, st.st_mtim.tv_nsec]
    }

    func expectWalk(
        _ listed: Int, of all: Int, after what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: () throws -> Void
    ) throws {
        try change()
        let walk = try #require(try cachedBuild("site").storeWalk, sourceLocation: sourceLocation)
        #expect(walk.listed == listed && walk.taken == all - listed, "\(what): \(walk)", sourceLocation: sourceLocation)
        try expectEqualsCleanBuild("site", sourceLocation: sourceLocation)
    }

    @Test func theStampWalkListsOnlyTheFoldersThatMoved() throws {
        let first = try #require(try cachedBuild("site").storeWalk)
        let all = first.listed
        #expect(first.taken == 0 && all > 30, "a first build lists every folder")
        _ = try listingCachePath()
        let nothing = try cachedBuild("site")
        #expect(nothing.outcome == .nothingChanged)
        #expect(nothing.storeWalk?.listed == 0 && nothing.storeWalk?.taken == all)

        let tweets = try storeFiles("tweets")
        let uid = String(try #require(try storeFiles("users").first).dropLast(5))
        try expectWalk(0, of: all, after: "a caption edited") {
            try edit("tweets/" + tweets[0]) { $0["caption"] = "Edited in place #walk" }
        }
        try expectWalk(1, of: all, after: "a tweet added") {
            try work.write([tweet("added", by: uid, at: "2024-05-02T10:00:00Z", "A new file #walk")])
        }
        try expectWalk(0, of: all, after: "another caption edited, the listings written again") {
            try edit("tweets/" + tweets[1]) { $0["caption"] = "Edited after a new tweet #walk" }
        }
        try expectWalk(1, of: all, after: "a tweet removed") {
            try FileManager.default.removeItem(atPath: work.path("store/tweets/" + tweets[2]))
        }
        try expectWalk(1, of: all, after: "a tweet renamed") {
            try FileManager.default.moveItem(
                atPath: work.path("store/tweets/" + tweets[3]), toPath: work.path("store/tweets/renamed.json"))
        }
    }

    @Test(arguments: damages)
    func aDamagedListingCacheIsMadeAgain(damage kind: String) throws {
        let all = try #require(try cachedBuild("site").storeWalk).listed
        try damage(try listingCachePath(), kind)
        let damaged = try listingCacheIdentity()
        let tweets = try storeFiles("tweets")
        try expectWalk(all, of: all, after: "the damage") {
            try edit("tweets/" + tweets[0]) { $0["caption"] = "Edited after the damage" }
        }
        #expect(try listingCacheIdentity() != damaged, "written again")
        try expectWalk(0, of: all, after: "a caption edited") {
            try edit("tweets/" + tweets[1]) { $0["caption"] = "Edited after the cache was mended" }
        }
    }

    /// A folder that moved is listed by every rebuild until the listing cache is written again,
    /// which waits until that costs less (counted in names): a place added to a user's
    /// favorites (a folder of one name) leaves it as it was; a tweet added (`tweets/`) writes it.
    @Test func theListingCacheIsWrittenAgainWhenListingWhatMovedCostsMore() throws {
        let uid = String(try #require(try storeFiles("users").first).dropLast(5))
        try work.write((0..<1000).map { tweet("more\($0)", by: uid, at: "2024-05-01T10:00:00Z", "More \($0)") })
        let all = try #require(try cachedBuild("site").storeWalk).listed
        let before = try listingCacheIdentity()
        let places = try #require(
            try files("store/favorites").map { "store/favorites/\($0)/favorites" }.first {
                FileManager.default.fileExists(atPath: work.path($0))
            })
        let place = try #require(try files(places).first)
        let text = try String(contentsOfFile: work.path("\(places)/\(place)"), encoding: .utf8)
        _ = try work.write("\(places)/another.json", text.replacingOccurrences(of: place.dropLast(5), with: "another"))
        let tweets = try storeFiles("tweets")
        for round in 1...2 {
            try expectWalk(1, of: all, after: "round \(round)") {
                try edit("tweets/" + tweets[round]) { $0["caption"] = "Edited, round \(round)" }
            }
            #expect(try listingCacheIdentity() == before, "round \(round): the listing cache is as it was")
        }
        try expectWalk(2, of: all, after: "a tweet added") {
            try work.write([tweet("added", by: uid, at: "2024-05-02T10:00:00Z", "A new file")])
        }
        #expect(try listingCacheIdentity() != before, "listing tweets/ again costs more: written again")
        try expectWalk(0, of: all, after: "a caption edited") {
            try edit("tweets/" + tweets[3]) { $0["caption"] = "Edited after the listings were written" }
        }
    }
}
