import Dispatch
import Store
import Support

extension Snapshot {
    /// Reads the documents of SPEC 2.3 and derives everything; documents of other
    /// collections are ignored. Never fails: problems become `diagnostics`, and a
    /// document with an error is left out. The result does not depend on the documents' order.
    package init(documents: [Document]) {
        // Decoding is per document and parses captions for hashtags: all cores.
        self.init(decoded: documents.parallelMap(DecodedDocument.init))
    }

    /// Derives everything from decoded documents, in any order. Given the only reference
    /// (`consume`), the documents are freed once sorted by kind, before the rest is derived.
    package init(decoded: consuming [DecodedDocument]) {
        self.init(sorted: DocumentsByKind(sorting: consume decoded))
    }

    /// Derives everything from the decoded document `document` gives of each of `items`, in
    /// any order, without an array of the documents alone (a cached read holds each with
    /// where it came from: two arrays of 4.4 million documents at a million tweets).
    /// Given the only reference (`consume`), the items are freed once sorted by kind.
    /// Inlinable, so that walking the items is specialized for the caller's type.
    @inlinable
    package init<Items: Collection>(documentsOf items: consuming Items, _ document: (Items.Element) -> DecodedDocument)
    {
        let found = DocumentsByKind(documentsOf: items, document)
        _ = consume items
        self.init(sorted: found)
    }

    /// Derives everything from documents sorted by kind (added in any order).
    @usableFromInline
    init(sorted found: consuming DocumentsByKind) {
        var derivation = Derivation(consume found)
        derivation.indexUsers()
        // Favorites need only the users: grouped on another thread while the tweets are linked.
        let favorites = derivation.startGroupingFavorites()
        derivation.orderTweets()
        derivation.linkTweets()
        derivation.countLikes()
        derivation.checkStoredCounters()
        derivation.take(favorites)
        derivation.indexHashtags()
        // The like documents' memory is back in the allocator before the snapshot is handed
        // on: a caller that then trims the heap (`Heap.trim`) gets it back for the system,
        // instead of leaving it in free lists, in pieces only strings that size reuse.
        derivation.releases.wait()

        self.users = derivation.users
        self.tweets = derivation.tweets
        self.countedLikes = derivation.likes
        self.tweetRelations = derivation.relations
        self.userActivity = derivation.activity
        self.tags = derivation.tags
        self.diagnostics = derivation.diagnostics.sorted()
        self.userByUID = derivation.userByUID
        self.userByHandle = derivation.userByHandle
        self.tweetByID = TweetLookup(table: derivation.tweetByID)
        self.tagByName = Snapshot.tagLookup(derivation.tags)
        self.userByUsername = derivation.userByUsername
        self.userByFoldedUsername = derivation.userByFoldedUsername
    }
}

extension Snapshot {
    /// Users by uid, handle, username and lowercased username (only where no other user's
    /// folds alike), from users with their handles.
    static func userLookups(_ users: [User]) -> (
        byUID: [ExactText: Int], byHandle: [String: Int], byUsername: [String: Int], byFoldedUsername: [String: Int]
    ) {
        var (byUID, byHandle, byUsername, byFolded) = (
            [ExactText: Int](), [String: Int](), [String: Int](), [String: Int]()
        )
        var foldedCount: [String: Int] = [:]
        for (i, user) in users.enumerated() {
            byUID[ExactText(user.uid)] = i
            byHandle[user.handle] = i
            byUsername[user.username] = i
            foldedCount[user.username.lowercased(), default: 0] += 1
        }
        for (i, user) in users.enumerated() where foldedCount[user.username.lowercased()] == 1 {
            byFolded[user.username.lowercased()] = i
        }
        return (byUID, byHandle, byUsername, byFolded)
    }

    /// Tweets by ID (its bytes, `ExactText`), from the tweets in feed order.
    static func tweetLookup(_ tweets: [Tweet]) -> [ExactText: Int] {
        var byID: [ExactText: Int] = [:]
        byID.reserveCapacity(tweets.count)
        for (i, tweet) in tweets.enumerated() { byID[ExactText(tweet.id)] = i }
        return byID
    }

    static func tagLookup(_ tags: [HashtagIndex]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1.tag, $0) })
    }
}

