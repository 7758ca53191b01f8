import Store

/// `users/{uid}/user-likes/{tweetID}`: uid liked the tweet.
public struct Like: Sendable, Equatable {
    public let uid: String
    public let tweetID: String
    /// When the like was made, if the app recorded it.
    public let timestamp: Timestamp?

    public init(uid: String, tweetID: String, timestamp: Timestamp?) {
        self.uid = uid
        self.tweetID = tweetID
        self.timestamp = timestamp
    }
}
