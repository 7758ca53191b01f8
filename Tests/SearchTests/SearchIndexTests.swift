import JSON
import Model
import Search
import Store
import TestSupport
import Testing

/// The index a build writes: keys, postings, shards.
struct SearchIndexTests {
    var snapshot = Snapshot(documents: [
        user("u1", "Mina", fullname: "김민아 Kim"),
        user("u2", "bob", fullname: "Bob Stone"),
        tweet("t1", by: "u1", at: "2023-01-01T10:00:00Z", "서울에서 **SwiftUI** #Swift"),
        tweet("t2", by: "u2", at: "2023-01-02T10:00:00Z", "@Mina start the `art` café", replyTo: "t1"),
        tweet("t3", by: "u1", at: "2023-01-02T23:00:00Z", "[link text](https://example.com/hidden)"),
    ])

    init() {}

    /// The fixture's helpers over another snapshot.
    init(snapshotOverride: Snapshot) { snapshot = snapshotOverride }

    /// Every key of every shard with its tweet IDs (feed order: descending numbers) and usernames.
    func entries(_ index: SearchIndex) throws -> [String: (tweets: [String], users: [String])] {
        var result: [String: (tweets: [String], users: [String])] = [:]
        for shard in index.shards {
            let items = try self.items(shard)
            for i in stride(from: 0, to: items.count, by: 3) {
                let tweets = PostingCode.decode(Array(items[i + 1].utf8)).reversed().map {
                    snapshot.tweets[index.tweet(number: Int($0))].id
                }
                let users = PostingCode.decode(Array(items[i + 2].utf8)).map { snapshot.users[Int($0)].username }
                result[items[i]] = (tweets, users)
            }
        }
        return result
    }