/// A snapshot while it is derived, phase by phase: each phase uses what the ones before made,
/// and takes its kind's entities out of `found` (moving, not copying, them where it can:
/// with a large store, a second copy of the tweets or likes would be the peak).
private struct Derivation {
    var found: DocumentsByKind
    var diagnostics: [Diagnostic]
    var users: [User] = []
    var userByUID: [ExactText: Int] = [:], userByHandle: [String: Int] = [:]
    var userByUsername: [String: Int] = [:], userByFoldedUsername: [String: Int] = [:]
    /// In feed order.
    var tweets: [Tweet] = []
    var tweetByID: [ExactText: Int] = [:]
    var relations: [TweetRelations] = []
    var activity: [UserActivity] = []
    var likes: [CountedLike] = []
    var tags: [HashtagIndex] = []
    /// Paths of user and tweet documents that exist but have errors (they are left out).
    let unusable: Set<String>
    /// Left when what `releaseElsewhere` was given is freed.
    let releases = DispatchGroup()

    init(_ found: consuming DocumentsByKind) {
        diagnostics = found.diagnostics
        unusable = found.unusable
        found.diagnostics = []
        found.unusable = []
        self.found = found
    }

    /// How a message names a document another one points at and that is not there.
    func absent(_ path: String) -> String {
        unusable.contains(path) ? "\(path) has errors and is left out" : "\(path) does not exist"
    }

    /// Users, their handles and look-ups.
    mutating func indexUsers() {
        users = found.users
        found.users = []
        users.sort { codePointOrder($0.uid, $1.uid) }
        diagnostics += Snapshot.assignHandles(&users)
        (userByUID, userByHandle, userByUsername, userByFoldedUsername) = Snapshot.userLookups(users)
        if userByUID.count < users.count { reportTwice(users.map(\.uid), in: "users") }
        activity = [UserActivity](repeating: UserActivity(), count: users.count)
    }

    /// A document given more than once (an export file that lists it twice; a folder cannot):
    /// an error, so that no build guesses which to show (one store, one site).
    mutating func reportTwice(_ ids: [String], in collection: String) {
        var seen = Set<ExactText>(minimumCapacity: ids.count)
        var reported = Set<ExactText>()
        for id in ids where !seen.insert(ExactText(id)).inserted && reported.insert(ExactText(id)).inserted {
            diagnostics.append(Self.givenTwice("\(collection)/\(id)"))
        }
    }

    static func givenTwice(_ path: String) -> Diagnostic {
        Diagnostic(.duplicateDocument, path: path, "the store gives \(path) more than once; keep one")
    }

    /// Tweets in feed order: indices sorted, so the comparisons move no strings, then the
    /// tweets moved into place.
    mutating func orderTweets() {
        var feed = found.tweets
        found.tweets = []
        var order = feed.indices.sorted { a, b in
            let ta = feed[a].timestamp
            let tb = feed[b].timestamp
            return ta != tb ? ta > tb : codePointOrder(feed[a].id, feed[b].id)
        }
        feed.rearrange(takingFrom: &order)
        tweets = feed
        tweetByID = Snapshot.tweetLookup(tweets)
        if tweetByID.count < tweets.count { reportTwice(tweets.map(\.id), in: "tweets") }
        relations = [TweetRelations](repeating: TweetRelations(), count: tweets.count)
    }

