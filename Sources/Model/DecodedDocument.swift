import Store

/// One document read by the schema of SPEC 2.3, before anything is derived: the part of
/// building a snapshot that depends on that document alone. A live preview keeps these
/// and decodes again only the documents that changed.
@usableFromInline
package struct DecodedDocument: Sendable, Equatable {
    /// Users, tweets and places are boxed: a document is then the size of a like (the most
    /// common kind, three in four at a million tweets) rather than of a tweet, 128 bytes,
    /// in arrays that hold every document of the store.
    enum Entity: Sendable, Equatable {
        indirect case user(User)
        indirect case tweet(Tweet)
        case like(Like)
        indirect case favorite(FavoritePlace)
    }

    /// nil for documents of other collections and documents with errors.
    let entity: Entity?
    package let diagnostics: [Diagnostic]

    /// The tweet, when the document is a usable tweet.
    package var tweet: Tweet? {
        if case .tweet(let tweet)? = entity { return tweet }
        return nil
    }

    /// The user, when the document is a usable user.
    package var user: User? {
        if case .user(let user)? = entity { return user }
        return nil
    }

    /// The like, when the document is a usable like.
    package var like: Like? {
        if case .like(let like)? = entity { return like }
        return nil
    }

    /// The place, when the document is a usable favorite.
    package var favorite: FavoritePlace? {
        if case .favorite(let place)? = entity { return place }
        return nil
    }

    package init(_ document: Document) {
        switch DocumentKind(document.path) {
        case .user:
            let (user, diagnostics) = Snapshot.decodeUser(document)
            (entity, self.diagnostics) = (user.map(Entity.user), diagnostics)
        case .tweet:
            let (tweet, diagnostics) = Snapshot.decodeTweet(document)
            (entity, self.diagnostics) = (tweet.map(Entity.tweet), diagnostics)
        case .like:
            let (like, diagnostics) = Snapshot.decodeLike(document)
            (entity, self.diagnostics) = (like.map(Entity.like), diagnostics)
        case .favorite:
            let (place, diagnostics) = Snapshot.decodeFavorite(document)
            (entity, self.diagnostics) = (place.map(Entity.favorite), diagnostics)
        case nil:
            (entity, diagnostics) = (nil, [])
        }
    }
}