    func items(_ shard: SearchIndex.Shard) throws -> [String] {
        let text = String(decoding: shard.bytes, as: UTF8.self)
        let prefix = "roostSearch.terms(\"\(shard.path)\","
        #expect(text.hasPrefix(prefix) && text.hasSuffix(");\n"))
        let array = try JSONParser.parse(String(text.dropFirst(prefix.count).dropLast(3)))
        return array.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test func keysAreCaptionAndAuthorWordsAndOperators() throws {
        let index = SearchIndex(snapshot: snapshot)
        let e = try entries(index)
        #expect(e["서울에서"]?.tweets == ["t1"])
        #expect(e["swiftui"]?.tweets == ["t1"])
        #expect(e["swift"]?.tweets == ["t1"])  // the hashtag's text is a word of the plain text
        #expect(e["#swift"]?.tweets == ["t1"])
        #expect(e["mina"]?.tweets == ["t3", "t2", "t1"])  // t1, t3 by Mina; t2 mentions her
        #expect(e["mina"]?.users == ["Mina"])
        #expect(e["김민아"]?.tweets == ["t3", "t1"])
        #expect(e["@mina"]?.tweets == ["t2"])
        #expect(e[">mina"]?.tweets == ["t3", "t1"])
        #expect(e["!reply"]?.tweets == ["t2"])
        #expect(e["café"]?.tweets == ["t2"])
        #expect(e["art"]?.tweets == ["t2"])  // the code span's text
        #expect(e["link"]?.tweets == ["t3"])
        #expect(e["hidden"] == nil)  // a link's URL is not its text
        #expect(e["stone"]?.users == ["bob"])
    }

    /// Keys met several ways in one tweet (a caption word that is also its author's, a tag in
    /// two spellings) list the tweet once; an author operator exists only for users with tweets.
    @Test func eachKeyListsATweetOnceAndOnlyAuthorsHaveAuthorKeys() throws {
        let snapshot = Snapshot(documents: [
            user("u1", "Mina", fullname: "Mina Kim"),
            user("u2", "quiet", fullname: "Quiet One"),
            tweet("t1", by: "u1", at: "2023-01-01T10:00:00Z", "mina says #Caf\u{E9} and #cafe\u{301}"),
            tweet("t2", by: "u1", at: "2023-01-02T10:00:00Z", "kim again", replyTo: "t1"),
        ])
        let e = try SearchIndexTests(snapshotOverride: snapshot).entries(SearchIndex(snapshot: snapshot))
        #expect(e["mina"]?.tweets == ["t2", "t1"])
        #expect(e["mina"]?.users == ["Mina"])
        #expect(e["kim"]?.tweets == ["t2", "t1"])
        #expect(e["#caf\u{E9}"]?.tweets == ["t1"])
        #expect(e.keys.filter { $0.hasPrefix("#") }.count == 1)
        #expect(e[">mina"]?.tweets == ["t2", "t1"])
        #expect(e[">quiet"] == nil)
        #expect(e["quiet"]?.users == ["quiet"])
        #expect(e["quiet"]?.tweets == [])
        #expect(e["!reply"]?.tweets == ["t2"])
    }

    /// Keys given (a build cache's) make the same files as keys computed.
    @Test func knownCaptionKeysGiveTheSameBytes() {
        let known = snapshot.tweets.map { SearchIndex.captionKeys($0.caption) }
        let a = SearchIndex(snapshot: snapshot)
        let b = SearchIndex(snapshot: snapshot, captionKeys: known)
        #expect(a.shards == b.shards)
        #expect(a.manifest == b.manifest)
    }

    @Test func buildingTwiceGivesTheSameBytes() {
        let a = SearchIndex(snapshot: snapshot)
        let b = SearchIndex(snapshot: snapshot)
        #expect(a.shards == b.shards)
        #expect(a.manifest == b.manifest)
        #expect(a.days == b.days)
    }

    @Test func daysListTheFirstTweetOfEachDayOldestFirst() {
        let index = SearchIndex(snapshot: snapshot)
        let day = 19358  // 2023-01-01
        #expect(String(decoding: index.days, as: UTF8.self) == "roostSearch.days([\(day),0,\(day + 1),1]);\n")
    }

    /// A large store: shards stay under the size limit, cover the keys in order, and a new
    /// tweet leaves most shards' bytes as they were.
    @Test func shardsAreBoundedOrderedAndStableUnderAnAddition() throws {
        var documents = [user("u1", "writer")]
        var rng = SeededGenerator(seed: 7)
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "서", "울", "부", "산", "한", "글"]
        func word() -> String {
            (0..<Int.random(in: 1...4, using: &rng)).map { _ in syllables.randomElement(using: &rng)! }.joined()
        }
        for i in 0..<3000 {
            let caption = (0..<8).map { _ in word() }.joined(separator: " ")
            let minute = String(format: "%02d", i % 60)
            documents.append(tweet("t\(i)", by: "u1", at: "2022-0\(1 + i % 9)-1\(i % 10)T10:\(minute):00Z", caption))
        }
        let before = SearchIndex(snapshot: Snapshot(documents: documents))
        #expect(before.shards.count > 5)
        #expect(before.shards.first?.firstKey == "")
        var keys: [String] = []
        for shard in before.shards {
            // The limit is on the entries; the call around them adds the path.
            #expect(shard.bytes.count <= 24 * 1024 + 64)
            let items = try self.items(shard)
            let shardKeys = stride(from: 0, to: items.count, by: 3).map { items[$0] }
            if shard.firstKey != "" { #expect(shardKeys.first == shard.firstKey) }
            keys += shardKeys
        }
        #expect(keys == keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
        #expect(Set(keys).count == keys.count)

        documents.append(tweet("new", by: "u1", at: "2024-01-01T00:00:00Z", "zzznew kamilo"))
        let after = SearchIndex(snapshot: Snapshot(documents: documents))
        let changed = Set(after.shards.map(\.bytes)).subtracting(before.shards.map(\.bytes))
        // The shards of the new tweet's keys (zzznew, kamilo, writer, >writer) and no others.
        #expect(changed.count <= 5, "a new tweet changed \(changed.count) of \(after.shards.count) shards")
        #expect(after.shards.count > 20)
    }
}
