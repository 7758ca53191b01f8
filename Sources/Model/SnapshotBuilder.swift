import Markdown
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

    /// Derives everything from decoded documents, in any order.
    public init(decoded: [DecodedDocument]) {
        var diagnostics: [Diagnostic] = []
        var decodedUsers: [User] = [], decodedTweets: [Tweet] = []
        var decodedLikes: [Like] = [], decodedFavorites: [FavoritePlace] = []
        for document in decoded {
            diagnostics += document.diagnostics
            switch document.entity {
            case .user(let user)?: decodedUsers.append(user)
            case .tweet(let tweet)?: decodedTweets.append(tweet)
            case .like(let like)?: decodedLikes.append(like)
            case .favorite(let place)?: decodedFavorites.append(place)
            case nil: break
            }
        }
        // Users, their handles and look-ups.
        var users = decodedUsers.sorted { codePointOrder($0.uid, $1.uid) }
        diagnostics += Self.assignHandles(&users)
        var userByUID: [String: Int] = [:], userByHandle: [String: Int] = [:]
        var userByUsername: [String: Int] = [:], foldedCount: [String: Int] = [:]
        for (i, user) in users.enumerated() {
            userByUID[user.uid] = i
            userByHandle[user.handle] = i
            userByUsername[user.username] = i
            foldedCount[user.username.lowercased(), default: 0] += 1
        }
        var userByFoldedUsername: [String: Int] = [:]
        for (i, user) in users.enumerated() where foldedCount[user.username.lowercased()] == 1 {
            userByFoldedUsername[user.username.lowercased()] = i
        }

        // Tweets in feed order: indices sorted, so the comparisons move no strings.
        let order = decodedTweets.indices.sorted { a, b in
            let ta = decodedTweets[a].timestamp, tb = decodedTweets[b].timestamp
            return ta != tb ? ta > tb : codePointOrder(decodedTweets[a].id, decodedTweets[b].id)
        }
        let tweets = order.map { decodedTweets[$0] }
        var tweetByID: [String: Int] = [:]
        tweetByID.reserveCapacity(tweets.count)
        for (i, tweet) in tweets.enumerated() { tweetByID[tweet.id] = i }

        var relations = [TweetRelations](repeating: TweetRelations(), count: tweets.count)
        var activity = [UserActivity](repeating: UserActivity(), count: users.count)
        // Feed order, so every per-user list and reply list comes out newest first.
        for i in tweets.indices {
            var path: String { "tweets/\(tweets[i].id)" }  // only for diagnostics: computed when needed
            if let author = userByUID[tweets[i].authorUID] {
                relations[i].author = author
                if tweets[i].isReply { activity[author].replies.append(i) } else { activity[author].tweets.append(i) }
            } else {
                diagnostics.append(Diagnostic(.tweetByMissingUser, path: path, field: "uid",
                                              "author users/\(tweets[i].authorUID) does not exist"))
            }
            if let parentID = tweets[i].replyTo {
                if let parent = tweetByID[parentID] {
                    relations[i].parent = parent
                    relations[parent].replies.append(i)
                } else {
                    diagnostics.append(Diagnostic(.replyToMissingTweet, path: path, field: "replyTo",
                                                  "parent tweets/\(parentID) does not exist"))
                }
            }
        }
        // Replies read down a conversation: oldest first, ties by ID (ascending, as everywhere).
        for i in relations.indices where !relations[i].replies.isEmpty {
            relations[i].replies.sort { a, b in
                let ta = tweets[a].timestamp, tb = tweets[b].timestamp
                return ta != tb ? ta < tb : codePointOrder(tweets[a].id, tweets[b].id)
            }
        }

        // Likes: only those of existing users for existing tweets count (SPEC 4).
        var counted: [(user: Int, tweet: Int, like: Int)] = []
        counted.reserveCapacity(decodedLikes.count)
        var likedByUser = [[(tweet: Int, time: Timestamp)]](repeating: [], count: users.count)
        for (index, like) in decodedLikes.enumerated() {
            var path: String { "users/\(like.uid)/user-likes/\(like.tweetID)" }
            guard let user = userByUID[like.uid] else {
                diagnostics.append(Diagnostic(.likeByMissingUser, path: path, "liker users/\(like.uid) does not exist"))
                continue
            }
            guard let tweet = tweetByID[like.tweetID] else {
                diagnostics.append(Diagnostic(.likeOfMissingTweet, path: path, "liked tweets/\(like.tweetID) does not exist"))
                continue
            }
            counted.append((user, tweet, index))
            relations[tweet].likers.append(user)
            likedByUser[user].append((tweet, like.timestamp ?? tweets[tweet].timestamp))
        }
        for i in relations.indices where relations[i].likers.count > 1 { relations[i].likers.sort() }
        counted.sort { $0.user != $1.user ? $0.user < $1.user : $0.tweet < $1.tweet }
        let likes = counted.map { decodedLikes[$0.like] }
        for (user, liked) in likedByUser.enumerated() {
            activity[user].likes = liked.sorted {
                $0.time != $1.time ? $0.time > $1.time : codePointOrder(tweets[$0.tweet].id, tweets[$1.tweet].id)
            }.map(\.tweet)
        }

        // Stored counters against the derived counts.
        for i in tweets.indices {
            guard let stored = tweets[i].storedLikes else { continue }
            var path: String { "tweets/\(tweets[i].id)" }
            if stored < 0 {
                diagnostics.append(Diagnostic(.negativeCounter, path: path, field: "likes", "stored likes is \(stored)"))
            } else if stored != relations[i].likers.count {
                diagnostics.append(Diagnostic(.likeCounterDrift, path: path, field: "likes",
                                              "stored \(stored), counted \(relations[i].likers.count) likes"))
            }
        }

        // Favorites, by name then ID.
        var favoritesOfMissing: Set<String> = []
        for place in decodedFavorites {
            guard let user = userByUID[place.uid] else {
                favoritesOfMissing.insert(place.uid)
                continue
            }
            activity[user].favorites.append(place)
        }
        for uid in favoritesOfMissing.sorted(by: codePointOrder) {
            diagnostics.append(Diagnostic(.favoritesOfMissingUser, path: "favorites/\(uid)",
                                          "favorites of users/\(uid), who does not exist"))
        }
        for i in activity.indices where activity[i].favorites.count > 1 {
            activity[i].favorites.sort {
                $0.name != $1.name ? codePointOrder($0.name, $1.name) : codePointOrder($0.id, $1.id)
            }
        }

        // Hashtags.
        var tagged: [String: [Int]] = [:]
        for i in tweets.indices {
            for tag in tweets[i].hashtags { tagged[tag, default: []].append(i) }
        }
        let tags = tagged.keys.sorted(by: codePointOrder).map { HashtagIndex(tag: $0, tweets: tagged[$0]!) }

        self.users = users
        self.tweets = tweets
        self.likes = likes
        self.tweetRelations = relations
        self.userActivity = activity
        self.tags = tags
        self.diagnostics = diagnostics.sorted()
        self.userByUID = userByUID
        self.userByHandle = userByHandle
        self.tweetByID = tweetByID
        self.tagByName = Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1.tag, $0) })
        self.userByUsername = userByUsername
        self.userByFoldedUsername = userByFoldedUsername
    }

    static func decodeUser(_ document: Document) -> (User?, [Diagnostic]) {
        var reader = FieldReader(document)
        let username = reader.requiredString("username")
        let fullname = reader.optionalString("fullname", "fullName")
        let image = reader.optionalString("profileImageUrl")
        let bio = reader.optionalString("bio")
        var safeImage: String?
        if let image, !image.isEmpty {
            if image.hasHTTPScheme {
                safeImage = image
            } else {
                reader.warn(.unsafeProfileImage, "profileImageUrl", "not an http(s) URL; the placeholder is shown")
            }
        }
        guard reader.isUsable, let username else { return (nil, reader.diagnostics) }
        let user = User(uid: document.path.id, username: username,
                        fullname: (fullname?.isEmpty ?? true) ? username : fullname!,
                        profileImageURL: safeImage, bio: bio, handle: "")
        return (user, reader.diagnostics)
    }

    static func decodeTweet(_ document: Document) -> (Tweet?, [Diagnostic]) {
        var reader = FieldReader(document)
        let caption = reader.requiredString("caption")
        let timestamp = reader.requiredTimestamp("timestamp")
        let uid = reader.requiredString("uid")
        let likes = reader.optionalInteger("likes")
        let replyTo = reader.optionalString("replyTo")
        guard reader.isUsable, let caption, let timestamp, let uid else { return (nil, reader.diagnostics) }
        let entities = Entities.scan(caption)
        let tweet = Tweet(id: document.path.id, caption: caption, timestamp: timestamp, authorUID: uid,
                          storedLikes: likes, replyTo: (replyTo?.isEmpty ?? true) ? nil : replyTo,
                          hashtags: entities.hashtags, mentions: entities.mentions)
        return (tweet, reader.diagnostics)
    }

    static func decodeLike(_ document: Document) -> (Like?, [Diagnostic]) {
        var reader = FieldReader(document)
        let timestamp = reader.optionalTimestamp("timestamp")
        guard reader.isUsable else { return (nil, reader.diagnostics) }
        let s = document.path.segments
        return (Like(uid: s[1], tweetID: s[3], timestamp: timestamp), reader.diagnostics)
    }

    static func decodeFavorite(_ document: Document) -> (FavoritePlace?, [Diagnostic]) {
        var reader = FieldReader(document)
        let name = reader.requiredString("placeName")
        let address = reader.optionalString("address")
        let coordinate = reader.coordinate("coordinate")
        guard reader.isUsable, let name else { return (nil, reader.diagnostics) }
        let s = document.path.segments
        let place = FavoritePlace(id: s[3], uid: s[1], name: name,
                                  address: (address?.isEmpty ?? true) ? nil : address, coordinate: coordinate)
        return (place, reader.diagnostics)
    }
}

extension String {
    var hasHTTPScheme: Bool {
        let lower = prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }
}
