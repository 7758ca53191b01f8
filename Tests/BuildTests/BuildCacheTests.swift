import Foundation
import JSON
import Model
import Site
import Store
import TestSupport
import Testing

@testable import Build

#if canImport(Glibc)
import Glibc
#endif

/// The build cache: a rebuild reads only the store files that changed, and its site is the
/// one a clean build makes, byte for byte; a cache that is not exactly what this Roost wrote
/// for this store is ignored.
@Suite("Build cache")
struct BuildCacheTests {
    let work: TemporaryFolder

    init() throws {
        work = try sampleSiteCopy()
    }

    /// Files changed less than a second before a build are not cached (their time stamps
    /// cannot be trusted yet): these builds see the store as if that second had passed, so
    /// what a test wrote is settled without waiting.
    static let clock = BuildClock.ahead(by: 2)

    @discardableResult
    func cachedBuild(_ output: String, store: String = "store") throws -> BuildReport {
        try SiteBuild(
            BuildOptions(
                store: work.path(store), templates: work.path("templates"), output: work.path(output),
                media: MediaOptions(cache: work.path("cache")), usesCache: true),
            clock: Self.clock
        ).run()
    }

    /// A clean build (no cache) into a fresh folder, compared with `output`.
    func expectEqualsCleanBuild(
        _ output: String, store: String = "store", sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let clean = "clean-\(UUID().uuidString)"
        try SiteBuild(
            BuildOptions(store: work.path(store), templates: work.path("templates"), output: work.path(clean))
        ).run()
        #expect(differing(work, output, clean).isEmpty, sourceLocation: sourceLocation)
        try FileManager.default.removeItem(atPath: work.path(clean))
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: work.path(folder)).sorted()
    }

    func storeFiles(_ collection: String) throws -> [String] {
        try files("store/" + collection).filter { $0.hasSuffix(".json") }
    }

    /// The damages every cache file is tested with: what a crash or a hand leaves.
    static let damages = ["flip a byte", "cut short", "empty"]

    /// Damages the file at `path`: one of `damages`, or as `other` does (the test's own kind).
    func damage(_ path: String, _ kind: String, other: (inout [UInt8]) throws -> Void = { _ in }) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch kind {
        case "flip a byte": bytes[bytes.count / 2] ^= 0x20
        case "cut short": bytes.removeLast(bytes.count / 3)
        case "empty": bytes = []
        default: try other(&bytes)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func edit(_ file: String, _ change: (inout [String: Any]) -> Void) throws {
        let path = work.path("store/" + file)
        var object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
    }

    @Test func aSecondBuildReadsOnlyWhatChanged() throws {
        let first = try cachedBuild("site")
        let total = try #require(first.storeFiles).read
        #expect(first.storeFiles?.cached == 0 && total > 100)
        #expect(try files("cache").contains { $0.hasPrefix("store-") && $0.hasSuffix(".cache") })

        // Settled files are cached: after an edit, only the edited file is read again.
        let tweet = try storeFiles("tweets")[3]
        try edit("tweets/" + tweet) { $0["caption"] = "Edited through the cache #cached" }
        let second = try cachedBuild("site")
        #expect(second.storeFiles?.read == 1)
        #expect(second.storeFiles?.cached == total - 1)
        try expectEqualsCleanBuild("site")
    }

    /// A rebuild lists only the store's folders whose names moved since the cache was written
    /// (the cache knows what the others hold): none after a caption edit, `tweets/` after a
    /// tweet is added, the folders made for a first like; and the cache is written again
    /// when listing them at every rebuild would cost more (see the next test).
    /// Two files whose names differ only in their Unicode form are two documents (SPEC 2.1): a
    /// rebuild that lists their folder again takes each one's cache entry, not the other's.
    @Test func filesNamedInTwoUnicodeFormsKeepTheirOwnEntries() throws {
        let users = try storeFiles("users").map { String($0.dropLast(5)) }
        try work.write([
            tweet("caf\u{E9}", by: users[0], at: "2024-05-01T10:00:00Z", "Composed #forms"),
            tweet("cafe\u{301}", by: users[1], at: "2024-05-01T11:00:00Z", "Decomposed #forms"),
        ])
        try cachedBuild("site")
        try work.write([tweet("later", by: users[0], at: "2024-05-02T10:00:00Z", "A new file: tweets/ listed again")])
        let report = try cachedBuild("site")
        #expect(report.storeListing == .folders(1) && (report.storeFiles?.cached ?? 0) > 0)
        try expectEqualsCleanBuild("site")
    }

    @Test func aRebuildListsOnlyTheFoldersThatMoved() throws {
        #expect(try cachedBuild("site").storeListing == .whole)
        let tweets = try storeFiles("tweets")
        let users = try storeFiles("users").map { String($0.dropLast(5)) }
        func expectListed(_ listing: BuildReport.StoreListing, after what: String, _ edit: () throws -> Void) throws {
            try edit()
            let report = try cachedBuild("site")
            #expect(report.storeListing == listing, "\(what)")
            #expect((report.storeFiles?.cached ?? 0) > 0, "\(what): nothing taken from the cache")
            try expectEqualsCleanBuild("site")
        }
        try expectListed(.folders(0), after: "a caption edited") {
            try edit("tweets/" + tweets[1]) { $0["caption"] = "Edited, the same files #layout" }
        }
        try expectListed(.folders(1), after: "a tweet added") {
            try work.write([tweet("added", by: users[0], at: "2024-05-02T10:00:00Z", "A new file #layout")])
        }
        try expectListed(.folders(0), after: "another caption edited") {
            try edit("tweets/" + tweets[3]) { $0["caption"] = "Edited after a new tweet #layout" }
        }
        // A user without subcollections yet: `users/`, then the user's folder and its likes.
        let fresh = try #require(
            users.first { !FileManager.default.fileExists(atPath: work.path("store/users/\($0)")) })
        try expectListed(.folders(3), after: "a first like") {
            _ = try work.write("store/users/\(fresh)/user-likes/\(tweets[4])", "{}")
        }
        try expectListed(.folders(1), after: "a like removed") {
            try FileManager.default.removeItem(atPath: work.path("store/users/\(fresh)/user-likes/\(tweets[4])"))
        }
        try expectListed(.folders(1), after: "a subcollection's folder removed") {
            try FileManager.default.removeItem(atPath: work.path("store/users/\(fresh)/user-likes"))
        }
        // Two moves of one folder each, no file in it now: not worth writing the cache of 240
        // files for (`isWorthRewriting`), so the next rebuild lists that folder again.
        try expectListed(.folders(1), after: "the same bytes written again") {
            let path = work.path("store/tweets/" + tweets[5])
            try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The user who likes fewest tweets (of those with a likes folder), and a tweet of
    /// `tweets` they do not like (its file name).
    func newLikeOfLeastLikingUser(_ tweets: [String]) throws -> (user: String, tweet: String) {
        let user = try #require(
            try files("store/users").filter {
                FileManager.default.fileExists(atPath: work.path("store/users/\($0)/user-likes"))
            }.min { try files("store/users/\($0)/user-likes").count < files("store/users/\($1)/user-likes").count })
        let liked = try files("store/users/\(user)/user-likes")
        return (user, try #require(tweets.first { !liked.contains($0) }))
    }

    /// A folder that moved is listed again by every rebuild until the cache is written again,
    /// which waits until that costs less: a like added (its user's likes folder, a few names)
    /// leaves the cache file as it was; a tweet added (`tweets/`, most of the store) writes it.
    @Test func theCacheIsWrittenAgainWhenListingWhatMovedCostsMore() throws {
        // The sample store, and 1,000 tweets more: a user's likes folder (11 to 22 files) is
        // then under one file in 64.
        let uid = try #require(try storeFiles("users").first).dropLast(5)
        try work.write((0..<1000).map { tweet("more\($0)", by: String(uid), at: "2024-05-01T10:00:00Z", "More \($0)") })
        try cachedBuild("site")
        let tweets = try storeFiles("tweets")
        let cacheFile = try #require(try files("cache").first { $0.hasPrefix("store-") })
        func cacheIdentity() -> [Int] {
            var st = stat()
            guard stat(work.path("cache/" + cacheFile), &st) == 0 else { return [] }
            return [Int(st.st_ino), st.st_mtim.tv_sec, st.st_mtim.tv_nsec]
        }
        let (likes, unliked) = try newLikeOfLeastLikingUser(tweets)
        let before = cacheIdentity()
        _ = try work.write("store/users/\(likes)/user-likes/\(unliked)", "{}")
        for round in 1...2 {
            if round == 2 {
                try edit("tweets/" + tweets[0]) {
                    $0["caption"] = ($0["caption"] as! String) + " (edited: a build, not \"nothing changed\")"
                }
            }
            let report = try cachedBuild("site")
            // The likes folder listed again; then not: the kept snapshot took the first
            // update's walk, which finds the new like and the caption edit by their places.
            #expect(report.storeListing == .folders(round == 1 ? 1 : 0), "round \(round)")
            // The new like (not in the cache), and the kept snapshot updated with it; then
            // the caption edit too (both read: the kept snapshot has neither).
            #expect(report.storeFiles?.read == round, "round \(round)")
            #expect(report.snapshotReused, "round \(round)")
            #expect(cacheIdentity() == before, "round \(round): the cache is as it was")
            try expectEqualsCleanBuild("site")
        }
        try work.write([tweet("added", by: likes, at: "2024-05-02T10:00:00Z", "A new file")])
        #expect(try cachedBuild("site").storeListing == .folders(2), "tweets/, and the likes folder still")
        #expect(cacheIdentity() != before, "listing tweets/ again costs more: the cache is written")
        try edit("tweets/" + tweets[1]) { $0["caption"] = "Edited after the cache was written" }
        #expect(try cachedBuild("site").storeListing == .folders(0))
        try expectEqualsCleanBuild("site")
    }

    /// A first build writes the cache as it reads the store; when a file cannot be read, the
    /// build fails and leaves no cache of what it read, whole or in part (the folders'
    /// listings, which the walk before the read made, are kept).
    @Test func aFailedFirstBuildLeavesNoCache() throws {
        _ = try work.write("store/tweets/broken.json", "{ not json")
        #expect(throws: (any Error).self) { try cachedBuild("site") }
        #expect(((try? files("cache")) ?? []).allSatisfy { $0.hasPrefix("listing-") })
        try FileManager.default.removeItem(atPath: work.path("store/tweets/broken.json"))
        #expect(try cachedBuild("site").storeFiles?.cached == 0)
        let again = try cachedBuild("again")
        #expect(again.storeFiles?.read == 0)
        try expectEqualsCleanBuild("again")
    }

    /// A cache that lists a file the store does not have, under the store's own layout (as if
    /// the store changed between the walk and the read), is not trusted: the store is listed.
    @Test func aCacheListingAMissingFileIsNotTrusted() throws {
        try cachedBuild("site")
        let identity = StoreIdentity(FolderSource(root: work.path("store")))
        let writer = try DocumentCacheWriter(
            path: DocumentCache.path(folder: work.path("cache"), identity: identity), identity: identity,
            writer: CacheFile.writer)
        try writer.add(
            file: "tweets/gone.json", stamp: FileStamp(size: 2, modified: 1, changed: 1, inode: 1), documents: [])
        try writer.finish(folders: try StoreStamp.of(work.path("store"), recordingFiles: true).folders)
        // (Without the kept snapshot, whose walk would find the edit without this cache.)
        try FileManager.default.removeItem(atPath: SnapshotCache.path(folder: work.path("cache"), identity: identity))
        try edit("tweets/" + (try storeFiles("tweets")[0])) { $0["caption"] = "Edited, the same files" }
        let report = try cachedBuild("site")
        #expect(report.storeListing == .whole)
        #expect(report.storeFiles?.cached == 0)
        try expectEqualsCleanBuild("site")
    }

    /// Random edits of every kind, each rebuilt through the cache and compared with a clean build.
    @Test func randomEditsThroughTheCacheEqualCleanBuilds() throws {
        var random = SeededGenerator(seed: 16)
        try cachedBuild("site")
        // Every kind once, in a shuffled order, then a few more at random.
        let kinds = Array(0..<10).shuffled(using: &random) + (0..<6).map { _ in Int.random(in: 0..<10, using: &random) }
        var captionsEditedSinceDerived = false
        var fingerprintsTaken = 0
        for (round, kind) in kinds.enumerated() {
            let tweets = try storeFiles("tweets")
            let users = try storeFiles("users")
            let tweet = tweets.randomElement(using: &random)!
            let user = users.randomElement(using: &random)!
            let uid = String(user.dropLast(5))
            switch kind {
            case 0:
                try edit("tweets/" + tweet) { $0["caption"] = "Round \(round): #edited with @\(uid.prefix(3))" }
            case 1:
                try edit("users/" + user) { $0["fullname"] = "Renamed \(round)" }
            case 2:  // a like added
                try FileManager.default.createDirectory(
                    atPath: work.path("store/users/\(uid)/user-likes"), withIntermediateDirectories: true)
                _ = try work.write("store/users/\(uid)/user-likes/\(tweet)", "{}")
            case 3:  // a tweet deleted
                try FileManager.default.removeItem(atPath: work.path("store/tweets/" + tweet))
            case 4:  // a tweet added, replying to another
                try work.write([
                    TestSupport.tweet(
                        "added\(round)", by: String(uid), at: "2024-0\(round % 9 + 1)-02T10:00:00Z",
                        "Added \(round) #new", replyTo: String(tweet.dropLast(5)))
                ])
            case 5:  // a broken document, then mended: the build fails and the cache stays right
                let path = "tweets/" + tweet
                let saved = try String(contentsOfFile: work.path("store/" + path), encoding: .utf8)
                _ = try work.write("store/" + path, "{ not json")
                #expect(throws: (any Error).self) { try cachedBuild("site") }
                _ = try work.write("store/" + path, saved)
            case 6:  // a template: every card changes, the store does not
                let card = work.path("templates/partials/card.mustache")
                try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- round \(round) -->\n").write(
                    toFile: card, atomically: true, encoding: .utf8)
            case 8:  // a caption reworded, its hashtags kept: nothing derived changes
                try edit("tweets/" + tweet) { $0["caption"] = ($0["caption"] as! String) + " (round \(round))" }
            case 9:  // two captions reworded, one with its author's words (keys it has anyway)
                let other = tweets.filter { $0 != tweet }.randomElement(using: &random)!
                var author = ""
                try edit("tweets/" + tweet) {
                    author = $0["uid"] as! String
                    $0["caption"] = "Round \(round), reworded: zebra"
                }
                let name = try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: work.path("store/users/\(author).json"))))
                try edit("tweets/" + other) {
                    $0["caption"] = "\(($0["caption"] as! String).prefix(12)) \((name as! [String: Any])["username"]!)"
                }
            default:  // the same bytes written again: a new stamp, the same document
                let path = work.path("store/tweets/" + tweet)
                try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: path))
            }
            let report = try cachedBuild("site")
            #expect((report.storeFiles?.cached ?? 0) > 0, "round \(round): nothing taken from the cache")
            if [0, 1, 5, 6, 7, 8, 9].contains(kind) {
                #expect(report.storeListing == .folders(0), "round \(round): the same files, listed again")
            }
            if kind == 8 || kind == 9, report.snapshotReused {
                #expect(report.searchReused, "round \(round): the postings were made again")
            }
            // (Postings are kept for the snapshot derived last: after captions edited since,
            // a derived snapshot's are not theirs.)
            if kind == 2, !captionsEditedSinceDerived {
                #expect(report.searchReused, "round \(round): a like made the postings again")
            }
            captionsEditedSinceDerived =
                report.snapshotReused && (captionsEditedSinceDerived || [0, 8, 9].contains(kind))
            fingerprintsTaken += report.fingerprintsReused ? 1 : 0
            try expectEqualsCleanBuild("site")
        }
        // (The kept fingerprints serve a caption reworded with no like since the snapshot was
        // derived: some rounds are such, and each of them was compared with a clean build.)
        #expect(fingerprintsTaken > 0, "no round took the kept fingerprints")
    }

    /// A caption's HTML depends on more than its text: a mention links only to a user who
    /// exists. A user renamed to the mentioned name makes the unchanged caption link.
    @Test func aCachedCaptionFollowsTheUsersItMentions() throws {
        let tweet = try storeFiles("tweets")[2]
        try edit("tweets/" + tweet) { $0["caption"] = "Waiting for @zed_arrives to join" }
        try cachedBuild("site")
        let user = try storeFiles("users")[1]
        try edit("users/" + user) { $0["username"] = "zed_arrives" }
        let report = try cachedBuild("site")
        #expect((report.storeFiles?.cached ?? 0) > 0)
        try expectEqualsCleanBuild("site")
        let page = try String(
            contentsOfFile: work.path("site/t/\(tweet.dropLast(5))/index.html"), encoding: .utf8)
        #expect(page.contains("u/zed_arrives/"))
    }

    /// Two captions equal as Swift strings but not byte for byte (é as one code point, and as
    /// e with a combining accent) render to different bytes; the caption cache keeps and gives
    /// each its own, as a clean build renders each.
    @Test func captionsInTwoUnicodeFormsAreCachedApart() throws {
        let tweets = try storeFiles("tweets")
        try work.write([
            tweet(String(tweets[0].dropLast(5)), by: "u1", at: "2024-03-01T10:00:00Z", "Caf\u{e9} **ouvert** #menu"),
            tweet(String(tweets[1].dropLast(5)), by: "u1", at: "2024-03-01T10:00:00Z", "Cafe\u{301} **ouvert** #menu"),
        ])
        try cachedBuild("site")
        try expectEqualsCleanBuild("site")
        try edit("tweets/" + tweets[2]) { $0["caption"] = "Another edit, for a rebuild through the caption cache" }
        let report = try cachedBuild("site")
        #expect((report.storeFiles?.cached ?? 0) > 0)
        try expectEqualsCleanBuild("site")
    }

    /// Both cache files (documents and captions) damaged the same way.
    /// Rewriting the cache costs the whole file: a few edited files are read again instead,
    /// build after build, until they pass one in 64 of the store's files; then it is written.
    @Test func aFewEditsLeaveTheCacheFileAsItWas() throws {
        let total = try #require(try cachedBuild("site").storeFiles).read
        let cacheFile = try work.path("cache/" + #require(files("cache").first { $0.hasPrefix("store-") }))
        let written = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        let tweets = try storeFiles("tweets")
        let edits = (total + 63) / 64
        for k in 1...edits + 1 {
            // (A new hashtag: derived again, every edited file read.)
            try edit("tweets/" + tweets[k]) { $0["caption"] = "Edit \(k) waits for the #cache\(k)" }
            let report = try cachedBuild("site")
            try expectEqualsCleanBuild("site")
            let now = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
            switch k {
            case ..<edits:
                #expect(report.storeFiles?.read == k, "edit \(k): every edited file is read again")
                #expect(now == written, "edit \(k) of \(edits): the cache was written again")
            case edits:
                #expect(report.storeFiles?.read == k)
                #expect(now != written, "\(edits) edited files of \(total): the cache was not written again")
            default:
                #expect(report.storeFiles?.read == 1, "after the rewrite, only the newly edited file is read")
            }
        }
    }

    /// A caption reworded (its hashtags kept) changes nothing derived: a rebuild takes the
    /// last build's snapshot and updates that tweet, as `roost serve` does, reading only the
    /// files the snapshot did not see as they are. An edit that derives something (a hashtag)
    /// derives again, and the snapshot it writes serves the next rebuild.
    @Test func aRewordedCaptionUpdatesTheLastSnapshot() throws {
        #expect(try cachedBuild("site").snapshotReused == false)
        let tweets = try storeFiles("tweets")
        func reword(_ tweet: String, _ words: String) throws {
            try edit("tweets/" + tweet) { $0["caption"] = ($0["caption"] as! String) + " (\(words))" }
        }
        for (round, tweet) in [tweets[1], tweets[1], tweets[3]].enumerated() {
            try reword(tweet, "reworded \(round)")
            let report = try cachedBuild("site")
            #expect(report.snapshotReused, "round \(round)")
            #expect(report.storeFiles?.read == (round < 2 ? 1 : 2), "round \(round): the files edited since")
            try expectEqualsCleanBuild("site")
        }
        // A template edited: the store is as the snapshot saw it (but for the rewordings).
        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- edited -->\n").write(
            toFile: card, atomically: true, encoding: .utf8)
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
        // A hashtag is derived: the snapshot is derived again, and written.
        try edit("tweets/" + tweets[1]) { $0["caption"] = "Now with #anothertag" }
        #expect(try cachedBuild("site").snapshotReused == false)
        try expectEqualsCleanBuild("site")
        try reword(tweets[3], "after the tag")
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
        // A like added is derived (counts, the liker's tab).
        let user = try #require(try storeFiles("users").first).dropLast(5)
        try FileManager.default.createDirectory(
            atPath: work.path("store/users/\(user)/user-likes"), withIntermediateDirectories: true)
        _ = try work.write("store/users/\(user)/user-likes/\(tweets[3])", "{}")
        #expect(try cachedBuild("site").snapshotReused == false)
        try expectEqualsCleanBuild("site")
    }

    /// The kept snapshot keeps the walk that saw its files: a later walk of the same folders
    /// finds the files edited since by their places, and the snapshot is updated without the
    /// document cache (here removed: a rebuild that needed it would read the whole store).
    @Test func aCaptionEditUpdatesTheSnapshotByItsWalk() throws {
        let total = try #require(try cachedBuild("site").storeFiles).read
        let tweet = try storeFiles("tweets")[2]
        for round in 0..<2 {
            for file in try files("cache") where file.hasPrefix("store-") {
                try FileManager.default.removeItem(atPath: work.path("cache/" + file))
            }
            try edit("tweets/" + tweet) { $0["caption"] = "Reworded by the walk, round \(round)" }
            let report = try cachedBuild("site")
            #expect(report.snapshotReused, "round \(round)")
            #expect(report.storeFiles?.read == 1, "round \(round)")
            #expect(report.storeFiles.map { $0.read + $0.cached } == total, "round \(round)")
            #expect(report.storeListing == .folders(0), "round \(round)")
            try expectEqualsCleanBuild("site")
        }
        // A user edited cannot update it: the store is read (the cache is gone) and derived.
        let user = try #require(try storeFiles("users").first)
        try edit("users/" + user) { $0["fullname"] = "Renamed By Hand" }
        let derived = try cachedBuild("site")
        #expect(!derived.snapshotReused && derived.storeFiles?.read == total)
        try expectEqualsCleanBuild("site")
    }

    /// A like added moves its folder, so the kept snapshot's walk no longer serves: the
    /// update through the document cache gives the snapshot its own walk (the like seen as
    /// moved), and the caption edits after it are found by that walk, without the document
    /// cache. A like removed then is in no walk of the folders now: derived again.
    @Test func aCaptionEditAfterALikeUpdatesTheSnapshotByItsWalk() throws {
        // A store where a like added does not make the document cache due (one file in 64).
        let uid = try #require(try storeFiles("users").first).dropLast(5)
        try work.write((0..<1000).map { tweet("more\($0)", by: String(uid), at: "2024-05-01T10:00:00Z", "More \($0)") })
        let total = try #require(try cachedBuild("site").storeFiles).read
        let tweets = try storeFiles("tweets")
        let (liker, unliked) = try newLikeOfLeastLikingUser(tweets)
        let like = "store/users/\(liker)/user-likes/\(unliked)"
        _ = try work.write(like, "{}")
        let liking = try cachedBuild("site")
        #expect(liking.snapshotReused && liking.storeListing == .folders(1))
        try expectEqualsCleanBuild("site")
        for round in 0..<2 {
            for file in try files("cache") where file.hasPrefix("store-") {
                try FileManager.default.removeItem(atPath: work.path("cache/" + file))
            }
            try edit("tweets/" + tweets[2]) { $0["caption"] = "Reworded after a like, round \(round)" }
            let report = try cachedBuild("site")
            #expect(report.snapshotReused, "round \(round)")
            #expect(report.storeFiles?.read == 2, "round \(round): the like and the tweet")
            #expect(report.storeFiles.map { $0.read + $0.cached } == total + 1, "round \(round)")
            #expect(report.storeListing == .folders(0), "round \(round)")
            try expectEqualsCleanBuild("site")
        }
        try FileManager.default.removeItem(atPath: work.path(like))
        let unliking = try cachedBuild("site")
        #expect(!unliking.snapshotReused && unliking.storeFiles?.read == total)
        try expectEqualsCleanBuild("site")
    }

    /// A caption edit's build checks the last build's pages while the kept snapshot is
    /// decoded: a page removed or cut by hand meanwhile is made again, as in any rebuild.
    @Test func pagesDamagedByHandAreMadeAgainByACaptionEdit() throws {
        try cachedBuild("site")
        let tweets = try storeFiles("tweets").map { String($0.dropLast(5)) }
        try edit("tweets/\(tweets[2]).json") { $0["caption"] = "Reworded while pages were lost" }
        try FileManager.default.removeItem(atPath: work.path("site/t/\(tweets[3])/index.html"))
        _ = try work.write("site/t/\(tweets[4])/index.html", "<p>cut")
        let report = try cachedBuild("site")
        #expect(report.snapshotReused && report.storeFiles?.read == 1)
        try expectEqualsCleanBuild("site")
    }

    /// A hashtag rewritten in another Unicode form is the same tag for Swift, but a
    /// derivation names the tag after its newest tweet's bytes: derived again, not updated.
    @Test func aHashtagInAnotherUnicodeFormIsDerivedAgain() throws {
        let tweet = "tweets/" + (try storeFiles("tweets")[2])
        try edit(tweet) { $0["caption"] = "Only here: #caf\u{E9}" }
        try cachedBuild("site")
        try edit(tweet) { $0["caption"] = "Only here, reworded: #cafe\u{301}" }
        #expect(try cachedBuild("site").snapshotReused == false)
        try expectEqualsCleanBuild("site")
    }

    /// An image without alt text is a problem of the tweet's own document: a caption that
    /// gains or loses one is derived again, so that the snapshot's notice follows it.
    @Test func aCaptionWithAProblemIsDerivedAgain() throws {
        try cachedBuild("site")
        let tweet = "tweets/" + (try storeFiles("tweets")[2])
        var caption = ""
        try edit(tweet) {
            caption = $0["caption"] as! String
            $0["caption"] = caption + " ![](https://example.com/no-alt.png)"
        }
        #expect(try cachedBuild("site").snapshotReused == false)
        try expectEqualsCleanBuild("site")
        try edit(tweet) { $0["caption"] = caption }
        #expect(try cachedBuild("site").snapshotReused == false)
        try expectEqualsCleanBuild("site")
    }

    /// The snapshot file changed by hand (a caption, keeping its length): its checksum fails,
    /// and the store is read and derived again.
    @Test func aSnapshotEditedByHandIsIgnored() throws {
        try cachedBuild("site")
        let tweets = try storeFiles("tweets")
        let object =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: work.path("store/tweets/" + tweets[0]))))
            as! [String: Any]
        let caption = Array((object["caption"] as! String).utf8)
        let path = work.path("cache/" + (try #require(try files("cache").first { $0.hasPrefix("snapshot-") })))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let start = try #require(bytes.firstRange(of: caption)).lowerBound
        for k in 0..<min(8, caption.count) { bytes[start + k] = UInt8(ascii: "X") }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try edit("tweets/" + tweets[1]) { $0["caption"] = ($0["caption"] as! String) + " (reworded)" }
        let report = try cachedBuild("site")
        #expect(report.snapshotReused == false)
        #expect(report.storeFiles?.read == 1, "the document cache still serves")
        try expectEqualsCleanBuild("site")
    }

    @Test(arguments: damages + ["hand edit"])
    func aDamagedCacheIsIgnored(damage kind: String) throws {
        try cachedBuild("site")
        // (The search, context, listing and fingerprint caches hold no captions:
        // `aDamagedSearchCacheIsMadeAgain`, `aDamagedContextCacheIsMadeAgain`,
        // `aDamagedListingCacheIsMadeAgain` and `aDamagedFingerprintCacheIsMadeAgain` damage them.)
        let names = try files("cache").filter {
            $0.hasSuffix(".cache")
                && !["search-", "context-", "listing-", "fingerprints-"].contains(where: $0.hasPrefix)
        }
        #expect(names.contains { $0.hasPrefix("store-") } && names.contains { $0.hasPrefix("captions-") })
        let tweet = try storeFiles("tweets")[0]
        let object =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: work.path("store/tweets/" + tweet))))
            as! [String: Any]
        let caption = Array((object["caption"] as! String).utf8)
        for name in names {
            try damage(work.path("cache/" + name), kind) { bytes in
                // A caption changed in the cache, keeping its length: the site must not show it.
                let start = try #require(bytes.firstRange(of: caption)).lowerBound
                for k in 0..<min(8, caption.count) { bytes[start + k] = UInt8(ascii: "X") }
            }
        }
        let report = try cachedBuild("again")
        #expect(report.storeFiles?.cached == 0)
        try expectEqualsCleanBuild("again")
        // …and it is written again, whole.
        #expect(try cachedBuild("third").storeFiles?.read == 0)
        try expectEqualsCleanBuild("third")
    }

    /// Two stores share the cache folder; each one's cache given to the other is refused.
    @Test func anotherStoresCacheIsIgnored() throws {
        try work.copy(work.path("store"), to: "other")
        try edit("tweets/" + (try storeFiles("tweets")[0])) { $0["caption"] = "Only in the first store" }
        try cachedBuild("a")
        try cachedBuild("b", store: "other")
        for kind in ["store-", "snapshot-"] {
            let caches = try files("cache").filter { $0.hasPrefix(kind) && $0.hasSuffix(".cache") }
            try #require(caches.count == 2)
            let (first, second) = (work.path("cache/" + caches[0]), work.path("cache/" + caches[1]))
            try FileManager.default.moveItem(atPath: first, toPath: first + ".swap")
            try FileManager.default.moveItem(atPath: second, toPath: first)
            try FileManager.default.moveItem(atPath: first + ".swap", toPath: second)
        }
        for (output, store) in [("a", "store"), ("b", "other")] {
            let report = try cachedBuild(output + "2", store: store)
            #expect(report.storeFiles?.cached == 0 && !report.snapshotReused)
            try expectEqualsCleanBuild(output + "2", store: store)
        }
    }

    @Test func aSingleFileStoreIsCachedWhole() throws {
        let export = """
            {"__collections__": {
              "users": {"u1": {"username": "ada", "__collections__": {}}},
              "tweets": {"t1": {"caption": "Hello #cache", "timestamp": "2024-01-01T00:00:00Z", "uid": "u1",
                                "__collections__": {}}}
            }}
            """
        _ = try work.write("export.json", export)
        #expect(try cachedBuild("single", store: "export.json").storeFiles?.read == 1)
        let again = try cachedBuild("single2", store: "export.json")
        #expect(again.storeFiles?.read == 0 && again.storeFiles?.cached == 1)
        try expectEqualsCleanBuild("single2", store: "export.json")
        _ = try work.write("export.json", export.replacingOccurrences(of: "Hello", with: "Bye"))
        #expect(try cachedBuild("single2", store: "export.json").storeFiles?.read == 1)
        try expectEqualsCleanBuild("single2", store: "export.json")
    }

    /// The cache folder cannot be made: the build goes on, and says so.
    @Test func anUnwritableCacheIsANoticeNotAFailure() throws {
        _ = try work.write("cache", "a file where the folder should be")
        let report = try cachedBuild("site")
        #expect(report.notices.contains { $0.description.contains("build cache cannot be written") })
        try expectEqualsCleanBuild("site")
    }
}

