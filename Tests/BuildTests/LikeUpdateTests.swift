import Foundation
import Synthetic
import Testing

@testable import Build

/// Likes through the kept snapshot: a like added, changed or removed updates the last
/// build's snapshot (`Snapshot.replaceLikes`) instead of deriving it again, and the site
/// and its problems are a clean build's. On a generated store of some 1,400 files: in the
/// sample's 241, listing one likes folder again is due a cache rewrite (a derivation).
extension BuildCacheTests {
    func generatedStore() throws -> String {
        _ = try SyntheticStore.generate(
            SyntheticStore.Options(users: 60, tweets: 250, seed: 7), to: work.path("big"), force: false)
        // Old enough for the cache to trust every file at once.
        Thread.sleep(forTimeInterval: 1.1)
        return "big"
    }

    func likes(of uid: String, in store: String) throws -> [String] {
        try files("\(store)/users/\(uid)/user-likes").filter { $0.hasSuffix(".json") }
    }

    /// A rebuild through the cache (the kept snapshot updated, or not, when `updates` says),
    /// with a clean build's pages and warnings.
    func expectLikeRebuild(
        _ store: String, updates: Bool?, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let report = try cachedBuild("site", store: store)
        if let updates { #expect(report.snapshotReused == updates, comment, sourceLocation: sourceLocation) }
        let clean = "clean-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work.path(clean)) }
        let cleanReport = try SiteBuild(
            BuildOptions(store: work.path(store), templates: work.path("templates"), output: work.path(clean))
        ).run()
        #expect(report.warnings == cleanReport.warnings, comment, sourceLocation: sourceLocation)
        #expect(differing(work, "site", clean).isEmpty, comment, sourceLocation: sourceLocation)
    }

    @Test func likesAddedChangedAndRemovedUpdateTheKeptSnapshot() throws {
        let store = try generatedStore()
        try cachedBuild("site", store: store)
        let tweets = try files("\(store)/tweets").filter { $0.hasSuffix(".json") }
        let users = try files("\(store)/users").filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        let likers = users.filter {
            FileManager.default.fileExists(atPath: work.path("\(store)/users/\($0)/user-likes"))
        }
        let liker = try #require(likers.first)
        let unliked = try #require(tweets.first { !(try likes(of: liker, in: store)).contains($0) })
        let folder = "\(store)/users/\(liker)/user-likes/"
        _ = try work.write(folder + unliked, "{}")
        try expectLikeRebuild(store, updates: true, "a like added")
        let other = try #require(tweets.last { !(try likes(of: liker, in: store)).contains($0) })
        _ = try work.write(folder + other, #"{"timestamp": "2031-01-01T00:00:00Z"}"#)
        try expectLikeRebuild(store, updates: true, "a second like, the newest of all")
        _ = try work.write(folder + unliked, #"{"timestamp": "2032-01-01T00:00:00Z"}"#)
        try expectLikeRebuild(store, updates: true, "a like's time changed: first in the list now")
        try FileManager.default.removeItem(atPath: work.path(folder + other))
        try expectLikeRebuild(store, updates: true, "a like removed")
        let kept = try likes(of: liker, in: store).first { $0 != unliked }!
        try FileManager.default.removeItem(atPath: work.path(folder + kept))
        try expectLikeRebuild(store, updates: true, "a like the store came with removed")
        try FileManager.default.removeItem(atPath: work.path(folder))
        try expectLikeRebuild(store, updates: true, "every like of a user removed")

        // A like of a tweet that does not exist, or with a problem: derived again.
        let another = "\(store)/users/\(likers[1])/user-likes/"
        _ = try work.write(another + "noSuchTweet.json", "{}")
        try expectLikeRebuild(store, updates: false, "a like of a tweet that does not exist")
        _ = try work.write(another + "noSuchTweet.json", #"{"timestamp": 12}"#)
        try expectLikeRebuild(store, updates: false, "a like with a problem")
        try FileManager.default.removeItem(atPath: work.path(another + "noSuchTweet.json"))
        try expectLikeRebuild(store, updates: false, "a like with a problem removed")
        _ = try work.write(another + unliked, #"{"timestamp": "2030-05-05T05:05:05Z"}"#)
        // (Derived without a cache rewrite: the kept snapshot no longer saw the cache's folders.)
        try expectLikeRebuild(store, updates: nil, "then a like the snapshot can take")
    }
}
