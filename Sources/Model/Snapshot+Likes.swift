import Support

/// A like document as it now is: there (`like`), or gone (nil).
package struct LikeChange: Sendable {
    package let uid: String
    package let tweetID: String
    package let like: Like?

    package init(uid: String, tweetID: String, like: Like?) {
        self.uid = uid
        self.tweetID = tweetID
        self.like = like
    }

    /// The like's document path, as problems name it.
    var path: String { "users/\(uid)/user-likes/\(tweetID)" }
}

extension Snapshot {
    /// The snapshot with some likes added, removed or changed in place, as deriving it again
    /// would make it: each liked tweet's likers and counter check, each liker's list of likes.
    /// The common edit of a store in use (a like, an unlike) then costs its own lists, not a
    /// derivation (nor, for a snapshot no one else holds, a copy). False, and the snapshot as
    /// it was, when a like's user or tweet is not in the snapshot, or the snapshot has a
    /// problem with that like's document (deriving again tells what it is).
    package mutating func replaceLikes(_ changes: [LikeChange]) -> Bool {
        guard !changes.isEmpty else { return true }
        let paths = Set(changes.map(\.path))
        guard !diagnostics.contains(where: { paths.contains($0.path) }) else { return false }
        var found: [(user: Int, tweet: Int)] = []
        for change in changes {
            guard let u = user(uid: change.uid), let t = tweet(id: change.tweetID) else { return false }
            found.append((u, t))
        }
        var (likers, likes) = (Set<Int>(), Set<Int>())
        for (change, (u, t)) in zip(changes, found) {
            set(like: change.like, user: u, tweet: t)
            likers.insert(u)
            likes.insert(t)
        }
        for u in likers {
            userActivity[u].likes = Self.likeList(countedLikes[likeRange(ofUser: u)], feed: tweets)
        }
        let counters = Set(likes.map { "tweets/" + tweets[$0].id })
        var diagnostics = diagnostics.filter {
            !(counters.contains($0.path) && ($0.kind == .likeCounterDrift || $0.kind == .negativeCounter))
        }
        for t in likes {
            if let problem = Self.counterProblem(of: tweets[t], likes: tweetRelations[t].likers.count) {
                diagnostics.append(problem)
            }
        }
        self.diagnostics = diagnostics.sorted()
        return true
    }

    /// Sets whether `user` likes `tweet` (and when), in `countedLikes` (by user, then tweet)
    /// and the tweet's likers (by user).
    private mutating func set(like: Like?, user: Int, tweet: Int) {
        let (u, t) = (Int32(user), Int32(tweet))
        let i = countedLikes.partitionPoint { $0.user != u ? $0.user > u : $0.tweet >= t }
        let exists = i < countedLikes.count && countedLikes[i].user == u && countedLikes[i].tweet == t
        let j = tweetRelations[tweet].likers.partitionPoint { $0 >= user }
        if let like {
            let counted = CountedLike(user: u, tweet: t, timestamp: like.timestamp)
            if exists {
                countedLikes[i] = counted
            } else {
                countedLikes.insert(counted, at: i)
                tweetRelations[tweet].likers.insert(user, at: j)
            }
        } else if exists {
            countedLikes.remove(at: i)
            tweetRelations[tweet].likers.remove(at: j)
        }
    }

    /// Where `user`'s likes are in `countedLikes`.
    private func likeRange(ofUser user: Int) -> Range<Int> {
        let u = Int32(user)
        return countedLikes.partitionPoint { $0.user >= u }..<countedLikes.partitionPoint { $0.user > u }
    }
}

extension Array {
    /// The first index whose element `isAfter` holds, in an array where it holds from some
    /// index on (a binary search).
    fileprivate func partitionPoint(_ isAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
