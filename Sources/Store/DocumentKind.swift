/// What a document is, by where it lives (SPEC 2): `users/{uid}`, `tweets/{id}`,
/// `users/{uid}/user-likes/{tweetId}` or `favorites/{uid}/favorites/{placeId}`. Anything
/// else is no kind Roost reads.
package enum DocumentKind: Sendable, Equatable {
    case user, tweet, like, favorite

    /// The kind of the document at `path`.
    package init?(_ path: DocumentPath) {
        let s = path.segments
        self.init(count: s.count, collection: s[0][...], subcollection: s.count == 4 ? s[2][...] : "")
    }

    /// The kind of the document in the store file at `relative` (its path in the store).
    package init?(file relative: String) {
        let s = relative.split(separator: "/", omittingEmptySubsequences: false)
        self.init(count: s.count, collection: s[0], subcollection: s.count == 4 ? s[2] : "")
    }

    private init?(count: Int, collection: Substring, subcollection: Substring) {
        switch (count, collection, subcollection) {
        case (2, "users", _): self = .user
        case (2, "tweets", _): self = .tweet
        case (4, "users", "user-likes"): self = .like
        case (4, "favorites", "favorites"): self = .favorite
        default: return nil
        }
    }
}
