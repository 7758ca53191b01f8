import Model
import Search
import Store
import TestSupport
import Testing

/// Postings updated per edited caption give the index a clean build makes of the new captions.
struct SearchPostingsTests {
    /// The fixture's documents, with `captions` (tweet ID → caption) replacing its own.
    func documents(_ captions: [String: String] = [:]) -> [Document] {
        [
            user("u1", "Mina", fullname: "김민아 Kim"),
            user("u2", "bob", fullname: "Bob Stone"),
            tweet("t1", by: "u1", at: "2023-01-01T10:00:00Z", captions["t1"] ?? "서울에서 **SwiftUI** #Swift"),
            tweet(
                "t2", by: "u2", at: "2023-01-02T10:00:00Z", captions["t2"] ?? "@Mina start the `art` café #Swift",
                replyTo: "t1"),
            tweet("t3", by: "u1", at: "2023-01-02T23:00:00Z", captions["t3"] ?? "only here: zebra"),
        ]
    }

    /// The index of the fixture with `captions` replacing the old ones: updated from the old
    /// index's postings, and made from scratch.
    func indices(_ captions: [String: String]) throws -> (updated: SearchIndex, clean: SearchIndex) {
        let old = Snapshot(documents: documents())
        let tweets = Snapshot(documents: documents(captions)).tweets.filter { captions[$0.id] != nil }
        let (new, changed) = try #require(old.replacingContent(of: tweets))
        let updated = SearchIndex(snapshot: old).replacingCaptions(ofTweets: changed, old: old, in: new)
        return (updated, SearchIndex(snapshot: new))
    }

    @Test(arguments: [
        ["t3": "only here: zebra and a new word"],  // a key added
        ["t3": "only here"],  // a key gone from the index (zebra was t3's alone)
        ["t1": "Kim writes 김민아 **SwiftUI** #Swift"],  // the author's own words: kept as they were
        ["t2": "nothing of before #Swift", "t1": "@bob 서울에서 #Swift"],  // a mention moved, two tweets
    ])
    func anUpdateEqualsACleanIndex(captions: [String: String]) throws {
        let (updated, clean) = try indices(captions)
        #expect(updated.postings == clean.postings)
        #expect(updated.shards == clean.shards)
        #expect(updated.manifest == clean.manifest)
    }

    /// Postings read back from a cache: each key with its entry as a term shard writes it.
    func postings(_ entries: [(key: String, tweets: String, users: String)], tweetCount: Int = 2)
        -> SearchPostings?
    {
        var (bytes, ends) = ([UInt8](), [Int]())
        for entry in entries {
            bytes += Array("\"\(entry.key)\",\"\(entry.tweets)\",\"\(entry.users)\"".utf8)
            ends.append(bytes.count)
        }
        return SearchPostings(
            keys: entries.map(\.key), entries: bytes, ends: ends, tweetCount: tweetCount, userCount: 1)
    }

    /// Postings read back from a cache are refused unless in order, each entry its key's, and
    /// each list one the index writes, within the counts.
    @Test func postingsReadBackAreChecked() throws {
        let read = try #require(postings([("a", "0", ""), ("b", "1", "0")]))
        #expect(read.lists(at: 0) == ([0], []))
        #expect(read.lists(at: 1) == ([1], [0]))
        #expect(postings([("a", "~3", "")]).map { $0.lists(at: 0).tweets } == [0, 1])  // bits
        #expect(postings([("b", "0", ""), ("a", "1", "")]) == nil)  // out of order
        #expect(postings([("a", "0", ""), ("a", "1", "")]) == nil)  // twice
        #expect(postings([("a", "2", "")]) == nil)  // past the tweets
        #expect(postings([("a", "", "1")]) == nil)  // past the users
        #expect(postings([("a", "W", "")]) == nil)  // a number not ended
        #expect(postings([("a", "!", "")]) == nil)  // not a digit
        #expect(postings([("a", "~33", "")]) == nil)  // bits of another count
        #expect(postings([("a", "~4", "")]) == nil)  // a bit past the tweets
        let other = [UInt8]("\"b\",\"0\",\"\"".utf8)
        #expect(SearchPostings(keys: ["a"], entries: other, ends: [other.count], tweetCount: 2, userCount: 1) == nil)
        #expect(SearchPostings(keys: ["a"], entries: other, ends: [3], tweetCount: 2, userCount: 1) == nil)
    }

    /// Postings read back and updated give what postings made and updated give.
    @Test func anUpdateOfPostingsReadBackEqualsOneOfPostingsMade() throws {
        let old = Snapshot(documents: documents())
        let made = try #require(SearchIndex(snapshot: old).postings)
        var (bytes, ends) = ([UInt8](), [Int]())
        for k in made.keys.indices {
            bytes += made.entry(at: k)
            ends.append(bytes.count)
        }
        let read = try #require(
            SearchPostings(
                keys: made.keys, entries: bytes, ends: ends, tweetCount: made.tweetCount, userCount: made.userCount))
        #expect(read == made)
        let captions = ["t3": "only here: quokka", "t1": "서울에서 #Swift"]
        let new = Snapshot(documents: documents(captions))
        let tweets = new.tweets.filter { captions[$0.id] != nil }
        let (_, changed) = try #require(old.replacingContent(of: tweets))
        let clean = SearchIndex(snapshot: new)
        let updated = SearchIndex(postings: read, snapshot: old).replacingCaptions(ofTweets: changed, old: old, in: new)
        #expect(updated.postings == clean.postings)
        #expect(updated.shards == clean.shards)
    }
}
