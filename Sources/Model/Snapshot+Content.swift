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
        var indices: [Int] = []
        var tweets = self.tweets
        for tweet in changed {
            guard let i = tweetByID[tweet.id] else { return nil }
            let old = tweets[i]
            guard old.timestamp == tweet.timestamp, sameBytes(old.authorUID, tweet.authorUID),
                sameBytes(old.replyTo, tweet.replyTo), old.hashtags.elementsEqual(tweet.hashtags, by: sameBytes),
                old.storedLikes == tweet.storedLikes
            else { return nil }
            tweets[i] = tweet
            indices.append(i)
        }
        copy.tweets = tweets
        return (copy, indices)
    }

    /// `replacingContent(of:)` with tweet documents read again: nil unless each is a tweet
    /// without problems, and the only problems the snapshot has with it are those deriving
    /// found from what `replacingContent` keeps (author, parent, stored counter). One found
    /// when its old content was decoded (an image without alt text) may not hold for the new.
    package func replacingContent(ofDocuments documents: [DecodedDocument]) -> (Snapshot, indices: [Int])? {
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
        return replacingContent(of: tweets)
    }
}
