import Model

/// A tweet in its whole conversation (SPEC 7): its ancestors from the root down, then the
/// replies below it as a tree, depth first, each level oldest first (ties by ID).
struct Conversation: Equatable {
    /// The tweet the page is about.
    let current: Int
    /// From the root (or the first ancestor after a gap) down to the parent.
    let ancestors: [Int]
    /// An ancestor is missing, or the replies go round in a cycle: a placeholder above `ancestors`.
    let isCutShort: Bool
    /// Every reply below `current`, depth first; depth 1 is a direct reply.
    let replies: [(tweet: Int, depth: Int)]

    static func == (a: Conversation, b: Conversation) -> Bool {
        a.current == b.current && a.ancestors == b.ancestors && a.isCutShort == b.isCutShort
            && a.replies.elementsEqual(b.replies) { $0 == $1 }
    }

    /// Every tweet the conversation shows, in page order.
    var tweets: [Int] { ancestors + [current] + replies.map(\.tweet) }

    init(of current: Int, in snapshot: Snapshot) {
        self.current = current
        // Up: parents until the root, a missing parent, or a tweet seen already (a cycle).
        var seen: Set<Int> = [current]
        var ancestors: [Int] = []
        var cut = false
        var t = current
        while snapshot.tweets[t].isReply {
            guard let parent = snapshot.tweetRelations[t].parent, seen.insert(parent).inserted else {
                cut = true
                break
            }
            ancestors.append(parent)
            t = parent
        }
        self.ancestors = ancestors.reversed()
        isCutShort = cut
        // Down: an explicit stack, so a deep chain cannot overflow the call stack; a tweet
        // shown already (a cycle) is not shown twice.
        var replies: [(tweet: Int, depth: Int)] = []
        var stack: [(tweet: Int, depth: Int)] = snapshot.tweetRelations[current].replies.reversed().map { ($0, 1) }
        while let (tweet, depth) = stack.popLast() {
            guard seen.insert(tweet).inserted else { continue }
            replies.append((tweet, depth))
            stack += snapshot.tweetRelations[tweet].replies.reversed().map { ($0, depth + 1) }
        }
        self.replies = replies
    }
}
