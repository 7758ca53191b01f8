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
    static func time(_ minute: Int) -> String {
        String(format: "2023-05-%02dT%02d:%02d:00Z", 1 + minute / 1440, minute / 60 % 24, minute % 60)
    }

    /// Every page of a full build of the store as it is on disk.
    static func fullBuild(_ root: String, _ config: SiteConfig) throws -> [String: [UInt8]] {
        let snapshot = Snapshot(documents: try DocumentStore.read(at: root).documents)
        return try RenderedPages(of: snapshot, config: config, stylesheet: defaultStylesheet).files
    }

    /// (In Korean, edits also change which captions carry `lang="en"`.)
    @Test(arguments: [(1, "en"), (2, "ko")] as [(UInt64, String)])
    func randomEdits(seed: UInt64, language: String) throws {
        var random = SeededGenerator(seed: seed)
        let store = try TemporaryFolder()
        let usernames = ["mina", "joon", "Mina", "seo.yeon", "taeho", "emily"]
        var users = ["u0", "u1", "u2", "u3"]
        var tweets: [String] = []
        /// Each tweet's fields but the caption's text: `{caption}` marks where it goes.
        var tweetShapes: [String: String] = [:]
        var minute = 0
        func writeUser(_ uid: String, name: String) throws {
            try store.write(
                "users/\(uid).json",
                #"{"username": "\#(name)", "fullname": "Name \#(random.below(100))", "email": "\#(uid)@x.example"}"#)
        }
        func writeTweet(_ id: String) throws {
            minute += 1 + random.below(3)
            let author = random.pick(users + ["ghost"])!
            let mention = random.pick(usernames).map { "@\($0)" } ?? ""
            let tag = ["#swift", "#Swift", "#서울", "", ""][random.below(5)]
            var fields =
                #""caption": "post \#(random.below(1000)) \#(mention) \#(tag)", "timestamp": "\#(Self.time(minute))", "uid": "\#(author)""#
            if random.below(3) == 0, let parent = random.pick(tweets + ["deleted"]) {
                fields += #", "replyTo": "\#(parent)""#
            }
            if random.below(2) == 0 { fields += #", "likes": \#(random.below(4))"# }
            try store.write("tweets/\(id).json", "{\(fields)}")
            tweetShapes[id] = "{\(fields)}".replacingOccurrences(of: "post ", with: "{caption} ")
        }
        /// A new caption, same everything else (and same hashtags): the live site's fast path.
        func editCaption(_ id: String) throws {
            guard let shape = tweetShapes[id] else { return }
            let words = [
                "**bold**", "_soft_", "`code`", "@\(random.pick(usernames)!)", "plain",
                "https://x.example/\(random.below(9))",
            ]
            let text = "edited \(random.pick(words)!) \(random.pick(words)!)"
            try store.write("tweets/\(id).json", shape.replacingOccurrences(of: "{caption}", with: text))
        }
        for uid in users { try writeUser(uid, name: random.pick(usernames)! + "\(random.below(3))") }
        for n in 0..<14 {
            tweets.append("t\(n)")
            try writeTweet("t\(n)")
        }
        for _ in 0..<20 {
            try store.write("users/\(random.pick(users)!)/user-likes/\(random.pick(tweets)!).json", "{}")
        }

        let config = SiteConfig(pageSize: 3, viewer: nil, language: language)
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: config)
        #expect(live.loadAll().error == nil)
        var before = try Self.fullBuild(store.path(), config)
        var nextID = 100

        for step in 0..<24 {
            var changes: [SourceChange] = []
            func changed(_ path: String, _ kind: SourceChange.Kind) { changes.append(store.change(path, kind)) }
            switch random.below(11) {
            case 9, 10:
                if let id = random.pick(tweets) {
                    try editCaption(id)
                    changed("tweets/\(id).json", .modified)
                }
            case 0, 1:
                let id = "t\(nextID)"
                nextID += 1
                tweets.append(id)
                try writeTweet(id)
                changed("tweets/\(id).json", .created)
            case 2:
                if let id = random.pick(tweets) {
                    try writeTweet(id)
                    changed("tweets/\(id).json", .modified)
                }
            case 3:
                if let id = random.pick(tweets) {
                    tweets.removeAll { $0 == id }
                    store.delete("tweets/\(id).json")
                    changed("tweets/\(id).json", .deleted)
                }
            case 4:
                let path = "users/\(random.pick(users)!)/user-likes/\(random.pick(tweets + ["gone"])!).json"
                try store.write(path, random.below(2) == 0 ? "{}" : #"{"timestamp": "\#(Self.time(minute + 5))"}"#)
                changed(path, .created)
            case 5:
                if let path = random.pick(store.jsonFiles(under: "users").filter { $0.contains("user-likes") }) {
                    store.delete(path)
                    changed(path, .deleted)
                }
            case 6:
                let uid = random.below(4) == 0 ? "u\(nextID)" : random.pick(users)!
                nextID += 1
                if !users.contains(uid) { users.append(uid) }
                try writeUser(uid, name: random.pick(usernames)! + "\(random.below(3))")
                changed("users/\(uid).json", .modified)
            case 7:
                let uid = random.pick(users + ["ghost"])!
                let path = "favorites/\(uid)/favorites/p\(random.below(4)).json"
                if random.below(3) == 0 {
                    store.delete(path)
                    changed(path, .deleted)
                } else {
                    try store.write(
                        path,
                        #"{"placeName": "Place \#(random.below(9))", "coordinate": {"latitude": "37.\#(random.below(99))", "longtitude": 127}}"#
                    )
                    changed(path, .modified)
                }
            default:
                if let uid = random.pick(users), users.count > 2 {
                    users.removeAll { $0 == uid }
                    store.delete("users/\(uid).json")
                    changed("users/\(uid).json", .deleted)
                }
            }
            guard !changes.isEmpty else { continue }
            let update = live.apply(changes)
            #expect(update.error == nil, "step \(step): \(update.summary)")
            let after = try Self.fullBuild(store.path(), config)

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
        let store = try TemporaryFolder()
        try store.write([user("u1", "mina")], in: "")
        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "first")], in: "")
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: SiteConfig())
        #expect(live.loadAll().error == nil)
        let good = live.file(at: "t/t1/index.html")

        try store.write("tweets/t1.json", #"{"caption": "half-saved"#)
        let broken = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(broken.error?.contains("tweets/t1.json:1:") == true, "\(broken.summary)")
        #expect(live.file(at: "t/t1/index.html") == good)

        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "fixed")], in: "")
        let fixed = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(fixed.error == nil)
        #expect(fixed.changedPages.contains("t/t1/index.html"))
        #expect(String(decoding: live.file(at: "t/t1/index.html") ?? [], as: UTF8.self).contains("fixed"))
    }
}

