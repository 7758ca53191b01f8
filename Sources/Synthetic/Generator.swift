import Dispatch
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `roost generate`: a synthetic directory store (SPEC 2.1, 2.3) of a given size,
/// byte-identical for the same arguments on any machine and any number of cores.
package enum SyntheticStore {
    package struct Options: Sendable {
        package var users: Int
        package var tweets: Int
        package var seed: UInt64
        package var likesPerTweet: Double
        /// When set (`roost generate --picture-base URL`), user `n` (from 0, in the order users
        /// are drawn) has `profileImageUrl` = `{pictureBase}/{n}.png` instead of a Firebase
        /// Storage URL, so a benchmark can mirror the pictures from a local server. Nothing
        /// else changes, and nil gives the same bytes as before the option existed.
        package var pictureBase: String?

        /// Likes per tweet on average, when not said.
        package static let defaultLikesPerTweet: Double = 3

        package init(
            users: Int, tweets: Int, seed: UInt64, likesPerTweet: Double = defaultLikesPerTweet,
            pictureBase: String? = nil
        ) {
            self.users = users
            self.tweets = tweets
            self.seed = seed
            self.likesPerTweet = likesPerTweet
            self.pictureBase = pictureBase
        }
    }

    /// Writes the store to `destination`. A path ending in `.json` gets one file in the
    /// node-firestore-import-export format (SPEC 2.2) holding the same documents: its folder
    /// must exist, and an existing file is replaced only when `force`. Any other path is a
    /// directory store (SPEC 2.1): the folder must be missing or empty unless `force` (its
    /// contents are then deleted first).
    package static func generate(_ options: Options, to destination: String, force: Bool) throws(GenerateError)
        -> Summary
    {
        guard options.users >= 1, options.tweets >= 0 else {
            throw .invalid("need at least one user and zero or more tweets")
        }
        let began = monotonicSeconds()
        let singleFile = isSingleFile(destination)
        if singleFile {
            try SingleFileWriter.check(destination, force: force)
        } else {
            try Destination.prepare(destination, force: force)
        }
        let plan = StorePlan(
            users: options.users, tweets: options.tweets, seed: options.seed,
            likesPerTweet: options.likesPerTweet, pictureBase: options.pictureBase)
        var summary =
            singleFile
            ? try SingleFileWriter(plan: plan, target: destination, force: force).write()
            : try StoreWriter(plan: plan, root: destination).write()
        summary.directory = destination
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

    /// Whether `generate` writes `destination` as one file: its name ends in `.json`.
    package static func isSingleFile(_ destination: String) -> Bool {
        destination.hasSuffix(".json")
    }

    /// What was written, for `roost generate` to print.
    package struct Summary: Sendable, CustomStringConvertible {
        /// The folder or file written.
        package var directory = ""
        /// True for one node-firestore-import-export file.
        package var singleFile = false
        package var seed: UInt64 = 0
        package var users = 0, tweets = 0, replies = 0, tagged = 0, secondsObjects = 0
        package var likes = 0, timestampedLikes = 0, wrongCounters = 0, maxLikes = 0, maxTweetsByUser = 0
        package var places = 0
        package var files = 0, folders = 0, bytes = 0
        /// Documents written (in a directory store, one per file).
        package var documents = 0
        package var seconds = 0.0

        package var description: String {
            let mib = (Double(bytes) / 1_048_576 * 10).rounded() / 10
            let time = (seconds * 10).rounded() / 10
            let what =
                singleFile
                ? "single file (node-firestore-import-export, \(documents) documents): files 1"
                : "files \(files), folders \(folders)"
            return """
                store \(directory) (seed \(seed)): \(users) users, \(tweets) tweets (\(replies) replies, \
                \(tagged) with #tags, \(secondsObjects) _seconds timestamps), \(likes) likes \
                (\(timestampedLikes) with timestamp), \(wrongCounters) stored like counters wrong, \
                max likes on a tweet \(maxLikes), max tweets by a user \(maxTweetsByUser), \(places) favorite places
                \(what), total bytes \(bytes) (\(mib) MiB), \(time) s
                """
        }
    }
}

package enum GenerateError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    /// The folder is not empty and replacing its contents was not asked for (`force`).
    case notEmpty(path: String)
    case notADirectory(path: String)
    /// The single file to write (a path ending in `.json`) exists and replacing it was not
    /// asked for (`force`).
    case fileExists(path: String)
    /// The single file to write names an existing folder.
    case isADirectory(path: String)
    /// The folder the single file would go in does not exist.
    case noParentFolder(path: String, folder: String)
    case failed(path: String, reason: String)

    package var description: String {
        switch self {
        case .invalid(let message): return message
        case .notEmpty(let path): return "\(path) exists and is not empty"
        case .notADirectory(let path): return "\(path) exists and is not a folder"
        case .fileExists(let path): return "\(path) exists"
        case .isADirectory(let path):
            return "\(path) is a folder; a destination ending in .json names the single file to write"
        case .noParentFolder(let path, let folder):
            return "cannot write \(path): the folder \(folder) does not exist (or is not a folder)"
        case .failed(let path, let reason): return "\(path): \(reason)"
        }
    }
}

func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
