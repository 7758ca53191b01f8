import Dispatch
import Support

/// Everything about the store that one document's bytes depend on beyond its own random
/// draws: users, tweet ids, times, authors, reply parents, and who liked what.
/// Drawn in one pass on one thread (except the likes, drawn per tweet in parallel with a
/// generator per tweet), so it depends on the arguments only.
struct StorePlan: Sendable {
    struct User: Sendable {
        let uid: [UInt8]
        let username: [UInt8]
        let fullname: String
        let avatarToken: [UInt8]
        let emailDomain: String
        let bio: String?
    }

    static let start = 1_640_995_200  // 2022-01-01T00:00:00Z
    static let span = 2 * 365 * 86400  // to 2023-12-31T23:59:59Z
    static let idLength = 20
    static let uidLength = 28

    let seed: UInt64
    let users: [User]
    /// `profileImageUrl` = `{pictureBase}/{n}.png` for user `n`, when set (without a trailing `/`).
    let pictureBase: String?
    /// Tweets in time order: ids (`idLength` bytes each), seconds, nanoseconds, author, parent or -1.
    let tweetIDs: [UInt8]
    let seconds: [Int]
    let nanoseconds: [Int32]
    let author: [Int32]
    let parent: [Int32]
    /// Likes counted per tweet (distinct users).
    let likeCount: [Int32]
    /// Likes by user: the tweets user `u` liked are `likedTweets[likeStart[u]..<likeStart[u + 1]]`, in time order.
    let likeStart: [Int]
    let likedTweets: [Int32]
    /// Who gets mentioned: a Zipf rank → a user.
    let mentionOrder: [Int32]
    let mentionZipf: Zipf
    let tags: [Token]
    let tagZipf: Zipf

    var userCount: Int { users.count }
    var tweetCount: Int { seconds.count }

    init(users userCount: Int, tweets tweetCount: Int, seed: UInt64, likesPerTweet: Double, pictureBase: String? = nil)
    {
        self.seed = seed
        var base = pictureBase
        while base?.hasSuffix("/") == true { base!.removeLast() }
        self.pictureBase = base
        users = StorePlan.makeUsers(userCount, seed: seed)
        var random = SplitMix64(seed: seed, stream: .structure)

        // Who posts and who is mentioned: Zipf over two random orders of the users.
        var postOrder = (0..<Int32(userCount)).map { $0 }
        random.shuffle(&postOrder)
        var mentionOrder = postOrder
        random.shuffle(&mentionOrder)
        var likerOrder = postOrder
        random.shuffle(&likerOrder)
        self.mentionOrder = mentionOrder
        mentionZipf = Zipf(count: userCount, exponent: 1, offset: 2)
        let postZipf = Zipf(count: userCount, exponent: 1.05, offset: 1)
        (tags, tagZipf) = StorePlan.makeTags(seed: seed)

        // Times first, sorted, so that a reply always points to an earlier tweet.
        var packed = [UInt64](repeating: 0, count: tweetCount)
        for i in 0..<tweetCount {
            packed[i] = UInt64(random.below(StorePlan.span)) << 30 | UInt64(random.below(1_000_000_000))
        }
        packed.sort()
        seconds = packed.map { StorePlan.start + Int($0 >> 30) }
        nanoseconds = packed.map { Int32($0 & (1 << 30 - 1)) }

        // Firestore-style ids, unique (the first ten characters already are).
        var ids = [UInt8]()
        ids.reserveCapacity(tweetCount * StorePlan.idLength)
        var seen = Set<UInt64>(minimumCapacity: tweetCount)
        while ids.count < tweetCount * StorePlan.idLength {
            let (id, key) = StorePlan.identifier(StorePlan.idLength, &random)
            if seen.insert(key).inserted { ids.append(contentsOf: id) }
        }
        tweetIDs = ids

        var author = [Int32](repeating: 0, count: tweetCount)
        var parent = [Int32](repeating: -1, count: tweetCount)
        for i in 0..<tweetCount {
            author[i] = postOrder[postZipf.draw(&random)]
            if i > 0 && random.chance(0.30) {
                parent[i] = Int32(
                    random.chance(0.7)
                        ? max(0, i - 1 - Int(random.exponential(mean: 30)))
                        : random.below(i))
            }
        }
        self.author = author
        self.parent = parent

        let likes = StorePlan.makeLikes(
            seed: seed, tweets: tweetCount, users: userCount,
            likesPerTweet: likesPerTweet, likerOrder: likerOrder)
        likeCount = likes.count
        likeStart = likes.start
        likedTweets = likes.tweets
    }

