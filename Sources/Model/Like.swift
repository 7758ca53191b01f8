import Store

/// `users/{uid}/user-likes/{tweetID}`: uid liked the tweet.
package struct Like: Sendable, Equatable {
    package let uid: String
    package let tweetID: String
    /// When the like was made, if the app recorded it.
    package let timestamp: Timestamp?

    package init(uid: String, tweetID: String, timestamp: Timestamp?) {
        self.uid = uid
        self.tweetID = tweetID
        self.timestamp = timestamp
    }
}
