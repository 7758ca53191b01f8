/// What a snapshot is derived from: the decoded documents' entities by kind, in the order
/// they were added, and the documents' own diagnostics. Documents can be added a batch at a
/// time as a store is read, so that a large store's `DecodedDocument`s are never all held
/// together (see `Snapshot.read(at:)`).
struct DocumentsByKind {
    var users: [User] = []
    var tweets: [Tweet] = []
    var likes: [Like] = []
    var favorites: [FavoritePlace] = []
    var diagnostics: [Diagnostic] = []
    /// Paths of documents that exist but have errors (they are left out).
    var unusable: Set<String> = []
    /// Every document added, of any collection.
    var documentCount = 0

    init() {}

    /// All of `decoded`, each kind's array made its size at once: growing by doubling
    /// copies it, and with the documents still in memory that copy would be the peak.
    init(sorting decoded: consuming [DecodedDocument]) {
        var counts = (users: 0, tweets: 0, likes: 0, favorites: 0)
        for k in decoded.indices {
            switch decoded[k].entity {
            case .user?: counts.users += 1
            case .tweet?: counts.tweets += 1
            case .like?: counts.likes += 1
            case .favorite?: counts.favorites += 1
            case nil: break
            }
        }
        users.reserveCapacity(counts.users)
        tweets.reserveCapacity(counts.tweets)
        likes.reserveCapacity(counts.likes)
        favorites.reserveCapacity(counts.favorites)
        add(decoded)
    }

    mutating func add(_ decoded: borrowing [DecodedDocument]) {
        documentCount += decoded.count
        for k in decoded.indices {
            let document = decoded[k]
            diagnostics += document.diagnostics
            switch document.entity {
            case .user(let user)?: users.append(user)
            case .tweet(let tweet)?: tweets.append(tweet)
            case .like(let like)?: likes.append(like)
            case .favorite(let place)?: favorites.append(place)
            case nil:
                if let error = document.diagnostics.first(where: { $0.severity == .error }) {
                    unusable.insert(error.path)
                }
            }
        }
    }
}
