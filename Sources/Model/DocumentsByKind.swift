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
        self.init(documentsOf: decoded) { $0 }
    }

    /// The document `document` gives of each of `items` (a cached read's documents with
    /// where each came from), sorted by kind without an array of the documents alone.
    init<Items: Collection>(documentsOf items: borrowing Items, _ document: (Items.Element) -> DecodedDocument) {
        var counts = (users: 0, tweets: 0, likes: 0, favorites: 0)
        var k = items.startIndex
        while k != items.endIndex {
            defer { items.formIndex(after: &k) }
            switch document(items[k]).entity {
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
        k = items.startIndex
        while k != items.endIndex {
            add(document(items[k]))
            items.formIndex(after: &k)
        }
    }

    mutating func add(_ decoded: borrowing [DecodedDocument]) {
        for k in decoded.indices { add(decoded[k]) }
    }

    mutating func add(_ document: DecodedDocument) {
        documentCount += 1
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
