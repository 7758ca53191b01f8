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

    /// Postings read back from a cache are refused unless in order and within the counts.
    @Test func postingsOutOfOrderAreRefused() {
        #expect(
            SearchPostings(keys: ["a", "b"], tweets: [[0], [1]], users: [[], []], tweetCount: 2, userCount: 0) != nil)
        #expect(
            SearchPostings(keys: ["b", "a"], tweets: [[0], [1]], users: [[], []], tweetCount: 2, userCount: 0) == nil)
        #expect(SearchPostings(keys: ["a"], tweets: [[1, 0]], users: [[]], tweetCount: 2, userCount: 0) == nil)
        #expect(SearchPostings(keys: ["a"], tweets: [[2]], users: [[]], tweetCount: 2, userCount: 0) == nil)
    }
}
