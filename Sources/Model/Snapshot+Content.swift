import Support

extension Snapshot {
    /// The same snapshot with some tweets' content replaced, when nothing derived depends on
    /// what changed: the common edit of a live preview (a caption rewritten) then costs a copy,
    /// not a derivation. nil when a tweet is new, or its time, author, parent, hashtags or
    /// stored counter changed — then derive the snapshot again. Texts are compared by their
    /// bytes: a hashtag rewritten in another Unicode form is equal as a Swift string, but a
    /// derivation may name the tag after it.
    package func replacingContent(of changed: [Tweet]) -> (Snapshot, indices: [Int])? {
        var copy = self
        guard let (indices, _) = copy.replaceContent(of: changed) else { return nil }
        return (copy, indices)
    }

    /// `replacingContent(of:)` in place: the indices of the tweets replaced and the tweets
    /// they were, or nil and the snapshot as it was. A snapshot no one else holds is not
    /// copied (a copy of every tweet, to replace one, was the larger part of a rebuild's update).
    package mutating func replaceContent(of changed: [Tweet]) -> (indices: [Int], replaced: [Tweet])? {
        var indices: [Int] = []
        indices.reserveCapacity(changed.count)
        for tweet in changed {
            guard let i = self.tweet(id: tweet.id) else { return nil }
            let old = tweets[i]
            guard old.timestamp == tweet.timestamp, sameBytes(old.authorUID, tweet.authorUID),
                sameBytes(old.replyTo, tweet.replyTo), old.hashtags.elementsEqual(tweet.hashtags, by: sameBytes),
                old.storedLikes == tweet.storedLikes
            else { return nil }
            indices.append(i)
        }
        let replaced = indices.map { tweets[$0] }
        for (i, tweet) in zip(indices, changed) { tweets[i] = tweet }
        return (indices, replaced)
    }

    /// `replaceContent(of:)` with tweet documents read again: nil unless each is a tweet
    /// without problems, and the only problems the snapshot has with it are those deriving
    /// found from what `replaceContent` keeps (author, parent, stored counter). One found
    /// when its old content was decoded (an image without alt text) may not hold for the new.
    package mutating func replaceContent(ofDocuments documents: [DecodedDocument]) -> (
        indices: [Int], replaced: [Tweet]
    )? {
        var tweets: [Tweet] = []
        var paths = Set<String>()
        for document in documents {
            guard let tweet = document.tweet, document.diagnostics.isEmpty else { return nil }
            tweets.append(tweet)
            paths.insert("tweets/" + tweet.id)
        }
        let derivedFromKept: Set<Diagnostic.Kind> = [
            .tweetByMissingUser, .replyToMissingTweet, .negativeCounter, .likeCounterDrift,
        ]
        if !paths.isEmpty,
            diagnostics.contains(where: { paths.contains($0.path) && !derivedFromKept.contains($0.kind) })
        {
            return nil
        }
        return replaceContent(of: tweets)
    }
}
