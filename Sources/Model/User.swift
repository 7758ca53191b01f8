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
    /// The URLs of the bio's images, first occurrence first, unique.
    public var bioImages: [String] = []
    /// The URL-safe handle of SPEC 3: `/u/{handle}/`.
    public internal(set) var handle: String
}