    func tweetID(_ t: Int) -> ArraySlice<UInt8> {
        tweetIDs[t * StorePlan.idLength..<(t + 1) * StorePlan.idLength]
    }

    /// `length` random letters and digits, and a key made of the first ten (unique key ⇒ unique id).
    static func identifier(_ length: Int, _ random: inout SplitMix64) -> ([UInt8], UInt64) {
        var id = [UInt8](repeating: 0, count: length)
        var key: UInt64 = 0
        for k in 0..<length {
            let d = random.below(62)
            id[k] = Vocabulary.alphanumerics[d]
            if k < 10 { key = key * 62 + UInt64(d) }
        }
        return (id, key)
    }

    private static func makeUsers(_ n: Int, seed: UInt64) -> [User] {
        var random = SplitMix64(seed: seed, stream: .users)
        var users = [User]()
        users.reserveCapacity(n)
        var uids = Set<UInt64>(minimumCapacity: n)
        var names = Set<[UInt8]>(minimumCapacity: n)
        while users.count < n {
            let (uid, key) = identifier(uidLength, &random)
            guard uids.insert(key).inserted else { continue }
            let korean = random.chance(0.3)
            let given = random.pick(Vocabulary.givenNames)
            let family = random.pick(Vocabulary.familyNames)
            var username = ""
            for attempt in 0... {
                switch attempt < 20 ? random.below(5) : 5 {
                case 0: username = given
                case 1: username = given + "_" + family
                case 2: username = String(given.prefix(1)) + family
                case 3: username = given + String(family.prefix(3))
                case 4: username = given + String(random.between(1, 9999))
                default: username = String(given.prefix(7)) + "_" + String(random.between(1, 9_999_999))
                }
                username = String(username.prefix(15))
                if username.utf8.count >= 3 && !names.contains(Array(username.utf8)) { break }
            }
            names.insert(Array(username.utf8))
            let fullname =
                korean
                ? random.pick(Vocabulary.koreanFamily) + random.pick(Vocabulary.koreanGiven)
                : given.capitalizedFirst + " " + family.capitalizedFirst
            var token = [UInt8](repeating: 0, count: 12)
            for k in 0..<12 { token[k] = Vocabulary.alphanumerics[26 + random.below(36)] }
            let domain = random.pick(["example.com", "example.org", "example.net"])
            var bio: String?
            if random.chance(0.10) {
                var text = random.pick(Vocabulary.words).text.capitalizedFirst
                for _ in 0..<random.between(2, 6) { text += " " + random.pick(Vocabulary.words).text }
                text +=
                    ". **" + random.pick(Vocabulary.tagStems) + "** fan, _" + random.pick(Vocabulary.words).text
                    + "_ " + random.pick(Vocabulary.emoji).text
                if random.chance(0.4) { text += " https://" + random.pick(Vocabulary.domains).text + "/~" + username }
                if random.chance(0.3) { text += " #" + random.pick(Vocabulary.tagStems) }
                bio = text
            }
            users.append(
                User(
                    uid: uid, username: Array(username.utf8), fullname: fullname,
                    avatarToken: token, emailDomain: domain, bio: bio))
        }
        return users
    }

    /// 200 tags: the stems (in a random order: the popular ones) then stem+suffix composites.
    private static func makeTags(seed: UInt64) -> ([Token], Zipf) {
        var random = SplitMix64(seed: seed, stream: .tags)
        var head = Vocabulary.tagStems
        random.shuffle(&head)
        var seen = Set(head)
        var tags = head
        while tags.count < 200 {
            let tag =
                random.pick(Vocabulary.tagStems) + (random.chance(0.3) ? "_" : "")
                + random.pick(Vocabulary.tagStems + Vocabulary.tagSuffixes)
            if seen.insert(tag).inserted { tags.append(tag) }
        }
        return (tags.map { Token("#" + $0) }, Zipf(count: tags.count, exponent: 1))
    }

