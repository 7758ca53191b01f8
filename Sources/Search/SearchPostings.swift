import Model
import Support

/// Every key of a search index with the tweets (by number) and users it matches, keys in
/// JavaScript's order of strings (UTF-16 code units), numbers ascending: what the term shards
/// are cut from. Kept between builds (a build cache) and in a live preview, it is updated per
/// tweet whose caption changed (`replacingCaptions`) instead of being made from every tweet.
package struct SearchPostings: Sendable, Equatable {
    package private(set) var keys: [String]
    package private(set) var tweets: [[Int32]]
    package private(set) var users: [[Int32]]
    package let tweetCount: Int
    package let userCount: Int

    /// Postings as a cache holds them; nil unless the keys are strictly in order and each
    /// key's numbers ascend within the counts (a cache that passed its checksum, checked again).
    package init?(keys: [String], tweets: [[Int32]], users: [[Int32]], tweetCount: Int, userCount: Int) {
        guard keys.count == tweets.count, keys.count == users.count,
            zip(keys, keys.dropFirst()).allSatisfy({ Self.precedes($0, $1) }),
            tweets.allSatisfy({ Self.ascend($0, below: tweetCount) }),
            users.allSatisfy({ Self.ascend($0, below: userCount) })
        else { return nil }
        (self.keys, self.tweets, self.users) = (keys, tweets, users)
        (self.tweetCount, self.userCount) = (tweetCount, userCount)
    }

    init(sorting table: SearchIndex.KeyTable, tweetCount: Int, userCount: Int) {
        let utf16 = table.keys.map { Array($0.utf16) }
        let order = table.keys.indices.sorted { utf16[$0].lexicographicallyPrecedes(utf16[$1]) }
        keys = order.map { table.keys[$0] }
        tweets = order.map { table.tweets[$0] }
        users = order.map { table.users[$0] }
        self.tweetCount = tweetCount
        self.userCount = userCount
    }

    /// JavaScript's order of strings: by UTF-16 code units.
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

    private static func ascend(_ numbers: [Int32], below count: Int) -> Bool {
        guard let first = numbers.first else { return true }
        return first >= 0 && Int(numbers.last!) < count && zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// These postings after the captions of the tweets at `changed` (indices in `snapshot`,
    /// which differs from the one they were made of in those captions only:
    /// `Snapshot.replacingContent`) went from `oldKeys` to `newKeys` (`SearchIndex.captionKeys`,
    /// one list per changed tweet). A key the tweet also has from its author's words stays.
    package func replacingCaptions(
        ofTweets changed: [Int], oldKeys: [[String]], newKeys: [[String]], in snapshot: Snapshot
    ) -> SearchPostings {
        var updated = self
        for (k, t) in changed.enumerated() {
            let kept = snapshot.tweetRelations[t].author.map { SearchIndex.wordKeys(of: snapshot.users[$0]) } ?? []
            let (old, new) = (Set(oldKeys[k]), Set(newKeys[k]))
            let number = Int32(tweetCount - 1 - t)
            for key in old.subtracting(new).subtracting(kept) { updated.remove(number, from: key) }
            for key in new.subtracting(old).subtracting(kept) { updated.add(number, to: key) }
        }
        return updated
    }

    /// The position of `key`, or where it would go.
    private func position(of key: String) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func remove(_ number: Int32, from key: String) {
        let i = position(of: key)
        guard i < keys.count, keys[i] == key, let at = tweets[i].firstIndex(of: number) else { return }
        tweets[i].remove(at: at)
        // A key is in the index only while something has it (as a clean build makes it).
        if tweets[i].isEmpty && users[i].isEmpty {
            keys.remove(at: i)
            tweets.remove(at: i)
            users.remove(at: i)
        }
    }

    private mutating func add(_ number: Int32, to key: String) {
        let i = position(of: key)
        if i < keys.count, keys[i] == key {
            let at = tweets[i].firstIndex { $0 >= number } ?? tweets[i].count
            if at == tweets[i].count || tweets[i][at] != number { tweets[i].insert(number, at: at) }
        } else {
            keys.insert(key, at: i)
            tweets.insert([number], at: i)
            users.insert([], at: i)
        }
    }
}
