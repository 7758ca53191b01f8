import Markdown
import Model
import Support

/// The search index of a snapshot (SPEC 8), as the files the search page loads with
/// `<script src>` (no `fetch`, so it works from `file://`): each calls one function of the
/// global `roostSearch` that `static/search.js` defines.
///
/// - `search/index.js`: counts and the list of term shards with the first key of each.
/// - `search/k/{name}.js`: the term shards: sorted keys, each with the tweets and users it
///   matches (`PostingCode`). Keys are folded words (`SearchText`) and operator keys: `@name`
///   (mentions), `#tag`, `>handle` (the author), `!reply`. A query term's words are found
///   in the shards its prefix range falls in, so a query loads only its terms' shards.
///   Shards are cut by size where a key's hash says so (content-defined), so an edit changes
///   the shard of its keys and not every shard after it; a shard is named by its first key.
/// - `search/days.js`: the first tweet number of each day that has tweets (`since:`, `until:`).
///
/// Tweets are numbered oldest first (number `n` is `snapshot.tweets[count - 1 - n]`), so that
/// new tweets take new numbers and the postings of old ones stay as they were; results are
/// shown by descending number, which is the feed's order. Users are numbered as in the snapshot.
package struct SearchIndex: Sendable {
    package static let folder = "search/"
    package static let manifestPath = folder + "index.js"
    package static let daysPath = folder + "days.js"

    /// One term shard: its file and bytes.
    package struct Shard: Sendable, Equatable {
        package let path: String
        package let firstKey: String
        package let bytes: [UInt8]
    }

    package private(set) var shards: [Shard]
    package let tweetCount: Int
    package let userCount: Int
    /// `search/index.js`.
    package let manifest: [UInt8]
    /// `search/days.js`.
    package let days: [UInt8]
    /// What the shards were cut from, for an index updated per changed caption (nil once
    /// dropped: `droppingShardBytes`).
    package private(set) var postings: SearchPostings?

    /// This index without its term shards' bytes (their paths and first keys kept) and
    /// postings, for a build that has written them: the rest of its render need not hold them.
    package func droppingShardBytes() -> SearchIndex {
        var index = self
        index.shards = shards.map { Shard(path: $0.path, firstKey: $0.firstKey, bytes: []) }
        index.postings = nil
        return index
    }

    /// A shard is cut once it holds this many bytes, where a key's hash allows (1 in 4)…
    static let minimumShardBytes = 8 * 1024
    /// …and always before it would pass this many.
    static let maximumShardBytes = 24 * 1024
    /// The fewest captions numbered by one core: below it, a part's own table is not worth making.
    static let minimumCaptionPart = 4096

    /// The keys a caption gives its tweet: its words and its `@mentions` (the author's, the
    /// hashtags' and `is:reply` are added by the index). The slow part of indexing, made once
    /// per caption text; a build cache may keep them between builds.
    package static func captionKeys(_ caption: String) -> [String] {
        let (text, mentions) = PlainText.searchable(caption)
        var keys = Set(SearchText.words(text))
        for name in mentions { keys.insert("@" + SearchText.fold(name)) }
        return keys.sorted()
    }

    /// - Parameter captionKeys: `captionKeys(_:)` of each tweet's caption, if known already.
    package init(snapshot: Snapshot, captionKeys known: [[String]]? = nil) {
        let tweetCount = snapshot.tweets.count
        let userCount = snapshot.users.count
        // The captions' keys not known already, on all cores (parsing and folding is the work).
        let parsed: [[String]]? =
            known == nil ? snapshot.tweets.parallelMap { Self.captionKeys($0.caption) } : nil
        let table = Self.keyTable(snapshot, captionKeys: known ?? parsed!)
        self.init(
            postings: SearchPostings(sorting: table, tweetCount: tweetCount, userCount: userCount), snapshot: snapshot)
    }

    /// The index cut from `postings`, which are `snapshot`'s (kept from an earlier index and
    /// updated: `SearchPostings.replacingCaptions`).
    package init(postings: SearchPostings, snapshot: Snapshot) {
        let postings = postings.encoded()
        let shards = Self.shards(postings)
        self.shards = shards
        self.tweetCount = postings.tweetCount
        self.userCount = postings.userCount
        self.manifest = Self.manifest(shards, tweetCount: postings.tweetCount, userCount: postings.userCount)
        self.days = Self.days(snapshot)
        self.postings = postings
    }

    /// This index after the captions of the tweets at `changed` were replaced
    /// (`Snapshot.replacingContent`: `old` is the snapshot before, `snapshot` after), from its
    /// postings when it has them, else made again.
    package func replacingCaptions(ofTweets changed: [Int], old: Snapshot, in snapshot: Snapshot) -> SearchIndex {
        guard let postings else { return SearchIndex(snapshot: snapshot) }
        let updated = postings.replacingCaptions(
            ofTweets: changed, oldKeys: changed.map { Self.captionKeys(old.tweets[$0].caption) },
            newKeys: changed.map { Self.captionKeys(snapshot.tweets[$0].caption) }, in: snapshot)
        return SearchIndex(postings: updated, snapshot: snapshot)
    }

    /// The words of a user's name, username and handle: their keys, and every tweet of theirs'.
    static func wordKeys(of user: User) -> Set<String> {
        Set(SearchText.words(user.fullname + " " + user.username + " " + user.handle))
    }

    /// Every key of the index with the tweets (by number) and users it matches.
    private static func keyTable(_ snapshot: Snapshot, captionKeys: [[String]]) -> KeyTable {
        let tweetCount = snapshot.tweets.count
        // Every key gets a slot, the first time it is met (keys equal as strings share one);
        // each tweet's keys are gathered as slots, so a key common to many tweets (an
        // author's words, a hashtag) is looked up once, not once per tweet.
        var table = KeyTable()
        let userWordSlots = Self.userWordSlots(snapshot, into: &table)
        var tweetSlots = Self.captionSlots(captionKeys, into: &table)
        Self.addAuthorAndTagSlots(snapshot, userWordSlots: userWordSlots, to: &tweetSlots, into: &table)
        let reply = snapshot.tweets.contains(where: \.isReply) ? table.entry("!reply") : -1
        // A key met twice in one tweet (a caption word that is also its author's) lists it once:
        // `listed` holds the last tweet number each key took.
        var listed = [Int32](repeating: -1, count: table.keys.count)
        for n in 0..<tweetCount {
            let t = tweetCount - 1 - n
            for s in tweetSlots[t] where listed[Int(s)] != Int32(n) {
                table.tweets[Int(s)].append(Int32(n))
                listed[Int(s)] = Int32(n)
            }
            if snapshot.tweets[t].isReply { table.tweets[Int(reply)].append(Int32(n)) }
        }
        for (u, slots) in userWordSlots.enumerated() {
            for s in slots { table.users[Int(s)].append(Int32(u)) }
        }
        return table
    }

    /// Each user's words (name, username, handle) as slots of `table`.
    private static func userWordSlots(_ snapshot: Snapshot, into table: inout KeyTable) -> [[Int32]] {
        let userWords: [[String]] = snapshot.users.map { Array(wordKeys(of: $0)) }
        var userWordSlots: [[Int32]] = []
        userWordSlots.reserveCapacity(snapshot.users.count)
        for words in userWords {
            var slots: [Int32] = []
            slots.reserveCapacity(words.count)
            for key in words { slots.append(table.entry(key)) }
            userWordSlots.append(slots)
        }
        return userWordSlots
    }

    /// Each tweet's caption keys as slots of `table`.
    private static func captionSlots(_ captionKeys: [[String]], into table: inout KeyTable) -> [[Int32]] {
        let tweetCount = captionKeys.count
        // The captions' keys, numbered part by part on all cores (each part's own table), then
        // each part's distinct keys given their slots: far fewer look-ups left for one core.
        let partSize = Swift.max(Self.minimumCaptionPart, (tweetCount + 3) / 4)
        let parts = [CaptionPart](parallelCount: (tweetCount + partSize - 1) / partSize) { p in
            var part = CaptionPart()
            for t in (p * partSize)..<Swift.min(tweetCount, (p + 1) * partSize) {
                var slots: [Int32] = []
                slots.reserveCapacity(captionKeys[t].count)
                for key in captionKeys[t] { slots.append(part.entry(key)) }
                part.tweets.append(slots)
            }
            return part
        }
        var tweetSlots = [[Int32]](repeating: [], count: tweetCount)
        for (p, part) in parts.enumerated() {
            let slotOfPart = part.keys.map { table.entry($0) }
            for (i, partSlots) in part.tweets.enumerated() {
                tweetSlots[p * partSize + i] = partSlots.map { slotOfPart[Int($0)] }
            }
        }
        return tweetSlots
    }

    /// Adds to each tweet's slots its author's keys and its hashtags'.
    private static func addAuthorAndTagSlots(
        _ snapshot: Snapshot, userWordSlots: [[Int32]], to tweetSlots: inout [[Int32]], into table: inout KeyTable
    ) {
        let fromKeys: [[String]] = snapshot.users.map { user in
            Array(Set([">" + SearchText.fold(user.username), ">" + SearchText.fold(user.handle)]))
        }
        // An author's keys (only of users with tweets: `>handle` is a key only then).
        var authorSlots = [[Int32]?](repeating: nil, count: snapshot.users.count)
        for t in 0..<snapshot.tweets.count {
            if let author = snapshot.tweetRelations[t].author {
                if authorSlots[author] == nil {
                    var keys = userWordSlots[author]
                    for key in fromKeys[author] { keys.append(table.entry(key)) }
                    authorSlots[author] = keys
                }
                tweetSlots[t] += authorSlots[author]!
            }
        }
        // A hashtag's key, once per tag (the tag's tweets are its list: `Snapshot.tags`).
        for tag in snapshot.tags {
            let s = table.entry("#" + SearchText.fold(tag.tag))
            for t in tag.tweets { tweetSlots[t].append(s) }
        }
    }

    /// The term shards of the keys of `postings`, in their order (JavaScript's).
    private static func shards(_ postings: SearchPostings) -> [Shard] {
        let keys = postings.keys

        var shards: [Shard] = []
        var names: Set<String> = []
        var body: [UInt8] = []
        var first: String?
        func close() {
            guard let key = first else { return }
            var name = StableHash.hex(StableHash.fnv1a(key)).prefix(12)
            while names.contains(String(name)) { name += "x" }
            names.insert(String(name))
            let path = Self.folder + "k/" + name + ".js"
            var bytes = Array("roostSearch.terms(".utf8)
            JSONText.append(path, to: &bytes)
            bytes += Array(",[".utf8) + body + Array("]);\n".utf8)
            shards.append(Shard(path: path, firstKey: key, bytes: bytes))
            body = []
            first = nil
        }
        // Whether a shard may be cut before each key, on all cores; the shards cut in order.
        let mayCut = [Bool](parallelCount: keys.count, chunk: 1024) { i in
            StableHash.splitMix64Finalize(StableHash.fnv1a(keys[i])) & 3 == 0
        }
        for i in keys.indices {
            let item = postings.entry(at: i)
            let cut =
                body.count + item.count > Self.maximumShardBytes
                || (body.count >= Self.minimumShardBytes && mayCut[i])
            if cut, !body.isEmpty { close() }
            if first == nil {
                // The first shard starts at the empty key, so every key has a shard.
                first = shards.isEmpty ? "" : keys[i]
            } else {
                body.append(UInt8(ascii: ","))
            }
            body += item
        }
        if first == nil, shards.isEmpty { first = "" }
        close()
        return shards
    }

    /// `search/index.js`: the counts and each shard's first key and file.
    private static func manifest(_ shards: [Shard], tweetCount: Int, userCount: Int) -> [UInt8] {
        var manifest = Array("roostSearch.index({\"tweets\":\(tweetCount),\"users\":\(userCount),".utf8)
        manifest += Array("\"docBucket\":\(Self.docBucket),\"userBucket\":\(Self.userBucket),\"shards\":[".utf8)
        for (i, shard) in shards.enumerated() {
            if i > 0 { manifest.append(UInt8(ascii: ",")) }
            JSONText.append(shard.firstKey, to: &manifest)
            manifest.append(UInt8(ascii: ","))
            JSONText.append(String(shard.path.dropFirst(Self.folder.count)), to: &manifest)
        }
        manifest += Array("]});\n".utf8)
        return manifest
    }

    /// `search/days.js`: the first tweet number of each day that has tweets.
    private static func days(_ snapshot: Snapshot) -> [UInt8] {
        let tweetCount = snapshot.tweets.count
        var days = Array("roostSearch.days([".utf8)
        var lastDay: Int?
        for n in 0..<tweetCount {
            let seconds = snapshot.tweets[tweetCount - 1 - n].timestamp.seconds
            let day = CivilDate.day(ofSeconds: seconds)
            if day != lastDay {
                if lastDay != nil { days.append(UInt8(ascii: ",")) }
                days += Array("\(day),\(n)".utf8)
                lastDay = day
            }
        }
        days += Array("]);\n".utf8)
        return days
    }

    /// Keys numbered in the order met (keys equal as strings share one number).
    struct KeyNumbers: Sendable {
        private var slot: [String: Int32] = [:]
        private(set) var keys: [String] = []

        /// The number of `key`, and whether it was given now.
        mutating func number(_ key: String) -> (Int32, isNew: Bool) {
            if let s = slot[key] { return (s, false) }
            let s = Int32(keys.count)
            slot[key] = s
            keys.append(key)
            return (s, true)
        }
    }

    /// The keys of a part of the tweets' captions, numbered in the order met, and each tweet's.
    private struct CaptionPart: Sendable {
        var numbers = KeyNumbers()
        var keys: [String] { numbers.keys }
        /// Per tweet of the part, its keys' numbers.
        var tweets: [[Int32]] = []

        mutating func entry(_ key: String) -> Int32 { numbers.number(key).0 }
    }

    /// Every key of the index by slot, with its tweets and users (numbers, ascending).
    struct KeyTable {
        var numbers = KeyNumbers()
        var keys: [String] { numbers.keys }
        var tweets: [[Int32]] = []
        var users: [[Int32]] = []

        /// The slot of `key`, made the first time it is met.
        mutating func entry(_ key: String) -> Int32 {
            let (s, isNew) = numbers.number(key)
            if isNew {
                tweets.append([])
                users.append([])
            }
            return s
        }
    }

    /// Result cards' data: tweets by number, this many per file (`search/d/{bucket}.js`).
    package static let docBucket = 4
    /// Users' data by number, this many per file (`search/u/{bucket}.js`).
    package static let userBucket = 32

    package var docBuckets: Int { (tweetCount + Self.docBucket - 1) / Self.docBucket }
    package var userBuckets: Int { (userCount + Self.userBucket - 1) / Self.userBucket }
    package static func docsPath(_ bucket: Int) -> String { folder + "d/\(bucket).js" }
    package static func usersPath(_ bucket: Int) -> String { folder + "u/\(bucket).js" }

    /// The tweet number of `snapshot.tweets[index]`, and back (the same formula).
    package func number(ofTweet index: Int) -> Int { tweetCount - 1 - index }
    package func tweet(number: Int) -> Int { tweetCount - 1 - number }
}
