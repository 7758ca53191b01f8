import Foundation
import Live
import Model
import Preview
import Site
import Store
import TestSupport
import Testing

/// `roost serve` keeps a store live: after any sequence of edits, every page it serves must
/// equal a full build of the store as it is on disk, and the pages it reports as updated must
/// include every page whose bytes changed.
@Suite("LiveSite: served equals a full build after every edit")
struct LiveSiteTests {
    /// A small deterministic PRNG (SplitMix64), so a failure can be replayed from its seed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[below(items.count)] }
    }

    /// The store on disk, as files the test writes.
    final class StoreFolder {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("roost-live-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// What the watcher reports when `relative` changes.
        func change(_ relative: String, _ kind: FileWatcher.Change.Kind) -> FileWatcher.Change {
            FileWatcher.Change(root: URL(fileURLWithPath: root), path: relative, kind: kind)
        }

        func write(_ relative: String, _ json: String) {
            let url = URL(fileURLWithPath: root + "/" + relative)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(json.utf8).write(to: url)
        }
        func delete(_ relative: String) { try? FileManager.default.removeItem(atPath: root + "/" + relative) }
        func files(under folder: String) -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            var found: [String] = []
            while let name = enumerator?.nextObject() as? String {
                if name.hasSuffix(".json") { found.append(folder + "/" + name) }
            }
            return found.sorted()
        }
    }

    static func time(_ minute: Int) -> String {
        String(format: "2023-05-%02dT%02d:%02d:00Z", 1 + minute / 1440, minute / 60 % 24, minute % 60)
    }

    /// Every page of a full build of the store as it is on disk.
    static func fullBuild(_ root: String, _ config: SiteConfig) throws -> [String: [UInt8]] {
        let snapshot = Snapshot(documents: try DocumentStore.read(at: root).documents)
        let renderer = try SiteRenderer(snapshot: snapshot, config: config, templates: defaultTemplates)
        var pages: [String: [UInt8]] = [:]
        for page in renderer.plan.pages { pages[page.path] = try renderer.render(page) }
        return pages
    }

    @Test(arguments: [1, 2])
    func randomEdits(seed: UInt64) throws {
        var random = Random(state: seed)
        let store = try StoreFolder()
        let usernames = ["mina", "joon", "Mina", "seo.yeon", "taeho", "emily"]
        var users = ["u0", "u1", "u2", "u3"]
        var tweets: [String] = []
        /// Each tweet's fields but the caption's text: `{caption}` marks where it goes.
        var tweetShapes: [String: String] = [:]
        var minute = 0
        func writeUser(_ uid: String, name: String) {
            store.write("users/\(uid).json", #"{"username": "\#(name)", "fullname": "Name \#(random.below(100))", "email": "\#(uid)@x.example"}"#)
        }
        func writeTweet(_ id: String) {
            minute += 1 + random.below(3)
            let author = random.pick(users + ["ghost"])!
            let mention = random.pick(usernames).map { "@\($0)" } ?? ""
            let tag = ["#swift", "#Swift", "#서울", "", ""][random.below(5)]
            var fields = #""caption": "post \#(random.below(1000)) \#(mention) \#(tag)", "timestamp": "\#(Self.time(minute))", "uid": "\#(author)""#
            if random.below(3) == 0, let parent = random.pick(tweets + ["deleted"]) { fields += #", "replyTo": "\#(parent)""# }
            if random.below(2) == 0 { fields += #", "likes": \#(random.below(4))"# }
            store.write("tweets/\(id).json", "{\(fields)}")
            tweetShapes[id] = "{\(fields)}".replacingOccurrences(of: "post ", with: "{caption} ")
        }
        /// A new caption, same everything else (and same hashtags): the live site's fast path.
        func editCaption(_ id: String) {
            guard let shape = tweetShapes[id] else { return }
            let words = ["**bold**", "_soft_", "`code`", "@\(random.pick(usernames)!)", "plain", "https://x.example/\(random.below(9))"]
            let text = "edited \(random.pick(words)!) \(random.pick(words)!)"
            store.write("tweets/\(id).json", shape.replacingOccurrences(of: "{caption}", with: text))
        }
        for uid in users { writeUser(uid, name: random.pick(usernames)! + "\(random.below(3))") }
        for n in 0..<14 { tweets.append("t\(n)"); writeTweet("t\(n)") }
        for _ in 0..<20 {
            store.write("users/\(random.pick(users)!)/user-likes/\(random.pick(tweets)!).json", "{}")
        }

        let config = SiteConfig(pageSize: 3, viewer: nil)
        let live = LiveSite(store: store.root, templates: packageRoot + "/templates", config: config)
        #expect(live.loadAll().error == nil)
        var before = try Self.fullBuild(store.root, config)
        var nextID = 100

        for step in 0..<24 {
            var changes: Set<FileWatcher.Change> = []
            func changed(_ path: String, _ kind: FileWatcher.Change.Kind) { changes.insert(store.change(path, kind)) }
            switch random.below(11) {
            case 9, 10:
                if let id = random.pick(tweets) { editCaption(id); changed("tweets/\(id).json", .modified) }
            case 0, 1:
                let id = "t\(nextID)"; nextID += 1
                tweets.append(id); writeTweet(id); changed("tweets/\(id).json", .created)
            case 2:
                if let id = random.pick(tweets) { writeTweet(id); changed("tweets/\(id).json", .modified) }
            case 3:
                if let id = random.pick(tweets) {
                    tweets.removeAll { $0 == id }; store.delete("tweets/\(id).json"); changed("tweets/\(id).json", .deleted)
                }
            case 4:
                let path = "users/\(random.pick(users)!)/user-likes/\(random.pick(tweets + ["gone"])!).json"
                store.write(path, random.below(2) == 0 ? "{}" : #"{"timestamp": "\#(Self.time(minute + 5))"}"#)
                changed(path, .created)
            case 5:
                if let path = random.pick(store.files(under: "users").filter { $0.contains("user-likes") }) {
                    store.delete(path); changed(path, .deleted)
                }
            case 6:
                let uid = random.below(4) == 0 ? "u\(nextID)" : random.pick(users)!
                nextID += 1
                if !users.contains(uid) { users.append(uid) }
                writeUser(uid, name: random.pick(usernames)! + "\(random.below(3))")
                changed("users/\(uid).json", .modified)
            case 7:
                let uid = random.pick(users + ["ghost"])!
                let path = "favorites/\(uid)/favorites/p\(random.below(4)).json"
                if random.below(3) == 0 {
                    store.delete(path); changed(path, .deleted)
                } else {
                    store.write(path, #"{"placeName": "Place \#(random.below(9))", "coordinate": {"latitude": "37.\#(random.below(99))", "longtitude": 127}}"#)
                    changed(path, .modified)
                }
            default:
                if let uid = random.pick(users), users.count > 2 {
                    users.removeAll { $0 == uid }; store.delete("users/\(uid).json"); changed("users/\(uid).json", .deleted)
                }
            }
            guard !changes.isEmpty else { continue }
            let update = live.apply(changes)
            #expect(update.error == nil, "step \(step): \(update.summary)")
            let after = try Self.fullBuild(store.root, config)

            // What is served equals the full build, page by page.
            for (path, bytes) in after where live.file(at: path) != bytes {
                Issue.record("seed \(seed) step \(step): \(path) differs from a full build after \(update.summary)")
            }
            for path in before.keys where after[path] == nil {
                #expect(live.file(at: path) == nil, "seed \(seed) step \(step): \(path) is still served")
            }
            // Every page whose bytes changed was reported.
            if update.changedPages != ["*"] {
                let reported = Set(update.changedPages)
                for (path, bytes) in after where before[path] != bytes && !reported.contains(path) {
                    Issue.record("seed \(seed) step \(step): \(path) changed but was not reported (\(update.summary))")
                }
                for path in before.keys where after[path] == nil && !reported.contains(path) {
                    Issue.record("seed \(seed) step \(step): \(path) was removed but not reported")
                }
            }
            before = after
        }
    }

    @Test func invalidJSONKeepsTheLastGoodStateUntilFixed() throws {
        let store = try StoreFolder()
        store.write("users/u1.json", #"{"username": "mina"}"#)
        store.write("tweets/t1.json", #"{"caption": "first", "timestamp": "2023-01-01T00:00:00Z", "uid": "u1"}"#)
        let live = LiveSite(store: store.root, templates: packageRoot + "/templates", config: SiteConfig())
        #expect(live.loadAll().error == nil)
        let good = live.file(at: "t/t1/index.html")

        store.write("tweets/t1.json", #"{"caption": "half-saved"#)
        let broken = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(broken.error?.contains("tweets/t1.json:1:") == true, "\(broken.summary)")
        #expect(live.file(at: "t/t1/index.html") == good)

        store.write("tweets/t1.json", #"{"caption": "fixed", "timestamp": "2023-01-01T00:00:00Z", "uid": "u1"}"#)
        let fixed = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(fixed.error == nil)
        #expect(fixed.changedPages.contains("t/t1/index.html"))
        #expect(String(decoding: live.file(at: "t/t1/index.html") ?? [], as: UTF8.self).contains("fixed"))
    }
}
