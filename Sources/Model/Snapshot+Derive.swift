import Store
import Support

extension Snapshot {
    /// Reads the documents of SPEC 2.3 and derives everything; documents of other
    /// collections are ignored. Never fails: problems become `diagnostics`, and a
    /// document with an error is left out. The result does not depend on the documents' order.
    public init(documents: [Document]) {
        // Decoding is per document and parses captions for hashtags: all cores.
        self.init(decoded: documents.parallelMap(DecodedDocument.init))
    }

    /// Derives everything from decoded documents, in any order. Given the only reference
    /// (`consume`), the documents are freed once sorted by kind, before the rest is derived.
    public init(decoded: consuming [DecodedDocument]) {
        var derivation = Derivation()
        let found = derivation.sortByKind(consume decoded)
        derivation.indexUsers(found.users)
        derivation.orderTweets(found.tweets)
        derivation.linkTweets()
        derivation.countLikes(found.likes)
        derivation.checkStoredCounters()
        derivation.groupFavorites(found.favorites)
        derivation.indexHashtags()

        self.users = derivation.users
        self.tweets = derivation.tweets
        self.countedLikes = derivation.likes
        self.tweetRelations = derivation.relations
        self.userActivity = derivation.activity
        self.tags = derivation.tags
        self.diagnostics = derivation.diagnostics.sorted()
        self.userByUID = derivation.userByUID
        self.userByHandle = derivation.userByHandle
        self.tweetByID = derivation.tweetByID
        self.tagByName = Dictionary(uniqueKeysWithValues: derivation.tags.enumerated().map { ($1.tag, $0) })
        self.userByUsername = derivation.userByUsername
        self.userByFoldedUsername = derivation.userByFoldedUsername
    }
}

/// A snapshot while it is derived, phase by phase: each phase uses what the ones before made.
private struct Derivation {
    var diagnostics: [Diagnostic] = []
    var users: [User] = []
    var userByUID: [String: Int] = [:], userByHandle: [String: Int] = [:]
    var userByUsername: [String: Int] = [:], userByFoldedUsername: [String: Int] = [:]
    /// In feed order.
    var tweets: [Tweet] = []
    var tweetByID: [String: Int] = [:]
    var relations: [TweetRelations] = []
    var activity: [UserActivity] = []
    var likes: [CountedLike] = []
    var tags: [HashtagIndex] = []
    /// Paths of user and tweet documents that exist but have errors (they are left out).
    var unusable: Set<String> = []

    /// How a message names a document another one points at and that is not there.
    func absent(_ path: String) -> String {
        unusable.contains(path) ? "\(path) has errors and is left out" : "\(path) does not exist"
    }

    /// The decoded entities by kind, in the documents' order; their diagnostics noted. Each
    /// kind's array is made its size at once: growing by doubling copies it, and with a large
    /// store's documents still in memory that copy would be the peak.
    mutating func sortByKind(_ decoded: consuming [DecodedDocument])
        -> (users: [User], tweets: [Tweet], likes: [Like], favorites: [FavoritePlace])
    {
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
        var users: [User] = []
        var tweets: [Tweet] = []
        var likes: [Like] = []
        var favorites: [FavoritePlace] = []
        users.reserveCapacity(counts.users)
        tweets.reserveCapacity(counts.tweets)
        likes.reserveCapacity(counts.likes)
        favorites.reserveCapacity(counts.favorites)
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
        return (users, tweets, likes, favorites)
    }

    /// Users, their handles and look-ups.
    mutating func indexUsers(_ decoded: [User]) {
        users = decoded.sorted { codePointOrder($0.uid, $1.uid) }
        diagnostics += Snapshot.assignHandles(&users)
        var foldedCount: [String: Int] = [:]
        for (i, user) in users.enumerated() {
            userByUID[user.uid] = i
            userByHandle[user.handle] = i
            userByUsername[user.username] = i
            foldedCount[user.username.lowercased(), default: 0] += 1
        }
        for (i, user) in users.enumerated() where foldedCount[user.username.lowercased()] == 1 {
            userByFoldedUsername[user.username.lowercased()] = i
        }
        activity = [UserActivity](repeating: UserActivity(), count: users.count)
    }

    /// Tweets in feed order: indices sorted, so the comparisons move no strings.
    mutating func orderTweets(_ decoded: [Tweet]) {
        let order = decoded.indices.sorted { a, b in
            let ta = decoded[a].timestamp
            let tb = decoded[b].timestamp
            return ta != tb ? ta > tb : codePointOrder(decoded[a].id, decoded[b].id)
        }
        tweets = order.map { decoded[$0] }
        tweetByID.reserveCapacity(tweets.count)
        for (i, tweet) in tweets.enumerated() { tweetByID[tweet.id] = i }
        relations = [TweetRelations](repeating: TweetRelations(), count: tweets.count)
    }