    /// `likesPerTweet` × tweets likes: tweets drawn Zipf-popular (in a random order), then for
    /// each tweet that many distinct users, mostly from a Zipf over active likers.
    private static func makeLikes(
        seed: UInt64, tweets: Int, users: Int, likesPerTweet: Double,
        likerOrder: [Int32]
    ) -> (count: [Int32], start: [Int], tweets: [Int32]) {
        var counts = [Int32](repeating: 0, count: tweets)
        guard tweets > 0 else { return (counts, [Int](repeating: 0, count: users + 1), []) }
        var random = SplitMix64(seed: seed, stream: .popularity)
        var popularity = (0..<Int32(tweets)).map { $0 }
        random.shuffle(&popularity)
        let popularZipf = Zipf(count: tweets, exponent: 1, offset: 10)
        let total = Int((likesPerTweet * Double(tweets)).rounded())
        // Draws per block: one generator each (its own stream index), so the draws do not
        // depend on the number of cores; 65,536 make a block worth a core's turn.
        let block = 1 << 16
        var draws = [Int32](repeating: 0, count: total)
        draws.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out  // unchecked: each block writes only its own range
            DispatchQueue.concurrentPerform(iterations: (total + block - 1) / block) { b in
                var r = SplitMix64(seed: seed, stream: .popularity, index: b + 1)
                for k in (b * block)..<min(total, (b + 1) * block) { out[k] = Int32(popularZipf.draw(&r)) }
            }
        }
        for d in draws { counts[Int(popularity[Int(d)])] += 1 }
        draws = []

        // Likers per tweet, in parallel: tweet t fills likers[offset[t] ..< offset[t] + got[t]].
        let cap = max(1, users * 3 / 4)
        var offset = [Int](repeating: 0, count: tweets + 1)
        for t in 0..<tweets { offset[t + 1] = offset[t] + min(Int(counts[t]), cap) }
        let likerZipf = Zipf(count: users, exponent: 0.8, offset: 5)
        let offsets = offset
        var likers = [Int32](repeating: 0, count: offset[tweets])
        var got = [Int32](repeating: 0, count: tweets)
        let chunk = 4096  // tweets per iteration: many, as most have few likers to draw
        likers.withUnsafeMutableBufferPointer { likersOut in
            got.withUnsafeMutableBufferPointer { gotOut in
                // Unchecked: each chunk writes only its own tweets' ranges.
                nonisolated(unsafe) let likersOut = likersOut
                nonisolated(unsafe) let gotOut = gotOut
                DispatchQueue.concurrentPerform(iterations: (tweets + chunk - 1) / chunk) { c in
                    var chosen = Set<Int32>()
                    for t in (c * chunk)..<min(tweets, (c + 1) * chunk) {
                        let want = offsets[t + 1] - offsets[t]
                        guard want > 0 else { continue }
                        var r = SplitMix64(seed: seed, stream: .likers, index: t)
                        let base = offsets[t]
                        var n = 0
                        var tries = 0
                        chosen.removeAll(keepingCapacity: true)
                        while n < want && tries < want * 20 {
                            tries += 1
                            let u = n < users / 4 ? likerOrder[likerZipf.draw(&r)] : Int32(r.below(users))
                            let fresh: Bool
                            if want <= 32 {
                                fresh = !(base..<(base + n)).contains { likersOut[$0] == u }
                            } else {
                                fresh = chosen.insert(u).inserted
                            }
                            if fresh {
                                likersOut[base + n] = u
                                n += 1
                            }
                        }
                        gotOut[t] = Int32(n)
                    }
                }
            }
        }

        // Group by user (tweets stay in time order within a user).
        var start = [Int](repeating: 0, count: users + 1)
        for t in 0..<tweets {
            for k in offset[t]..<(offset[t] + Int(got[t])) { start[Int(likers[k]) + 1] += 1 }
        }
        for u in 0..<users { start[u + 1] += start[u] }
        var fill = start
        var byUser = [Int32](repeating: 0, count: start[users])
        for t in 0..<tweets {
            for k in offset[t]..<(offset[t] + Int(got[t])) {
                let u = Int(likers[k])
                byUser[fill[u]] = Int32(t)
                fill[u] += 1
            }
        }
        return (got, start, byUser)
    }
}

extension String {
    var capitalizedFirst: String {
        guard let first = first else { return self }
        return first.uppercased() + dropFirst()
    }
}

extension Token {
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
