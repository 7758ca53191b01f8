import Store

/// A tweet: `tweets/{id}`.
public struct Tweet: Sendable, Equatable {
    public let id: String
    /// Markdown.
    public let caption: String
    public let timestamp: Timestamp
    public internal(set) var authorUID: String
    /// The stored counter; not trusted (SPEC 4): the shown count is derived from likes.
    public let storedLikes: Int64?
    /// The parent tweet's ID when this tweet is a reply.
    public internal(set) var replyTo: String?
    /// Hashtags in the caption's text, lowercased, first occurrence first.
    public let hashtags: [String]
    /// The URLs of the caption's images (`![alt](url)`), first occurrence first, unique.
    public var images: [String] = []

    public var isReply: Bool { replyTo != nil }
}
