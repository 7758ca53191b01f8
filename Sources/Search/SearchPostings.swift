import Model
import Support

/// Every key of a search index with the tweets (by number) and users it matches, keys in
/// JavaScript's order of strings (UTF-16 code units), numbers ascending: what the term shards
/// are cut from. Kept between builds (a build cache) and in a live preview, it is updated per
/// tweet whose caption changed (`replacingCaptions`) instead of being made from every tweet.
///
/// A key's numbers are held as lists, or as its entry in a term shard (`entry(at:)`): postings
/// read back from a cache stay in that form, and only the keys an edit changes are decoded
/// and written again.
package struct SearchPostings: Sendable {
    package private(set) var keys: [String]
    /// Each key's numbers, in the order of `keys`.
    private var numbers: [Numbers]
    /// The entries of the keys held as such (`Numbers.entry`), one after another.
    private var entries: [UInt8]
    package let tweetCount: Int
    package let userCount: Int

    private enum Numbers: Sendable {
        case lists(tweets: [Int32], users: [Int32])
        /// Where the key's entry is in `entries`.
        case entry(Range<Int>)
    }

    /// Postings as a cache holds them: each key with its entry, `entries[ends[k - 1]..<ends[k]]`.
    /// Nil unless the keys are strictly in order and each entry is the one `entry(at:)` writes
    /// for its key, its numbers ascending within the counts (a cache that passed its checksum,
    /// checked again).
    package init?(keys: [String], entries: [UInt8], ends: [Int], tweetCount: Int, userCount: Int) {
        guard keys.count == ends.count, ends.last ?? 0 == entries.count,
            zip(ends, ends.dropFirst()).allSatisfy({ $0 <= $1 }), ends.first ?? 0 >= 0
        else { return nil }
        // Each key after the one before and its entry as written, checked in parts on all cores.
        let part = 1024
        let checked = [Bool](parallelCount: (keys.count + part - 1) / part) { p in
            (p * part..<min(keys.count, (p + 1) * part)).allSatisfy { k in
                let start = k == 0 ? 0 : ends[k - 1]
                return (k == 0 || Self.precedes(keys[k - 1], keys[k]))
                    && Self.codes(
                        of: entries[start..<ends[k]], key: keys[k], tweetCount: tweetCount, userCount: userCount)
                        != nil
            }
        }
        guard !checked.contains(false) else { return nil }
        let numbers = keys.indices.map { k in Numbers.entry((k == 0 ? 0 : ends[k - 1])..<ends[k]) }
        (self.keys, self.numbers, self.entries) = (keys, numbers, entries)
        (self.tweetCount, self.userCount) = (tweetCount, userCount)
    }

    init(sorting table: SearchIndex.KeyTable, tweetCount: Int, userCount: Int) {
        let utf16 = table.keys.map { Array($0.utf16) }
        let order = table.keys.indices.sorted { utf16[$0].lexicographicallyPrecedes(utf16[$1]) }
        keys = order.map { table.keys[$0] }
        numbers = order.map { .lists(tweets: table.tweets[$0], users: table.users[$0]) }
        entries = []
        self.tweetCount = tweetCount
        self.userCount = userCount
    }

    /// JavaScript's order of strings: by UTF-16 code units.
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

    /// The tweets (by number) and users that key `k` matches.
    package func lists(at k: Int) -> (tweets: [Int32], users: [Int32]) {
        switch numbers[k] {
        case .lists(let tweets, let users): return (tweets, users)
        case .entry(let range):
            // (Checked when read: `init(keys:entries:ends:tweetCount:userCount:)`.)
            guard let codes = Self.codes(of: entries[range], key: keys[k], tweetCount: tweetCount, userCount: userCount)
            else { return ([], []) }
            return (PostingCode.decode(codes.tweets), PostingCode.decode(codes.users))
        }
    }

    /// Key `k`'s entry in a term shard: its key as a JSON string, then its tweets' and its
    /// users' `PostingCode` as strings, comma-separated.
    package func entry(at k: Int) -> ArraySlice<UInt8> {
        switch numbers[k] {
        case .entry(let range): return entries[range]
        case .lists(let tweets, let users):
            return ArraySlice(Self.entry(key: keys[k], tweets: tweets, users: users, tweetCount, userCount))
        }
    }

    /// These postings with every key's entry made (on all cores) and held as such: what the
    /// shards are cut from and a cache writes.
    package func encoded() -> SearchPostings {
        guard numbers.contains(where: { if case .lists = $0 { true } else { false } }) else { return self }
        let made = [[UInt8]?](parallelCount: keys.count, chunk: 256) { k in
            guard case .lists(let tweets, let users) = numbers[k] else { return nil }
            return Self.entry(key: keys[k], tweets: tweets, users: users, tweetCount, userCount)
        }
        var encoded = self
        encoded.entries = []
        encoded.entries.reserveCapacity(keys.indices.reduce(0) { $0 + (made[$1]?.count ?? entry(at: $1).count) })
        for k in keys.indices {
            let start = encoded.entries.count
            if let entry = made[k] { encoded.entries += entry } else { encoded.entries += entry(at: k) }
            encoded.numbers[k] = .entry(start..<encoded.entries.count)
        }
        return encoded
    }

    private static func entry(key: String, tweets: [Int32], users: [Int32], _ tweetCount: Int, _ userCount: Int)
        -> [UInt8]
    {
        var entry: [UInt8] = []
        JSONText.append(key, to: &entry)
        entry.append(contentsOf: ",\"".utf8)
        entry += PostingCode.encode(tweets, count: tweetCount)
        entry.append(contentsOf: "\",\"".utf8)
        entry += PostingCode.encode(users, count: userCount)
        entry.append(UInt8(ascii: "\""))
        return entry
    }

    /// The tweets' and users' codes in `entry` when it is the entry of `key` (`entry(at:)`)
    /// with codes valid for the counts; nil otherwise.
    private static func codes(of entry: ArraySlice<UInt8>, key: String, tweetCount: Int, userCount: Int) -> (
        tweets: ArraySlice<UInt8>, users: ArraySlice<UInt8>
    )? {
        let found = entry.withUnsafeBufferPointer { bytes -> (Range<Int>, Range<Int>)? in
            guard let keyLength = JSONText.length(of: key, startOf: bytes) else { return nil }
            // The rest is `,"<tweets>","<users>"`; neither code holds a quote.
            let quote = UInt8(ascii: "\"")
            let comma = UInt8(ascii: ",")
            let end = bytes.count
            guard end - keyLength >= 6, bytes[keyLength] == comma, bytes[keyLength + 1] == quote,
                bytes[end - 1] == quote
            else { return nil }
            var split = keyLength + 2
            while split < end - 1, bytes[split] != quote { split += 1 }
            guard split + 3 < end, bytes[split + 1] == comma, bytes[split + 2] == quote else { return nil }
            let (tweets, users) = ((keyLength + 2)..<split, (split + 3)..<(end - 1))
            guard PostingCode.isValid(UnsafeBufferPointer(rebasing: bytes[tweets]), count: tweetCount),
                PostingCode.isValid(UnsafeBufferPointer(rebasing: bytes[users]), count: userCount)
            else { return nil }
            return (tweets, users)
        }
        guard let (tweets, users) = found else { return nil }
        let start = entry.startIndex
        return (
            entry[(start + tweets.lowerBound)..<(start + tweets.upperBound)],
            entry[(start + users.lowerBound)..<(start + users.upperBound)]
        )
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
        guard i < keys.count, keys[i] == key else { return }
        var (tweets, users) = lists(at: i)
        guard let at = tweets.firstIndex(of: number) else { return }
        tweets.remove(at: at)
        // A key is in the index only while something has it (as a clean build makes it).
        if tweets.isEmpty && users.isEmpty {
            keys.remove(at: i)
            numbers.remove(at: i)
        } else {
            numbers[i] = .lists(tweets: tweets, users: users)
        }
    }

    private mutating func add(_ number: Int32, to key: String) {
        let i = position(of: key)
        if i < keys.count, keys[i] == key {
            var (tweets, users) = lists(at: i)
            let at = tweets.firstIndex { $0 >= number } ?? tweets.count
            if at == tweets.count || tweets[at] != number { tweets.insert(number, at: at) }
            numbers[i] = .lists(tweets: tweets, users: users)
        } else {
            keys.insert(key, at: i)
            numbers.insert(.lists(tweets: [number], users: []), at: i)
        }
    }
}

extension SearchPostings: Equatable {
    /// The same keys with the same numbers, however each is held.
    package static func == (a: SearchPostings, b: SearchPostings) -> Bool {
        a.keys == b.keys && a.tweetCount == b.tweetCount && a.userCount == b.userCount
            && a.keys.indices.allSatisfy { a.lists(at: $0) == b.lists(at: $0) }
    }
}