@Suite("LiveSite: search follows edits")
struct LiveSearchTests {
    /// The term shard listed for `key` in the served `search/index.js` (the last first key ≤ it).
    static func shard(for key: String, _ live: LiveSite) -> String {
        let manifest = String(decoding: live.file(at: "search/index.js") ?? [], as: UTF8.self)
        let list = manifest.split(separator: "\"shards\":[")[1].dropLast(5)  // `]});` and the newline
        let items = list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        var path = ""
        for i in stride(from: 0, to: items.count, by: 2)
        where items[i].utf16.lexicographicallyPrecedes(key.utf16) || items[i] == key {
            path = "search/" + items[i + 1]
        }
        return String(decoding: live.file(at: path) ?? [], as: UTF8.self)
    }

    /// A caption rewritten in another Unicode form (é as one code point, then as e and a
    /// combining accent) is equal as a Swift string but renders to other bytes: a refresh
    /// that keeps the unchanged captions' HTML must not keep this one's.
    @Test func aCaptionInAnotherUnicodeFormIsRenderedAgain() throws {
        let store = try TemporaryFolder()
        let config = SiteConfig()
        try store.write([user("u1", "mina")], in: "")
        let caption = #"{"caption": "Caf\u00e9 #menu", "timestamp": "2023-01-01T00:00:00Z", "uid": "u1"}"#
        try store.write("tweets/t1.json", caption)
        try store.write([tweet("t2", by: "u1", at: "2023-01-02T00:00:00Z", "second")], in: "")
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: config)
        #expect(live.loadAll().error == nil)
        // With a like in the same batch, the whole snapshot is derived again.
        try store.write("tweets/t1.json", caption.replacingOccurrences(of: "\\u00e9", with: "e\\u0301"))
        try store.write("users/u1/user-likes/t2.json", "{}")
        let update = live.apply([
            store.change("tweets/t1.json", .modified), store.change("users/u1/user-likes/t2.json", .modified),
        ])
        #expect(update.error == nil)
        for (path, bytes) in try LiveSiteTests.fullBuild(store.path(), config) where live.file(at: path) != bytes {
            Issue.record("\(path) differs from a full build")
        }
    }

    /// Two tweets whose IDs differ only in their Unicode form are two tweets in the preview,
    /// as in a build: read at the start, and added while it runs (one of them was dropped,
    /// the documents being kept by paths compared as Swift strings).
    @Test func idsInTwoUnicodeFormsAreTwoDocuments() throws {
        let store = try TemporaryFolder()
        let config = SiteConfig()
        try store.write([user("u1", "mina")], in: "")
        for (id, minute) in [("caf\u{E9}", 1), ("cafe\u{301}", 2)] {
            try store.write([tweet(id, by: "u1", at: "2023-01-01T00:0\(minute):00Z", "one form")], in: "")
        }
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: config)
        #expect(live.loadAll().error == nil)
        var changes: [SourceChange] = []
        for (id, minute) in [("n\u{E9}e", 3), ("ne\u{301}e", 4)] {
            try store.write([tweet(id, by: "u1", at: "2023-01-01T00:0\(minute):00Z", "added")], in: "")
            changes.append(store.change("tweets/\(id).json", .created))
        }
        #expect(live.apply(changes).error == nil)
        let built = try LiveSiteTests.fullBuild(store.path(), config)
        let home = String(decoding: built["index.html"] ?? [], as: UTF8.self)
        #expect(home.components(separatedBy: "data-tweet-id=").count - 1 == 4)
        for (path, bytes) in built where live.file(at: path) != bytes {
            Issue.record("\(path) differs from a full build")
        }
    }

    @Test func aCaptionEditIsFoundByItsNewWords() throws {
        let store = try TemporaryFolder()
        try store.write([user("u1", "mina")], in: "")
        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "first")], in: "")
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: SiteConfig())
        #expect(live.loadAll().error == nil)
        #expect(live.file(at: "search/index.html") != nil)
        #expect(!Self.shard(for: "서울에서", live).contains("\"서울에서\""))

        try store.write([tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z", "서울에서 hello")], in: "")
        let update = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(update.error == nil)
        #expect(Self.shard(for: "서울에서", live).contains("\"서울에서\""))
        #expect(update.changedPages.contains { $0.hasPrefix("search/k/") }, "\(update.changedPages)")
        #expect(update.changedPages.contains("search/d/0.js"))
    }
}

