import Store

/// A tweet: `tweets/{id}`.
package struct Tweet: Sendable, Equatable {
    package let id: String
    /// Markdown.
    package let caption: String
    package let timestamp: Timestamp
    package internal(set) var authorUID: String
    /// The stored counter; not trusted (SPEC 4): the shown count is derived from likes.
    package let storedLikes: Int64?
    /// The parent tweet's ID when this tweet is a reply.
    package internal(set) var replyTo: String?
    /// Hashtags in the caption's text, lowercased, first occurrence first.
    package let hashtags: [String]
    /// The URLs of the caption's images (`![alt](url)`), first occurrence first, unique.
    package var images: [String] = []

    // (Inlinable: read through an array element, the call copied, retaining, the whole tweet.)
    @inlinable package var isReply: Bool { replyTo != nil }
}
