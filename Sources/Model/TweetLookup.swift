import Support
import Synchronization

/// Tweets by ID. Deriving makes the table (it links replies by it). A snapshot decoded from the
/// build cache makes it only once it is asked often: a rebuild that replaces a caption or a
/// like looks up a tweet or two, which a scan of the IDs finds in a fraction of the time the
/// table of every tweet takes to make, and that making was the last part of decoding the
/// snapshot, waited for by the rest of the build.
final class TweetLookup: @unchecked Sendable {  // `table` is written once, before `isMade` is set
    private var table: [ExactText: Int] = [:]
    private let isMade = Atomic<Bool>(false)
    /// Look-ups answered by a scan so far (the table is made at `scansBeforeTable`).
    private let scans = Mutex(0)

    /// Scans answered before the table is made.
    private static let scansBeforeTable = 8

    /// The table, made already.
    init(table: [ExactText: Int]) {
        self.table = table
        isMade.store(true, ordering: .releasing)
    }

    /// Made when asked often (from the tweets asked with).
    init() {}

    /// The index of the tweet `id` in `tweets` (the tweets it was made for, or a copy with the
    /// same IDs in the same places: replacing a tweet's content keeps its ID), as the table
    /// has it: the last tweet with that ID.
    func index(of id: String, in tweets: [Tweet]) -> Int? {
        if isMade.load(ordering: .acquiring) { return table[ExactText(id)] }
        return scans.withLock { count in
            if !isMade.load(ordering: .relaxed) {
                if count < Self.scansBeforeTable {
                    count += 1
                    return tweets.lastIndex { sameBytes($0.id, id) }
                }
                table = Snapshot.tweetLookup(tweets)
                isMade.store(true, ordering: .releasing)
            }
            return table[ExactText(id)]
        }
    }
}
