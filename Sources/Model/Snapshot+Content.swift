extension Snapshot {
    /// The same snapshot with some tweets' content replaced, when nothing derived depends on
    /// what changed: the common edit of a live preview (a caption rewritten) then costs a copy,
    /// not a derivation. nil when a tweet is new, or its time, author, parent, hashtags or
    /// stored counter changed — then derive the snapshot again.
    public func replacingContent(of changed: [Tweet]) -> (Snapshot, indices: [Int])? {
        var copy = self
        var indices: [Int] = []
        var tweets = self.tweets
        for tweet in changed {
            guard let i = tweetByID[tweet.id] else { return nil }
            let old = tweets[i]
            guard old.timestamp == tweet.timestamp, old.authorUID == tweet.authorUID, old.replyTo == tweet.replyTo,
                old.hashtags == tweet.hashtags, old.storedLikes == tweet.storedLikes
            else { return nil }
            tweets[i] = tweet
            indices.append(i)
        }
        copy.tweets = tweets
        return (copy, indices)
    }
}
