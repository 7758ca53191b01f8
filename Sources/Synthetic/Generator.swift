import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `roost generate`: a synthetic directory store (SPEC 2.1, 2.3) of a given size,
/// byte-identical for the same arguments on any machine and any number of cores.
public enum SyntheticStore {
    public struct Options: Sendable {
        public var users: Int
        public var tweets: Int
        public var seed: UInt64
        public var likesPerTweet: Double

        public init(users: Int, tweets: Int, seed: UInt64, likesPerTweet: Double = 3) {
            self.users = users
            self.tweets = tweets
            self.seed = seed
            self.likesPerTweet = likesPerTweet
        }
    }

    /// Writes the store under `directory`, which must be missing or empty unless `force`
    /// (its contents are then deleted first).
    public static func generate(_ options: Options, to directory: String, force: Bool) throws(GenerateError) -> Summary {
        guard options.users >= 1, options.tweets >= 0 else { throw .invalid("need at least one user and zero or more tweets") }
        let began = monotonicSeconds()
        try Destination.prepare(directory, force: force)
        let plan = StorePlan(users: options.users, tweets: options.tweets, seed: options.seed,
                             likesPerTweet: options.likesPerTweet)
        var summary = try StoreWriter(plan: plan, root: directory).write()
        summary.directory = directory
        summary.seed = options.seed
        summary.users = plan.userCount
        summary.tweets = plan.tweetCount
        summary.replies = plan.parent.count { $0 >= 0 }
        summary.likes = plan.likedTweets.count
        summary.maxLikes = Int(plan.likeCount.max() ?? 0)
        var posts = [Int](repeating: 0, count: plan.userCount)
        for a in plan.author { posts[Int(a)] += 1 }
        summary.maxTweetsByUser = posts.max() ?? 0
        summary.seconds = monotonicSeconds() - began
        return summary
    }

    /// What was written, for `roost generate` to print.
    public struct Summary: Sendable, CustomStringConvertible {
        public var directory = ""
        public var seed: UInt64 = 0
        public var users = 0, tweets = 0, replies = 0, tagged = 0, secondsObjects = 0
        public var likes = 0, timestampedLikes = 0, wrongCounters = 0, maxLikes = 0, maxTweetsByUser = 0
        public var places = 0
        public var files = 0, folders = 0, bytes = 0
        public var seconds = 0.0

        public var description: String {
            let mib = (Double(bytes) / 1_048_576 * 10).rounded() / 10
            let time = (seconds * 10).rounded() / 10
            return """
            store \(directory) (seed \(seed)): \(users) users, \(tweets) tweets (\(replies) replies, \
            \(tagged) with #tags, \(secondsObjects) _seconds timestamps), \(likes) likes \
            (\(timestampedLikes) with timestamp), \(wrongCounters) stored like counters wrong, \
            max likes on a tweet \(maxLikes), max tweets by a user \(maxTweetsByUser), \(places) favorite places
            files \(files), folders \(folders), total bytes \(bytes) (\(mib) MiB), \(time) s
            """
        }
    }
}

public enum GenerateError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    case notEmpty(path: String)
    case notADirectory(path: String)
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let message): return message
        case .notEmpty(let path): return "\(path) exists and is not empty (use --force to replace its contents)"
        case .notADirectory(let path): return "\(path) exists and is not a folder"
        case .failed(let path, let reason): return "\(path): \(reason)"
        }
    }
}

func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
