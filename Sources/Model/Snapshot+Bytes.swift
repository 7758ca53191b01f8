import Store
import Support

/// A derived snapshot in the build cache's binary form: loading it costs a rebuild less than
/// decoding every document and deriving again (`Build`'s `SnapshotCache`). Look-ups by
/// string are not stored: they are made again from the lists, as deriving makes them (by
/// tweet ID, only once asked often: `TweetLookup`).
extension Snapshot {
    /// Encodes the snapshot a part at a time: `emit` is given each part's encoder, so that a
    /// caller streaming to a file never holds a million tweets' bytes at once. Each list is
    /// written in blocks of known length, so that loading decodes them on all cores.
    package func encode<E: Error>(_ emit: ((inout ByteWriter) -> Void) throws(E) -> Void) throws(E) {
        try encodeBlocks(users, emit) { user, out in user.encode(into: &out) }
        try encodeBlocks(tweets, emit) { tweet, out in tweet.encode(into: &out) }
        try encodeBlocks(countedLikes, emit) { like, out in
            out.append(length: Int(like.user))
            out.append(length: Int(like.tweet))
            out.append(like.timestamp != nil)
            if let timestamp = like.timestamp { out.append(timestamp) }
        }
        try encodeBlocks(tweetRelations, emit) { relations, out in
            out.append(length: relations.author.map { $0 + 1 } ?? 0)
            out.append(length: relations.parent.map { $0 + 1 } ?? 0)
            out.append(indices: relations.replies)
            out.append(indices: relations.likers)
        }
        try encodeBlocks(userActivity, emit) { activity, out in
            out.append(indices: activity.tweets)
            out.append(indices: activity.replies)
            out.append(indices: activity.likes)
            out.append(length: activity.favorites.count)
            for place in activity.favorites { place.encode(into: &out) }
        }
        try encodeBlocks(tags, emit) { tag, out in
            out.append(tag.tag)
            out.append(indices: tag.tweets)
        }
        try emit { Diagnostic.encode(diagnostics, into: &$0) }
    }

    /// The snapshot `encode` wrote, each list's blocks decoded on all cores. Every index is
    /// checked against what it points into.
    package init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        typealias Malformed = ByteReader.Malformed
        let users = try reader.blocks { (r: inout ByteReader) throws(Malformed) in try User(from: &r) }
        let tweets = try reader.blocks { (r: inout ByteReader) throws(Malformed) in try Tweet(from: &r) }
        let (userCount, tweetCount) = (users.count, tweets.count)
        // The users' look-ups made on another thread while the other lists are decoded (made
        // at the end, they left the other core idle).
        let userLookups = Background { Snapshot.userLookups(users) }
        let likes = try reader.blocks { (r: inout ByteReader) throws(Malformed) in
            let user = try r.index(below: userCount)
            let tweet = try r.index(below: tweetCount)
            return CountedLike(
                user: Int32(user), tweet: Int32(tweet), timestamp: try r.bool() ? try r.timestamp() : nil)
        }
        let relations = try reader.blocks { (r: inout ByteReader) throws(Malformed) in
            TweetRelations(
                author: try r.optionalIndex(below: userCount), parent: try r.optionalIndex(below: tweetCount),
                replies: try r.indices(below: tweetCount), likers: try r.indices(below: userCount))
        }
        let activity = try reader.blocks { (r: inout ByteReader) throws(Malformed) in
            var one = UserActivity(
                tweets: try r.indices(below: tweetCount), replies: try r.indices(below: tweetCount),
                likes: try r.indices(below: tweetCount))
            for _ in 0..<(try r.length()) { one.favorites.append(try FavoritePlace(from: &r)) }
            return one
        }
        let tags = try reader.blocks { (r: inout ByteReader) throws(Malformed) in
            HashtagIndex(tag: try r.string(), tweets: try r.indices(below: tweetCount))
        }
        guard relations.count == tweetCount, activity.count == userCount else { throw Malformed() }
        let diagnostics = try Diagnostic.decode(from: &reader)
        (self.users, self.tweets, self.countedLikes) = (users, tweets, likes)
        (self.tweetRelations, self.userActivity, self.tags, self.diagnostics) = (relations, activity, tags, diagnostics)
        tagByName = Snapshot.tagLookup(tags)
        (userByUID, userByHandle, userByUsername, userByFoldedUsername) = userLookups.value
        tweetByID = TweetLookup()
    }
}

/// Elements of a list in one block (the last block holds the rest).
private let blockSize = 4096

/// Writes `items` through `emit`: their count, then each block of `blockSize` of them as its
/// length in bytes and those bytes.
private func encodeBlocks<T, E: Error>(
    _ items: [T], _ emit: ((inout ByteWriter) -> Void) throws(E) -> Void, _ encode: (T, inout ByteWriter) -> Void
) throws(E) {
    try emit { $0.append(length: items.count) }
    for start in stride(from: 0, to: items.count, by: blockSize) {
        var block = ByteWriter()
        for item in items[start..<min(items.count, start + blockSize)] { encode(item, &block) }
        try emit { out in
            out.append(length: block.bytes.count)
            out.append(block.bytes)
        }
    }
}

extension ByteWriter {
    fileprivate mutating func append(indices: [Int]) {
        append(length: indices.count)
        for i in indices { append(length: i) }
    }
}

extension ByteReader {
    /// A list `encodeBlocks` wrote: its blocks found, then decoded on all cores with `decode`.
    fileprivate mutating func blocks<T: Sendable>(
        _ decode: @Sendable (inout ByteReader) throws(Malformed) -> T
    ) throws(Malformed) -> [T] {
        let count = try length()
        var spans: [UnsafeRawBufferPointer] = []
        var left = count
        while left > 0 {
            // (Every item takes a byte at least: a count beyond the bytes is refused before
            // room is made for it.)
            let span = try bytes(try length())
            guard span.count >= Swift.min(left, blockSize) else { throw Malformed() }
            spans.append(span)
            left -= Swift.min(left, blockSize)
        }
        nonisolated(unsafe) let blocks = spans  // (read-only, and within the caller's bytes)
        // Each block decoded into its place in the list.
        let decoded = [T].inParts(blocks.count, stride: blockSize) { b, start -> (made: Int, extra: Void?) in
            var reader = ByteReader(blocks[b])
            let n = Swift.min(blockSize, count - b * blockSize)
            var k = 0
            do throws(Malformed) {
                while k < n {
                    (start + k).initialize(to: try decode(&reader))
                    k += 1
                }
            } catch {
                return (k, nil)
            }
            return (k, reader.isAtEnd ? () : nil)
        }
        guard let decoded else { throw Malformed() }
        return decoded.list
    }

    // (Indices are read as numbers, not lengths: an index may exceed its block's bytes.)
    fileprivate mutating func index(below count: Int) throws(Malformed) -> Int {
        let i = try number()
        guard i < UInt64(count) else { throw Malformed() }
        return Int(i)
    }

    fileprivate mutating func optionalIndex(below count: Int) throws(Malformed) -> Int? {
        let i = try number()
        guard i <= UInt64(count) else { throw Malformed() }
        return i == 0 ? nil : Int(i) - 1
    }

    fileprivate mutating func indices(below count: Int) throws(Malformed) -> [Int] {
        let n = try length()
        var indices: [Int] = []
        indices.reserveCapacity(n)
        for _ in 0..<n { indices.append(try index(below: count)) }
        return indices
    }
}
