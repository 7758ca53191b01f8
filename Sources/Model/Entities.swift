import Store

/// A user of the app: `users/{uid}`.
public struct User: Sendable, Equatable {
    public let uid: String
    public let username: String
    /// The display name; the username when the document has none.
    public let fullname: String
    /// Only `http:` and `https:` URLs; nil means the theme's placeholder.
    public let profileImageURL: String?
    /// Markdown.
    public let bio: String?
    /// The URL-safe handle of SPEC 3: `/u/{handle}/`.
    public internal(set) var handle: String
}

/// A tweet: `tweets/{id}`.
public struct Tweet: Sendable, Equatable {
    public let id: String
    /// Markdown.
    public let caption: String
    public let timestamp: Timestamp
    public let authorUID: String
    /// The stored counter; not trusted (SPEC 4): the shown count is derived from likes.
    public let storedLikes: Int64?
    /// The parent tweet's ID when this tweet is a reply.
    public let replyTo: String?
    /// Hashtags in the caption's text, lowercased, first occurrence first.
    public let hashtags: [String]
    /// `@names` in the caption's text, as written.
    public let mentions: [String]

    public var isReply: Bool { replyTo != nil }
}

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

public struct Coordinate: Sendable, Equatable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `favorites/{uid}/favorites/{id}`: a favorite place of uid.
public struct FavoritePlace: Sendable, Equatable {
    public let id: String
    public let uid: String
    public let name: String
    public let address: String?
    public let coordinate: Coordinate?
}

/// Unicode code point order, which for UTF-8 is byte order (Swift's `<` on String
/// compares canonical equivalents instead).
@inline(__always)
func codePointOrder(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