/// A random edit's choices, replayable from the seed.
extension SeededGenerator {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[below(items.count)] }
}

/// The store on disk, as files the test writes.
extension TemporaryFolder {
    /// What the store's source reports when the document file `relative` changes.
    func change(_ relative: String, _ kind: SourceChange.Kind) -> SourceChange {
        SourceChange(.document(DirectoryStore.documentPath(forRelativeFile: relative)!, entry: relative), kind)
    }

    func delete(_ relative: String) { try? FileManager.default.removeItem(atPath: path(relative)) }

    /// The `.json` files below `folder`, by path from the store root, sorted.
    func jsonFiles(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path(folder))
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".json") { found.append(folder + "/" + name) }
        }
        return found.sorted()
    }
}

@Suite("LiveSite: starting from a broken store")
struct LiveSiteStartTests {
    @Test func everyPageWaitsForAValidStoreAndTheSiteFollowsTheFix() throws {
        let store = try TemporaryFolder()
        try store.write([user("u1", "mina")], in: "")
        try store.write("tweets/t1.json", #"{"caption": "half"#)
        let live = LiveSite(store: store.path(), templates: packageRoot + "/templates", config: SiteConfig())
        let first = live.loadAll()
        #expect(first.error?.contains("tweets/t1.json:1:") == true)
        #expect(first.summary.contains("pages show it until the store is valid"), "\(first.summary)")
        let waiting = String(decoding: live.file(at: "u/mina/index.html") ?? [], as: UTF8.self)
        #expect(waiting.contains("Waiting for a valid store"))
        #expect(live.file(at: "static/style.css") == nil)
        // Nor is a file's name a folder of a page (the server would redirect `/feed.xml` to `/feed.xml/`).
        #expect(live.file(at: "static/style.css/index.html") == nil && live.file(at: "feed.xml/index.html") == nil)
        #expect(live.file(at: "index.html") != nil && live.file(at: "t/t1/index.html") != nil)

        try store.write([tweet("t1", by: "u1", at: "2024-01-01T00:00:00Z", "whole")], in: "")
        let fixed = live.apply([store.change("tweets/t1.json", .modified)])
        #expect(fixed.error == nil, "\(fixed.summary)")
        #expect(String(decoding: live.file(at: "t/t1/index.html") ?? [], as: UTF8.self).contains("whole"))
    }

    @Test func anUnknownViewerStopsThePreviewFromStarting() throws {
        let store = try TemporaryFolder()
        try store.write([user("u1", "mina")], in: "")
        let preview = LivePreview(
            stores: [store.path()], templates: packageRoot + "/templates", config: SiteConfig(viewer: "nobody"),
            host: "127.0.0.1", port: 0, log: { _, _ in })
        #expect(throws: SiteError.self) { try preview.start() }
        preview.stop()
    }
}
