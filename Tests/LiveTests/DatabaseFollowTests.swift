import Foundation
import Live
import Model
import Site
import Store
import Synchronization
import TestSupport
import Testing

/// `roost serve --store firestore://…` follows the database (SPEC 11): the real emulator, with
/// Google's Python client writing as the app does and the same edit made to a folder beside it;
/// after each write, once the stream's step is applied, every served page equals a full build
/// of the folder.
@Suite(.enabled(if: FirestoreApp.shouldRun, Comment(rawValue: FirestoreApp.skipReason)))
struct DatabaseFollowTests {
    static let hyunwoo = "Yw0vbDbtYhNQ5CALWtprSLbJLAfl"
    static let config = SiteConfig()

    /// A site following `project`, with each update it applied.
    final class Following: Sendable {
        let live: LiveSite
        private let updates = Mutex<[LiveSite.Update]>([])
        private let arrived = DispatchSemaphore(value: 0)
        private let following = Mutex<(any ChangeFollowing)?>(nil)

        /// `plan` is the listen plan (`users`, what the emulator gets; `groups`, Google's).
        init(project: String, emulatorHost: String, plan: String = "users") throws {
            live = LiveSite(
                store: "firestore://\(project)", templates: packageRoot + "/templates",
                config: DatabaseFollowTests.config,
                environment: ["FIRESTORE_EMULATOR_HOST": emulatorHost, "ROOST_LISTEN_PLAN": plan])
            let first = live.loadAll()
            #expect(first.error == nil, "\(first.summary)")
            let followed = try live.follow(debounce: .milliseconds(15)) { [self] changes in
                let update = live.apply(changes)
                updates.withLock { $0.append(update) }
                arrived.signal()
            }
            following.withLock { $0 = followed }
        }

        func stop() { following.withLock { $0?.stop() } }

        var all: [LiveSite.Update] { updates.withLock { $0 } }

        /// Waits for the next update, up to `seconds`; false when none came.
        func waitForUpdate(seconds: Double) -> Bool { arrived.wait(timeout: .now() + seconds) == .success }

        /// Waits, up to `seconds`, until some update so far is `seen`.
        func waitForAnUpdate(seconds: Double, _ seen: (LiveSite.Update) -> Bool) {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !all.contains(where: seen), Date() < deadline { _ = waitForUpdate(seconds: 0.5) }
        }
    }

    /// Every page of a full build of the folder.
    static func fullBuild(_ folder: String) throws -> [String: [UInt8]] {
        let snapshot = Snapshot(documents: try DocumentStore.read(at: folder).documents)
        return try RenderedPages(of: snapshot, config: config, stylesheet: defaultStylesheet).files
    }

    /// Waits until what `site` serves equals a full build of `folder` (pages of `previous`
    /// gone from it must be gone from the site too); returns the build. Records the first
    /// difference when it does not come within `seconds`.
    @discardableResult
    static func waitUntilServed(
        _ folder: String, by site: Following, previous: [String: [UInt8]] = [:], seconds: Double = 30,
        _ what: String
    ) throws -> [String: [UInt8]] {
        let expected = try fullBuild(folder)
        func difference() -> String? {
            if let (path, _) = expected.first(where: { site.live.file(at: $0.key) != $0.value }) {
                return "\(path) differs"
            }
            if let gone = previous.keys.first(where: { expected[$0] == nil && site.live.file(at: $0) != nil }) {
                return "\(gone) is still served"
            }
            return nil
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while let different = difference() {
            guard Date() < deadline else {
                Issue.record(
                    "\(what): \(different) after \(seconds) s; updates: \(site.all.map(\.summary).suffix(4))")
                return expected
            }
            _ = site.waitForUpdate(seconds: 0.5)
        }
        return expected
    }

    static func loaded(_ hint: String) throws -> (FirestoreEmulator, FirestoreApp, String, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: packageRoot + "/content", toPath: folder.path("mirror"))
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject(hint)
        let app = FirestoreApp(emulator: emulator, project: project)
        try app.load(folder.path("mirror"))
        return (emulator, app, project, folder)
    }