    /// Authors, parents and replies; each user's tweets and replies.
    mutating func linkTweets() {
        // Feed order, so every per-user list and reply list comes out newest first.
        for i in tweets.indices {
            var path: String { "tweets/\(tweets[i].id)" }  // only for diagnostics: computed when needed
            if let author = userByUID[tweets[i].authorUID] {
                relations[i].author = author
                if tweets[i].isReply { activity[author].replies.append(i) } else { activity[author].tweets.append(i) }
            } else {
                diagnostics.append(
                    Diagnostic(
                        .tweetByMissingUser, path: path, field: "uid",
                        "author " + absent("users/\(tweets[i].authorUID)")))
            }
            if let parentID = tweets[i].replyTo {
                if let parent = tweetByID[parentID] {
                    relations[i].parent = parent
                    relations[parent].replies.append(i)
                } else {
                    diagnostics.append(
                        Diagnostic(
                            .replyToMissingTweet, path: path, field: "replyTo",
                            "parent " + absent("tweets/\(parentID)")))
                }
            }
        }
        // Replies read down a conversation: oldest first, ties by ID (ascending, as everywhere).
        let feed = tweets
        for i in relations.indices where !relations[i].replies.isEmpty {
            relations[i].replies.sort { a, b in
                let ta = feed[a].timestamp
                let tb = feed[b].timestamp
                return ta != tb ? ta < tb : codePointOrder(feed[a].id, feed[b].id)
            }
        }
    }

    /// Likes: only those of existing users for existing tweets count (SPEC 4).
    mutating func countLikes(_ decoded: [Like]) {
        var counted: [(user: Int, tweet: Int, like: Int)] = []
        counted.reserveCapacity(decoded.count)
        var likedByUser = [[(tweet: Int, time: Timestamp)]](repeating: [], count: users.count)
        for (index, like) in decoded.enumerated() {
            var path: String { "users/\(like.uid)/user-likes/\(like.tweetID)" }
            guard let user = userByUID[like.uid] else {
                diagnostics.append(Diagnostic(.likeByMissingUser, path: path, "liker " + absent("users/\(like.uid)")))
                continue
            }
            guard let tweet = tweetByID[like.tweetID] else {
                diagnostics.append(
                    Diagnostic(.likeOfMissingTweet, path: path, "liked " + absent("tweets/\(like.tweetID)")))
                continue
            }
            counted.append((user, tweet, index))
            relations[tweet].likers.append(user)
            likedByUser[user].append((tweet, like.timestamp ?? tweets[tweet].timestamp))
        }
        for i in relations.indices where relations[i].likers.count > 1 { relations[i].likers.sort() }
        counted.sort { $0.user != $1.user ? $0.user < $1.user : $0.tweet < $1.tweet }
        likes = counted.map {
            CountedLike(user: Int32($0.user), tweet: Int32($0.tweet), timestamp: decoded[$0.like].timestamp)
        }
        let feed = tweets
        for (user, liked) in likedByUser.enumerated() {
            activity[user].likes = liked.sorted {
                $0.time != $1.time ? $0.time > $1.time : codePointOrder(feed[$0.tweet].id, feed[$1.tweet].id)
            }.map(\.tweet)
        }
    }

    /// Stored counters against the derived counts.
    mutating func checkStoredCounters() {
        for i in tweets.indices {
            guard let stored = tweets[i].storedLikes else { continue }
            var path: String { "tweets/\(tweets[i].id)" }
            if stored < 0 {
                diagnostics.append(
                    Diagnostic(.negativeCounter, path: path, field: "likes", "stored likes is \(stored)"))
            } else if stored != relations[i].likers.count {
                diagnostics.append(
                    Diagnostic(
                        .likeCounterDrift, path: path, field: "likes",
                        "stored \(stored), counted \(relations[i].likers.count) like\(relations[i].likers.count == 1 ? "" : "s")"
                    ))
            }
        }
    }

    /// Favorites, by name then ID.
    mutating func groupFavorites(_ decoded: [FavoritePlace]) {
        var favoritesOfMissing: Set<String> = []
        for place in decoded {
            guard let user = userByUID[place.uid] else {
                favoritesOfMissing.insert(place.uid)
                continue
            }
            activity[user].favorites.append(place)
        }
        for uid in favoritesOfMissing.sorted(by: codePointOrder) {
            diagnostics.append(
                Diagnostic(
                    .favoritesOfMissingUser, path: "favorites/\(uid)",
                    unusable.contains("users/\(uid)")
                        ? "favorites of users/\(uid), which has errors and is left out"
                        : "favorites of users/\(uid), who does not exist"))
        }
        for i in activity.indices where activity[i].favorites.count > 1 {
            activity[i].favorites.sort {
                $0.name != $1.name ? codePointOrder($0.name, $1.name) : codePointOrder($0.id, $1.id)
            }
        }
    }

    /// Hashtags, each with its tweets in feed order; tags in code point order.
    mutating func indexHashtags() {
        var tagged: [String: [Int]] = [:]
        for i in tweets.indices {
            for tag in tweets[i].hashtags { tagged[tag, default: []].append(i) }
        }
        tags = tagged.keys.sorted(by: codePointOrder).map { HashtagIndex(tag: $0, tweets: tagged[$0]!) }
    }
}
