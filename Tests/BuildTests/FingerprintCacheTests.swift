import Foundation
import Store
import Testing

@testable import Build

/// The fingerprint cache: a rebuild that updates the kept snapshot with captions reworded
/// takes the pages' fingerprints kept with it, and its site is a clean build's; after a like,
/// or with a damaged cache, every page is fingerprinted, and the site is still a clean build's.
extension BuildCacheTests {
    func fingerprintCachePath() throws -> String {
        work.path(
            "cache/"
                + (try #require(try files("cache").first { $0.hasPrefix("fingerprints-") && $0.hasSuffix(".cache") })))
    }

    func rewordCaption(_ tweet: String, _ words: String) throws {
        try edit("tweets/" + tweet) { $0["caption"] = ($0["caption"] as! String) + " (\(words))" }
    }

    @Test func aRewordedCaptionTakesTheKeptFingerprints() throws {
        #expect(try cachedBuild("site").fingerprintsReused == false)
        let written = fileIdentity(try fingerprintCachePath())
        let tweets = try storeFiles("tweets")
        for (round, tweet) in [tweets[0], tweets[0], tweets[3]].enumerated() {
            try rewordCaption(tweet, "round \(round)")
            let report = try cachedBuild("site")
            #expect(report.snapshotReused && report.fingerprintsReused, "round \(round)")
            try expectEqualsCleanBuild("site")
        }
        #expect(fileIdentity(try fingerprintCachePath()) == written, "the kept fingerprints serve: not written again")
    }

    /// A like moves pages that no card shows (a likes tab, the top tweets): after one, every
    /// page is fingerprinted while the snapshot is updated from the kept one. Here one user's
    /// like moves from one tweet to another, so every profile header stays as it was.
    @Test func afterALikeEveryPageIsFingerprinted() throws {
        let store = try generatedStore()
        try cachedBuild("site", store: store)
        let tweets = try files("\(store)/tweets").filter { $0.hasSuffix(".json") }
        let users = try files("\(store)/users").filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        let liker = try #require(
            users.first { FileManager.default.fileExists(atPath: work.path("\(store)/users/\($0)/user-likes")) })
        let liked = try #require(try likes(of: liker, in: store).first)
        let unliked = try #require(tweets.first { !(try likes(of: liker, in: store)).contains($0) })
        let folder = "\(store)/users/\(liker)/user-likes/"
        try FileManager.default.removeItem(atPath: work.path(folder + liked))
        _ = try work.write(folder + unliked, "{}")
        var report = try cachedBuild("site", store: store)
        #expect(report.snapshotReused && !report.fingerprintsReused)
        try expectEqualsCleanBuild("site", store: store)
        try edit("../\(store)/tweets/" + tweets[2]) { $0["caption"] = ($0["caption"] as! String) + " (after the like)" }
        report = try cachedBuild("site", store: store)
        #expect(report.snapshotReused && !report.fingerprintsReused)
        try expectEqualsCleanBuild("site", store: store)
    }

    /// A template edited with a caption: the theme's part moved, so none of the kept
    /// fingerprints serve; they are made and kept again, and serve the next caption edit.
    @Test func anEditedTemplateFingerprintsEveryPageAgain() throws {
        try cachedBuild("site")
        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- edited -->\n").write(
            toFile: card, atomically: true, encoding: .utf8)
        let tweets = try storeFiles("tweets")
        try rewordCaption(tweets[0], "with the template")
        #expect(try cachedBuild("site").fingerprintsReused == false)
        try expectEqualsCleanBuild("site")
        try rewordCaption(tweets[1], "after the template")
        #expect(try cachedBuild("site").fingerprintsReused)
        try expectEqualsCleanBuild("site")
    }

    @Test(arguments: damages + ["another store's"])
    func aDamagedFingerprintCacheIsMadeAgain(damage kind: String) throws {
        try cachedBuild("site")
        let store = work.path("store")
        try damage(try fingerprintCachePath(), kind) { bytes in  // whole, but its header names another store
            bytes = Array(
                String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: store, with: store + "-x").utf8)
        }
        let tweets = try storeFiles("tweets")
        try rewordCaption(tweets[0], "after the damage")
        var report = try cachedBuild("site")
        #expect(report.snapshotReused && !report.fingerprintsReused)
        try expectEqualsCleanBuild("site")
        // …and they are made and kept again, for the next edit.
        try rewordCaption(tweets[1], "after the damage, again")
        report = try cachedBuild("site")
        #expect(report.snapshotReused && report.fingerprintsReused)
        try expectEqualsCleanBuild("site")
    }

    /// A file whose checksum and header are right but whose first page index is a gap of 0
    /// from -1 (no writer makes one) is refused, not read as page -1.
    @Test func aPageIndexBeforeTheFirstIsRefused() throws {
        try cachedBuild("site")
        let identity = StoreIdentity(FolderSource(root: work.path("store")))
        let path = FingerprintCache.path(folder: work.path("cache"), identity: identity)
        try CacheFileWriter.write(path: path, header: FingerprintCache.header(identity: identity)) {
            writer throws(BuildError) in
            try writer.append { out in
                for value: UInt64 in [1, 2, 3] { out.append(value) }  // basis, shared, plan
                for length in [0, 0, 1, 1, 1] { out.append(length: length) }  // terms, pages, shown, tweets
                out.append(UInt64(7))  // the page's fingerprint
                out.append(UInt64(9))  // the tweet's card
                out.append(length: 1)  // the tweet is shown by one page…
                out.append(length: 0)  // …at -1 + 0
            }
        }
        #expect(FingerprintCache.load(path: path, identity: identity, basis: 1, tweetCount: 1) == nil)
    }
}