/// A build killed while it writes the cache leaves the old cache or none, never a torn one,
/// and the next build is right. The writes run in a child process: this test binary, running
/// only `cacheWritingChild`.
@Suite struct BuildCacheKillTests {
    static let childVariable = "ROOST_CACHE_KILL_CHILD"

    /// Not a test of its own: writes the cache of the store again and again, with a tweet's
    /// caption changed in each round, until killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func cacheWritingChild() throws {
        let folder = ProcessInfo.processInfo.environment[Self.childVariable]!
        let identity = StoreIdentity(FolderSource(root: folder + "/store"))
        let path = DocumentCache.path(folder: folder + "/cache", identity: identity)
        let tweet = try #require(
            Snapshot.read(at: folder + "/store").0.tweets.first.map { tweet in
                DecodedDocument(
                    Document(
                        path: DocumentPath(["tweets", tweet.id]),
                        fields: Fields(json: [
                            ("caption", .string(tweet.caption)), ("uid", .string(tweet.authorUID)),
                            ("timestamp", .string("2024-01-01T00:00:00Z")),
                        ]), source: "tweets/\(tweet.id).json"))
            })
        for round in 0... {
            let writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer)
            for k in 0..<20_000 {
                try writer.add(
                    file: "tweets/\(k).json", stamp: FileStamp(size: Int64(round), modified: 1, changed: 1, inode: 1),
                    documents: [tweet])
            }
            try writer.finish(folders: nil)
        }
    }

    @Test func aKilledCacheWriteLeavesNoTornCache() throws {
        let work = try sampleSiteCopy()
        let identity = StoreIdentity(FolderSource(root: work.path("store")))
        let cachePath = DocumentCache.path(folder: work.path("cache"), identity: identity)
        var killedWhileWriting = 0
        try build(work, "clean")  // (a clean site to compare with at the end)
        // Timing decides where each kill lands: on a busy machine the child may not have begun
        // by the last delay. Then up to 4 more are killed once their first write has begun (its
        // temporary file is there), so that a kill in the middle of a write is always tried.
        let delays = [400, 600, 800, 1_000, 1_200, 1_400, 1_600, 1_800]
        for attempt in 0..<(delays.count + 4) {
            if attempt >= delays.count && killedWhileWriting > 0 { break }
            let child = try TestChild(filter: "cacheWritingChild", variable: Self.childVariable, value: work.path())
            let temporary = cachePath + ".tmp-\(child.processIdentifier)"
            if attempt < delays.count {
                usleep(UInt32(delays[attempt]) * 1_000)
            } else {
                let deadline = Date().addingTimeInterval(60)
                while !FileManager.default.fileExists(atPath: temporary) && Date() < deadline { usleep(1_000) }
            }
            #expect(child.kill())
            if FileManager.default.fileExists(atPath: temporary) { killedWhileWriting += 1 }
            // The cache under its own name is always whole: this binary accepts it.
            if FileManager.default.fileExists(atPath: cachePath) {
                #expect(DocumentCache.load(path: cachePath, identity: identity, writer: CacheFile.writer) != nil)
            }
        }
        #expect(killedWhileWriting > 0, "no kill landed while the cache was being written")
        let report = try SiteBuild(
            BuildOptions(
                store: work.path("store"), templates: work.path("templates"), output: work.path("site"),
                media: MediaOptions(cache: work.path("cache")), usesCache: true)
        ).run()
        #expect(report.storeFiles != nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path("cache"))
        #expect(!leftovers.contains { $0.contains(".tmp-") }, "a dead build's file is still there: \(leftovers)")
        #expect(differing(work, "site", "clean").isEmpty)
    }
}
