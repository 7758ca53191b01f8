import Foundation
import Testing

@testable import Build

/// The search cache: a rebuild that updates the last snapshot's captions updates its postings
/// too, and its site is a clean build's; a search cache that is not exactly the one of that
/// snapshot, as this Roost wrote it for this store, is not used.
extension BuildCacheTests {
    func searchCachePath() throws -> String {
        work.path(
            "cache/" + (try #require(try files("cache").first { $0.hasPrefix("search-") && $0.hasSuffix(".cache") })))
    }

    func reword(_ tweet: String, _ words: String) throws {
        try edit("tweets/" + tweet) { $0["caption"] = ($0["caption"] as! String) + " " + words }
    }

    @Test func aRewordedCaptionUpdatesTheKeptPostings() throws {
        #expect(try cachedBuild("site").searchReused == false)
        let tweets = try storeFiles("tweets")
        for (round, tweet) in [tweets[0], tweets[0], tweets[2]].enumerated() {
            try reword(tweet, "zebra\(round) quokka")
            let report = try cachedBuild("site")
            #expect(report.snapshotReused && report.searchReused, "round \(round)")
            try expectEqualsCleanBuild("site")
        }
    }

    /// A like added derives the snapshot again, but every key stays where it was: the kept
    /// postings serve it, and are kept again for the new snapshot's caption edits.
    @Test func aLikeAddedTakesThePostingsOfTheSameCaptions() throws {
        try cachedBuild("site")
        let tweets = try storeFiles("tweets")
        let user = String(try storeFiles("users")[1].dropLast(5))
        try FileManager.default.createDirectory(
            atPath: work.path("store/users/\(user)/user-likes"), withIntermediateDirectories: true)
        _ = try work.write("store/users/\(user)/user-likes/\(tweets[3])", "{}")
        var report = try cachedBuild("site")
        #expect(!report.snapshotReused && report.searchReused)
        try expectEqualsCleanBuild("site")
        try reword(tweets[3], "after the like")
        report = try cachedBuild("site")
        #expect(report.snapshotReused && report.searchReused)
        try expectEqualsCleanBuild("site")
        // A caption with a new hashtag changes the inputs: the postings are made again.
        try edit("tweets/" + tweets[4]) { $0["caption"] = "A #brandnew tag" }
        report = try cachedBuild("site")
        #expect(!report.snapshotReused && !report.searchReused)
        try expectEqualsCleanBuild("site")
    }

    @Test(arguments: damages + ["another store's"])
    func aDamagedSearchCacheIsMadeAgain(damage kind: String) throws {
        try cachedBuild("site")
        let path = try searchCachePath()
        try damage(path, kind) { bytes in  // the same postings, written for a copy of the store: its header differs
            try work.copy(work.path("store"), to: "other")
            try cachedBuild("b", store: "other")
            let other = try #require(
                try files("cache").first { $0.hasPrefix("search-") && work.path("cache/" + $0) != path })
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: work.path("cache/" + other))))
        }
        let tweet = try storeFiles("tweets")[0]
        try reword(tweet, "after the damage")
        let report = try cachedBuild("site")
        #expect(report.snapshotReused && !report.searchReused)
        try expectEqualsCleanBuild("site")
        // …and it is written again, for the snapshot kept.
        try reword(tweet, "and once more")
        #expect(try cachedBuild("site").searchReused)
        try expectEqualsCleanBuild("site")
    }

    /// Postings of an earlier snapshot put back: the kept snapshot was derived since, and they
    /// are not its own.
    @Test func postingsOfAnotherSnapshotAreNotUsed() throws {
        try cachedBuild("site")
        let path = try searchCachePath()
        let earlier = try Data(contentsOf: URL(fileURLWithPath: path))
        let tweets = try storeFiles("tweets")
        try edit("tweets/" + tweets[1]) { $0["caption"] = "A new #hashtag derives the snapshot again" }
        #expect(try cachedBuild("site").snapshotReused == false)
        try earlier.write(to: URL(fileURLWithPath: path))
        try reword(tweets[2], "reworded")
        let report = try cachedBuild("site")
        #expect(report.snapshotReused && !report.searchReused)
        try expectEqualsCleanBuild("site")
    }
}
