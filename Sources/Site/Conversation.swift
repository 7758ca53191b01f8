import Model

/// A tweet in its whole conversation (SPEC 7): its ancestors from the root down, then the
/// replies below it as a tree, depth first, each level oldest first (ties by ID).
///
/// A page shows at most `maxAncestors` ancestors (the root, then the nearest ones) and
/// `maxReplies` replies: without a bound, a chain of n replies would put n² cards in the site
/// (a 2,000-reply chain wrote 4.7 GB). What is left out is counted, and each tweet's own page
/// shows its part. For the same reason the walk up stops after `maxWalk` ancestors: past
/// that, the farthest one reached stands where the root would; and the replies left out are
/// counted up to `maxWalk`, past which the page says "more than" that.
struct Conversation: Equatable {
    static let maxAncestors = 24
    static let maxReplies = 100
    static let maxWalk = 10_000

    /// The tweet the page is about.
    let current: Int
    /// From the root (or the first ancestor after a gap) down to the parent.
    let ancestors: [Int]
    /// Ancestors left out between `ancestors[0]` (the root) and the rest.
    let hiddenAncestors: Int
    /// An ancestor is missing, or the replies go round in a cycle: a placeholder above `ancestors`.
    let isCutShort: Bool
    /// The replies below `current`, depth first; depth 1 is a direct reply.
    let replies: [(tweet: Int, depth: Int)]
    /// How many replies below `current` are left out (past the first `maxReplies`), counted
    /// up to `maxWalk`.
    let hiddenReplies: Int
    /// There are more than `hiddenReplies` left out: the count stopped at `maxWalk`.
    let hiddenRepliesOverCount: Bool

    var hasMoreReplies: Bool { hiddenReplies > 0 }

    static func == (a: Conversation, b: Conversation) -> Bool {
        a.current == b.current && a.ancestors == b.ancestors && a.hiddenAncestors == b.hiddenAncestors
            && a.isCutShort == b.isCutShort && a.hiddenReplies == b.hiddenReplies
            && a.hiddenRepliesOverCount == b.hiddenRepliesOverCount
            && a.replies.elementsEqual(b.replies) { $0 == $1 }
    }

    /// Every tweet the conversation shows, in page order.
    var tweets: [Int] { ancestors + [current] + replies.map(\.tweet) }

    // (Borrowed: an initializer's argument is owned, and a copy retained each of its lists per page.)
    init(of current: Int, in snapshot: borrowing Snapshot) {
        self.current = current
        // Most tweets are neither replies nor replied to: nothing to walk (every tweet page's
        // fingerprint makes its conversation on every build).
        if !snapshot.tweets[current].isReply, snapshot.tweetRelations[current].replies.isEmpty {
            (ancestors, hiddenAncestors, isCutShort, replies) = ([], 0, false, [])
            (hiddenReplies, hiddenRepliesOverCount) = (0, false)
            return
        }
        // Up: parents until the root, a missing parent, or a tweet seen already (a cycle).
        var seen: Set<Int> = [current]
        var up: [Int] = []
        var cut = false
        var t = current
        while snapshot.tweets[t].isReply, up.count < Self.maxWalk {
            guard let parent = snapshot.tweetRelations[t].parent, seen.insert(parent).inserted else {
                cut = true
                break
            }
            up.append(parent)
            t = parent
        }
        // `up` is nearest first: keep the root (its last) and the nearest ones.
        if up.count > Self.maxAncestors {
            hiddenAncestors = up.count - Self.maxAncestors
            ancestors = [up.last!] + up.prefix(Self.maxAncestors - 1).reversed()
        } else {
            hiddenAncestors = 0
            ancestors = up.reversed()
        }
        isCutShort = cut
        // Down: an explicit stack, so a deep chain cannot overflow the call stack; a tweet
        // shown already (a cycle) is not shown twice. Past `maxReplies`, the rest is counted.
        var replies: [(tweet: Int, depth: Int)] = []
        var (hidden, overCount) = (0, false)
        var stack: [(tweet: Int, depth: Int)] = snapshot.tweetRelations[current].replies.reversed().map { ($0, 1) }
        while let (tweet, depth) = stack.popLast() {
            guard seen.insert(tweet).inserted else { continue }
            if replies.count < Self.maxReplies {
                replies.append((tweet, depth))
            } else {
                guard hidden < Self.maxWalk else {
                    overCount = true
                    break
                }
                hidden += 1
            }
            stack += snapshot.tweetRelations[tweet].replies.reversed().map { ($0, depth + 1) }
        }
        self.replies = replies
        (hiddenReplies, hiddenRepliesOverCount) = (hidden, overCount)
    }

    /// The topmost ancestor left out (the root's reply on the way down), when some are.
    func firstHiddenAncestor(in snapshot: Snapshot) -> Int? {
        guard hiddenAncestors > 0, ancestors.count > 1 else { return nil }
        var t = ancestors[1]
        for _ in 0..<hiddenAncestors { t = snapshot.tweetRelations[t].parent! }
        return t
    }
}