    /// Authors, parents and replies; each user's tweets and replies.
    mutating func linkTweets() {
        // The look-ups by string first, on all cores.
        let links = [(author: Int?, parent: Int?)](parallelCount: tweets.count, chunk: 512) {
            [tweets, userByUID, tweetByID] i in
            (userByUID[ExactText(tweets[i].authorUID)], tweets[i].replyTo.flatMap { tweetByID[ExactText($0)] })
        }
        // Feed order, so every per-user list and reply list comes out newest first.
        for i in tweets.indices {
            var path: String { "tweets/\(tweets[i].id)" }  // only for diagnostics: computed when needed
            if let author = links[i].author {
                relations[i].author = author
                tweets[i].authorUID = shared(tweets[i].authorUID, users[author].uid)
                if tweets[i].isReply { activity[author].replies.append(i) } else { activity[author].tweets.append(i) }
            } else {
                diagnostics.append(
                    Diagnostic(
                        .tweetByMissingUser, path: path, field: "uid",
                        "author " + absent("users/\(tweets[i].authorUID)")))
            }
            if let parentID = tweets[i].replyTo {
                if let parent = links[i].parent {
                    relations[i].parent = parent
                    tweets[i].replyTo = shared(parentID, tweets[parent].id)
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

    /// Likes: only those of existing users for existing tweets count (SPEC 4). Kept as
    /// indices: the like documents, and their strings, are freed before the sort.
    mutating func countLikes() {
        let decoded = found.likes
        found.likes = []
        let targets = Self.likeTargets(decoded, userByUID, tweetByID)
        var counted: [CountedLike] = []
        counted.reserveCapacity(decoded.count)
        for k in decoded.indices {
            var path: String { "users/\(decoded[k].uid)/user-likes/\(decoded[k].tweetID)" }
            let (user, tweet) = (Int(targets[k].user), Int(targets[k].tweet))
            guard user >= 0 else {
                diagnostics.append(
                    Diagnostic(.likeByMissingUser, path: path, "liker " + absent("users/\(decoded[k].uid)")))
                continue
            }
            guard tweet >= 0 else {
                diagnostics.append(
                    Diagnostic(.likeOfMissingTweet, path: path, "liked " + absent("tweets/\(decoded[k].tweetID)")))
                continue
            }
            counted.append(CountedLike(user: Int32(user), tweet: Int32(tweet), timestamp: decoded[k].timestamp))
            relations[tweet].likers.append(user)
        }
        // Freeing every like's strings is a tenth of deriving: the other core does it meanwhile.
        Heap.release(consume decoded, in: releases)
        for i in relations.indices where relations[i].likers.count > 1 { relations[i].likers.sort() }
        counted.sort { $0.user != $1.user ? $0.user < $1.user : $0.tweet < $1.tweet }
        for k in counted.indices.dropFirst()
        where counted[k].user == counted[k - 1].user && counted[k].tweet == counted[k - 1].tweet
            && (k < 2 || counted[k - 1].user != counted[k - 2].user || counted[k - 1].tweet != counted[k - 2].tweet)
        {
            diagnostics.append(
                Self.givenTwice(
                    "users/\(users[Int(counted[k].user)].uid)/user-likes/\(tweets[Int(counted[k].tweet)].id)"))
        }
        likes = counted
        // Each user's likes are together now: their list, most recent like first.
        var start = 0
        while start < counted.count {
            let user = counted[start].user
            var end = start + 1
            while end < counted.count && counted[end].user == user { end += 1 }
            activity[Int(user)].likes = Snapshot.likeList(counted[start..<end], feed: tweets)
            start = end
        }
    }

    /// Each like's user and tweet by index, -1 where there is none: the look-ups by string,
    /// on all cores. A user's likes are read together (`users/{uid}/user-likes/`), so a like
    /// of the same uid as the one before takes its user without hashing (compared by bytes,
    /// as the dictionary compares them: the same user either way).
    private static func likeTargets(
        _ likes: [Like], _ userByUID: [ExactText: Int], _ tweetByID: [ExactText: Int]
    ) -> [(user: Int32, tweet: Int32)] {
        let chunk = 2048
        let parts = [[(user: Int32, tweet: Int32)]](parallelCount: (likes.count + chunk - 1) / chunk) { c in
            var part: [(user: Int32, tweet: Int32)] = []
            part.reserveCapacity(chunk)
            var last: (uid: String, user: Int32)?
            for k in (c * chunk)..<min(likes.count, (c + 1) * chunk) {
                let user: Int32
                if let last, sameBytes(last.uid, likes[k].uid) {
                    user = last.user
                } else {
                    user = userByUID[ExactText(likes[k].uid)].map { Int32($0) } ?? -1
                    last = (likes[k].uid, user)
                }
                part.append((user, tweetByID[ExactText(likes[k].tweetID)].map { Int32($0) } ?? -1))
            }
            return part
        }
        return Array(parts.joined())
    }

    /// Stored counters against the derived counts.
    mutating func checkStoredCounters() {
        for i in tweets.indices {
            if let problem = Snapshot.counterProblem(of: tweets[i], likes: relations[i].likers.count) {
                diagnostics.append(problem)
            }
        }
    }

    /// Favorites, by name then ID: grouped by `GroupedFavorites.group` on another thread, from
    /// the users' look-up alone; `take` waits for them.
    mutating func startGroupingFavorites() -> GroupedFavorites {
        let grouped = GroupedFavorites()
        let (decoded, userByUID, userCount, unusable) = (found.favorites, userByUID, users.count, unusable)
        found.favorites = []
        DispatchQueue.global(qos: .userInitiated).async(group: grouped.done) {
            grouped.result = GroupedFavorites.group(decoded, userByUID, userCount, unusable)
        }
        return grouped
    }

    /// The favorites `startGroupingFavorites` grouped, with their diagnostics, once they are.
    mutating func take(_ grouped: GroupedFavorites) {
        grouped.done.wait()
        let (byUser, problems) = grouped.result!
        for (i, places) in byUser.enumerated() where !places.isEmpty { activity[i].favorites = places }
        diagnostics += problems
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

/// Favorites grouped by user on another thread (`Derivation.startGroupingFavorites`): the
/// result is written once, by that thread, before `done` is left, and read after waiting on it.
private final class GroupedFavorites: @unchecked Sendable {
    let done = DispatchGroup()
    var result: (byUser: [[FavoritePlace]], diagnostics: [Diagnostic])?

    static func group(
        _ decoded: [FavoritePlace], _ userByUID: [ExactText: Int], _ userCount: Int, _ unusable: Set<String>
    ) -> (byUser: [[FavoritePlace]], diagnostics: [Diagnostic]) {
        var byUser = [[FavoritePlace]](repeating: [], count: userCount)
        var favoritesOfMissing: Set<String> = []
        for place in decoded {
            guard let user = userByUID[ExactText(place.uid)] else {
                favoritesOfMissing.insert(place.uid)
                continue
            }
            byUser[user].append(place)
        }
        var diagnostics: [Diagnostic] = []
        for uid in favoritesOfMissing.sorted(by: codePointOrder) {
            diagnostics.append(
                Diagnostic(
                    .favoritesOfMissingUser, path: "favorites/\(uid)",
                    unusable.contains("users/\(uid)")
                        ? "favorites of users/\(uid), which has errors and is left out"
                        : "favorites of users/\(uid), who does not exist"))
        }
        for i in byUser.indices where byUser[i].count > 1 {
            // Code point order, ties (the same bytes) by ID: a strict order, so the sort does not
            // depend on the order the documents came in. (Two spellings of one name, composed
            // and decomposed, differ in code points: they are not a tie.)
            byUser[i].sort { a, b in
                sameBytes(a.name, b.name) ? codePointOrder(a.id, b.id) : codePointOrder(a.name, b.name)
            }
        }
        return (byUser, diagnostics)
    }
}

/// `string`, or `canonical` when it has the same bytes: then one copy of an ID is in memory
/// for every document naming it instead of one per document (a large store's likes name its
/// tweets millions of times). Strings equal for Swift (canonically equivalent) but with other
/// bytes are kept as they are: they are shown as they were written.
private func shared(_ string: String, _ canonical: String) -> String {
    sameBytes(string, canonical) ? canonical : string
}

extension Snapshot {
    /// A user's liked tweets, from their likes (`CountedLike`): most recent like first (the
    /// like's time, else the tweet's), ties by tweet ID.
    static func likeList(_ likes: ArraySlice<CountedLike>, feed: [Tweet]) -> [Int] {
        let liked = likes.map { like in
            (tweet: Int(like.tweet), time: like.timestamp ?? feed[Int(like.tweet)].timestamp)
        }
        return liked.sorted {
            $0.time != $1.time ? $0.time > $1.time : codePointOrder(feed[$0.tweet].id, feed[$1.tweet].id)
        }.map(\.tweet)
    }

    /// What a tweet's stored counter says against the likes counted: a negative counter, one
    /// that drifted, or nothing.
    static func counterProblem(of tweet: Tweet, likes: Int) -> Diagnostic? {
        guard let stored = tweet.storedLikes else { return nil }
        let path = "tweets/\(tweet.id)"
        if stored < 0 {
            return Diagnostic(.negativeCounter, path: path, field: "likes", "stored likes is \(stored)")
        }
        guard stored != likes else { return nil }
        return Diagnostic(
            .likeCounterDrift, path: path, field: "likes",
            "stored \(stored), counted \(likes) like\(likes == 1 ? "" : "s")")
    }
}
