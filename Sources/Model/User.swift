/// A user of the app: `users/{uid}`.
package struct User: Sendable, Equatable {
    package let uid: String
    package let username: String
    /// The display name; the username when the document has none.
    package let fullname: String
    /// Only `http:` and `https:` URLs; nil means the theme's placeholder.
    package let profileImageURL: String?
    /// Markdown.
    package let bio: String?
    /// The URLs of the bio's images, first occurrence first, unique.
    package var bioImages: [String] = []
    /// The URL-safe handle of SPEC 3: `/u/{handle}/`.
    package internal(set) var handle: String
}
