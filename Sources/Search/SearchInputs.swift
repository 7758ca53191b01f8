import Model
import Support

extension SearchIndex {
    /// Everything a snapshot's postings are made of (`init(snapshot:captionKeys:)`), hashed:
    /// the users' names, usernames and handles in their order; each tweet's caption, author
    /// and reply flag in the tweets' order; each hashtag and its tweets. Two snapshots with
    /// one digest have the same postings, so a build cache's postings serve a snapshot that
    /// was derived again (a like added) when its digest is theirs.
    ///
    /// - Parameter caption: the caption of the tweet at an index (by default the snapshot's;
    ///   another when the postings are those of the snapshot before some captions were replaced).
    package static func inputDigest(of snapshot: Snapshot, caption: (@Sendable (Int) -> String)? = nil) -> UInt64 {
        let chunk = 1024
        let tweetCount = snapshot.tweets.count
        // Each chunk of tweets hashed on a core, the chunks' hashes then in order: the same digest.
        let parts = [UInt64](parallelCount: (tweetCount + chunk - 1) / chunk) { c in
            var h = StableHasher()
            for t in (c * chunk)..<min(tweetCount, (c + 1) * chunk) {
                h.combine(caption?(t) ?? snapshot.tweets[t].caption)
                h.combine(snapshot.tweetRelations[t].author ?? -1)
                h.combine(snapshot.tweets[t].isReply)
            }
            return UInt64(bitPattern: Int64(h.finalize()))
        }
        var h = StableHasher()
        h.combine(snapshot.users.count)
        for user in snapshot.users {
            h.combine(user.fullname)
            h.combine(user.username)
            h.combine(user.handle)
        }
        h.combine(tweetCount)
        for part in parts { h.combine(part) }
        h.combine(snapshot.tags.count)
        for tag in snapshot.tags {
            h.combine(tag.tag)
            h.combine(tag.tweets.count)
            for t in tag.tweets { h.combine(t) }
        }
        return UInt64(bitPattern: Int64(h.finalize()))
    }
}
