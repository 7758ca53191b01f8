import Store
import Support

/// A derived snapshot in the build cache's binary form: loading it costs a rebuild less than
/// decoding every document and deriving again (`Build`'s `SnapshotCache`). Look-ups by
/// string are not stored: they are made again from the lists, as deriving makes them.
extension Snapshot {
    /// Encodes the snapshot a part at a time: `emit` is given each part's encoder, so that a
    /// caller streaming to a file never holds a million tweets' bytes at once.
    package func encode<E: Error>(_ emit: ((inout ByteWriter) -> Void) throws(E) -> Void) throws(E) {
        try emit { $0.append(length: users.count) }
        for user in users { try emit { user.encode(into: &$0) } }
        try emit { $0.append(length: tweets.count) }
        for tweet in tweets { try emit { tweet.encode(into: &$0) } }
        try emit { $0.append(length: countedLikes.count) }
        for start in stride(from: 0, to: countedLikes.count, by: 4096) {
            try emit { out in
                for like in countedLikes[start..<min(countedLikes.count, start + 4096)] {
                    out.append(length: Int(like.user))
                    out.append(length: Int(like.tweet))
                    out.append(like.timestamp != nil)
                    if let timestamp = like.timestamp { out.append(timestamp) }
                }
            }
        }
        for relations in tweetRelations {
            try emit { out in
                out.append(length: relations.author.map { $0 + 1 } ?? 0)
                out.append(length: relations.parent.map { $0 + 1 } ?? 0)
                out.append(indices: relations.replies)
                out.append(indices: relations.likers)
            }
        }
        for activity in userActivity {
            try emit { out in
                out.append(indices: activity.tweets)
                out.append(indices: activity.replies)
                out.append(indices: activity.likes)
                out.append(length: activity.favorites.count)
                for place in activity.favorites { place.encode(into: &out) }
            }
        }
        try emit { $0.append(length: tags.count) }
        for tag in tags {
            try emit { out in
                out.append(tag.tag)
                out.append(indices: tag.tweets)
            }
        }
        try emit { Diagnostic.encode(diagnostics, into: &$0) }
    }

    /// The snapshot `encode` wrote. Every index is checked against what it points into.
    package init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        var users: [User] = []
        let userCount = try reader.length()
        users.reserveCapacity(userCount)
        for _ in 0..<userCount { users.append(try User(from: &reader)) }
        var tweets: [Tweet] = []
        let tweetCount = try reader.length()
        tweets.reserveCapacity(tweetCount)
        for _ in 0..<tweetCount { tweets.append(try Tweet(from: &reader)) }
        var likes: [CountedLike] = []
        let likeCount = try reader.length()
        likes.reserveCapacity(likeCount)
        for _ in 0..<likeCount {
            let user = try reader.index(below: userCount)
            let tweet = try reader.index(below: tweetCount)
            likes.append(
                CountedLike(
                    user: Int32(user), tweet: Int32(tweet), timestamp: try reader.bool() ? try reader.timestamp() : nil)
            )
        }
        var relations: [TweetRelations] = []
        relations.reserveCapacity(tweetCount)
        for _ in 0..<tweetCount {
            relations.append(
                TweetRelations(
                    author: try reader.optionalIndex(below: userCount),
                    parent: try reader.optionalIndex(below: tweetCount),
                    replies: try reader.indices(below: tweetCount), likers: try reader.indices(below: userCount)))
        }
        var activity: [UserActivity] = []
        activity.reserveCapacity(userCount)
        for _ in 0..<userCount {
            var one = UserActivity(
                tweets: try reader.indices(below: tweetCount), replies: try reader.indices(below: tweetCount),
                likes: try reader.indices(below: tweetCount))
            let places = try reader.length()
            for _ in 0..<places { one.favorites.append(try FavoritePlace(from: &reader)) }
            activity.append(one)
        }
        var tags: [HashtagIndex] = []
        let tagCount = try reader.length()
        for _ in 0..<tagCount {
            tags.append(HashtagIndex(tag: try reader.string(), tweets: try reader.indices(below: tweetCount)))
        }
        let diagnostics = try Diagnostic.decode(from: &reader)
        (self.users, self.tweets, self.countedLikes) = (users, tweets, likes)
        (self.tweetRelations, self.userActivity, self.tags, self.diagnostics) = (relations, activity, tags, diagnostics)
        (userByUID, userByHandle, userByUsername, userByFoldedUsername) = Snapshot.userLookups(users)
        tweetByID = Snapshot.tweetLookup(tweets)
        tagByName = Snapshot.tagLookup(tags)
    }
}

extension ByteWriter {
    fileprivate mutating func append(indices: [Int]) {
        append(length: indices.count)
        for i in indices { append(length: i) }
    }
}

extension ByteReader {
    fileprivate mutating func index(below count: Int) throws(Malformed) -> Int {
        let i = try length()
        guard i < count else { throw Malformed() }
        return i
    }

    fileprivate mutating func optionalIndex(below count: Int) throws(Malformed) -> Int? {
        let i = try length()
        guard i <= count else { throw Malformed() }
        return i == 0 ? nil : i - 1
    }

    fileprivate mutating func indices(below count: Int) throws(Malformed) -> [Int] {
        let n = try length()
        var indices: [Int] = []
        indices.reserveCapacity(n)
        for _ in 0..<n { indices.append(try index(below: count)) }
        return indices
    }
}