    /// Both listen plans: the emulator's small targets, and the collection groups that
    /// Google's servers get.
    @Test(arguments: ["users", "groups"]) func everyKindOfWriteReachesTheServedPages(plan: String) throws {
        let (emulator, app, project, folder) = try Self.loaded("follow-" + plan)
        let mirror = folder.path("mirror")
        let site = try Following(project: project, emulatorHost: emulator.host, plan: plan)
        defer { site.stop() }
        var pages = try Self.waitUntilServed(mirror, by: site, "the first state")
        let tweets = try FileManager.default.contentsOfDirectory(atPath: mirror + "/tweets").sorted()
            .map { String($0.dropLast(5)) }
        let liked = Set(
            try FileManager.default.contentsOfDirectory(atPath: "\(mirror)/users/\(Self.hyunwoo)/user-likes")
                .map { String($0.dropLast(5)) })
        let unliked = try #require(tweets.first { !liked.contains($0) })
        let writes: [(String, () throws -> Void)] = [
            ("a like", { try app.like(uid: Self.hyunwoo, tweet: unliked, mirror: mirror) }),
            ("an unlike", { try app.unlike(uid: Self.hyunwoo, tweet: liked.sorted()[0], mirror: mirror) }),
            (
                "a new tweet",
                {
                    try app.tweet(
                        uid: Self.hyunwoo, id: "roostLive01", caption: "Live from the **emulator** #firestore",
                        at: "2024-06-01T12:00:00Z", mirror: mirror)
                }
            ),
            (
                "a reply",
                {
                    try app.tweet(
                        uid: Self.hyunwoo, id: "roostLive02", caption: "a reply", at: "2024-06-01T12:05:00Z",
                        replyTo: "roostLive01", mirror: mirror)
                }
            ),
            ("a caption edit", { try app.editCaption(id: "roostLive01", caption: "Edited #live", mirror: mirror) }),
            ("a user renamed", { try app.rename(uid: Self.hyunwoo, username: "mina_live", mirror: mirror) }),
            (
                "a favorite added",
                {
                    try app.addFavorite(
                        uid: Self.hyunwoo, placeID: "roostPlace01", name: "Seoul Forest", address: "Seongdong-gu",
                        coordinate: (37.5444, 127.0374), mirror: mirror)
                }
            ),
            (
                "a favorite removed",
                { try app.removeFavorite(uid: Self.hyunwoo, placeID: "roostPlace01", mirror: mirror) }
            ),
            (
                "a like of a tweet that does not exist",
                { try app.like(uid: Self.hyunwoo, tweet: "noSuchTweet", mirror: mirror) }
            ),
        ]
        for (what, write) in writes {
            try write()
            pages = try Self.waitUntilServed(mirror, by: site, previous: pages, what)
        }
        let summaries = site.all.map(\.summary)
        #expect(summaries.contains { $0.hasPrefix("1 like added: tweet \(unliked) by @hyunwoo →") }, "\(summaries)")
        #expect(summaries.contains { $0.contains("user renamed: @") }, "\(summaries)")
        #expect(site.all.allSatisfy { $0.error == nil }, "\(site.all.compactMap(\.error))")
    }

    /// The emulator stopped while the site follows it: the pages say they are stale; started
    /// again and written again (without a like and one user's favorites), the site catches up to
    /// exactly the new data, and follows the writes after.
    @Test func theEmulatorStoppedAndStartedAgainIsCaughtUp() throws {
        let folder = try TemporaryFolder()
        let mirror = folder.path("mirror")
        try FileManager.default.copyItem(atPath: packageRoot + "/content", toPath: mirror)
        let emulator = try FirestoreEmulator.startOwn()
        defer { emulator.stop() }
        let project = FirestoreEmulator.newProject("reconnect")
        let app = FirestoreApp(emulator: emulator, project: project)
        try app.load(mirror)
        let site = try Following(project: project, emulatorHost: emulator.host)
        defer { site.stop() }
        var pages = try Self.waitUntilServed(mirror, by: site, "the first state")

        emulator.stop()
        site.waitForAnUpdate(seconds: 20) { $0.error?.contains("reconnecting") == true }
        let stale = try #require(site.all.last { $0.error != nil }, "no update said the stream is down")
        #expect(stale.summary.contains("not followed") && stale.changedPages.isEmpty, "\(stale.summary)")
        #expect(try Self.fullBuild(mirror).allSatisfy { site.live.file(at: $0.key) == $0.value }, "pages kept")

        // The data written again differs: a like fewer, and no favorites of one user.
        let likes = "\(mirror)/users/\(Self.hyunwoo)/user-likes"
        let like = try #require(try FileManager.default.contentsOfDirectory(atPath: likes).sorted().first)
        try FileManager.default.removeItem(atPath: likes + "/" + like)
        let owner = try #require(
            try FileManager.default.contentsOfDirectory(atPath: mirror + "/favorites").sorted().first)
        // All of one user's favorites: a target the new data writes nothing to.
        try FileManager.default.removeItem(atPath: "\(mirror)/favorites/\(owner)")
        try emulator.restart()
        try app.load(mirror)
        pages = try Self.waitUntilServed(mirror, by: site, previous: pages, seconds: 40, "after the restart")
        let tweet = String(like.dropLast(5))
        // The pages can be right before the stream is caught up: a target that holds nothing
        // new (one user's favorites, gone) may come in sync last.
        site.waitForAnUpdate(seconds: 20) { $0.summary.contains("followed again") }
        #expect(site.all.contains { $0.summary.contains("followed again") }, "\(site.all.map(\.summary))")
        #expect(site.all.last?.error == nil, "\(site.all.last?.error ?? "")")

        try app.like(uid: Self.hyunwoo, tweet: tweet, mirror: mirror)
        try Self.waitUntilServed(mirror, by: site, previous: pages, "a like after the restart")
    }
}
