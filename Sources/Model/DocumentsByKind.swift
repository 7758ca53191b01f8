/// What a snapshot is derived from: the decoded documents' entities by kind, in the order
/// they were added, and the documents' own diagnostics. Documents can be added a batch at a
/// time as a store is read, so that a large store's `DecodedDocument`s are never all held
/// together (see `Snapshot.read(at:)`).
@usableFromInline
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

    @usableFromInline
    init() {}

    /// All of `decoded`, each kind's array made its size at once: growing by doubling
    /// copies it, and with the documents still in memory that copy would be the peak.
    init(sorting decoded: consuming [DecodedDocument]) {
        self.init(documentsOf: decoded) { $0 }
    }

    /// The document `document` gives of each of `items` (a cached read's documents with
    /// where each came from), sorted by kind without an array of the documents alone.
    /// Inlinable, so that it is specialized for the caller's items: generic, each item was
    /// copied through its type's metadata, twice (a third of deriving a large store).
    @inlinable
    init<Items: Collection>(documentsOf items: borrowing Items, _ document: (Items.Element) -> DecodedDocument) {
        self.init()
        var counts = KindCounts()
        var k = items.startIndex
        while k != items.endIndex {
            counts.count(document(items[k]))
            items.formIndex(after: &k)
        }
        reserve(counts)
        k = items.startIndex
        while k != items.endIndex {
            add(document(items[k]))
            items.formIndex(after: &k)
        }
    }

    /// How many documents of each kind are to be added.
    @usableFromInline
    struct KindCounts {
        var users = 0, tweets = 0, likes = 0, favorites = 0

        @usableFromInline
        init() {}

        @usableFromInline
        mutating func count(_ document: borrowing DecodedDocument) {
            switch document.entity {
            case .user?: users += 1
            case .tweet?: tweets += 1
            case .like?: likes += 1
            case .favorite?: favorites += 1
            case nil: break
            }
        }
    }

    @usableFromInline
    mutating func reserve(_ counts: KindCounts) {
        users.reserveCapacity(counts.users)
        tweets.reserveCapacity(counts.tweets)
        likes.reserveCapacity(counts.likes)
        favorites.reserveCapacity(counts.favorites)
    }

    /// A batch: when it is the first, each kind's array is made its size at once (see
    /// `init(sorting:)`; a store read in one batch, a folder's, is the whole store).
    mutating func add(_ decoded: borrowing [DecodedDocument]) {
        if documentCount == 0 {
            var counts = KindCounts()
            for k in decoded.indices { counts.count(decoded[k]) }
            reserve(counts)
        }
        for k in decoded.indices { add(decoded[k]) }
    }

    @usableFromInline
    mutating func add(_ document: borrowing DecodedDocument) {
        documentCount += 1
        if !document.diagnostics.isEmpty { diagnostics += document.diagnostics }
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
