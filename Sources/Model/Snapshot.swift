import Dispatch
import Markdown
import Store
import Support

/// The app's data at one moment, with everything the pages need derived from it:
/// counts, replies, each user's lists in page order (SPEC 3, 4), hashtags, handles.
///
/// Users and tweets are addressed by their index in `users` and `tweets`;
/// `tweets` is in feed order (newest first, ties by ID).
package struct Snapshot: Sendable {
    /// By uid, in code point order.
    package let users: [User]
    /// Newest first, ties by ID.
    package internal(set) var tweets: [Tweet]
    /// Like documents of existing users for existing tweets, by user (uid order), then tweet
    /// (feed order). Made on demand from `countedLikes`: a million tweets' three million likes
    /// as strings took 450 MB.
    package var likes: [Like] {
        countedLikes.map {
            Like(uid: users[Int($0.user)].uid, tweetID: tweets[Int($0.tweet)].id, timestamp: $0.timestamp)
        }
    }
    /// How many likes count (`likes.count`).
    package var likeCount: Int { countedLikes.count }
    /// `likes`, by index.
    var countedLikes: [CountedLike]
    /// Per tweet (same index as `tweets`).
    package internal(set) var tweetRelations: [TweetRelations]
    /// Per user (same index as `users`).
    package internal(set) var userActivity: [UserActivity]
    /// Every hashtag (lowercased) with its tweets, newest first; tags in code point order.
    package let tags: [HashtagIndex]
    /// Every problem found, sorted by severity, kind and path.
    package internal(set) var diagnostics: [Diagnostic]

    /// By the uid's bytes (`ExactText`): an ID in another Unicode form is another user.
    let userByUID: [ExactText: Int]
    let userByHandle: [String: Int]
    let tweetByID: TweetLookup
    let tagByName: [String: Int]
    /// Exact username → user, for mentions.
    let userByUsername: [String: Int]
    /// Lowercased username → user, only where no other user shares it.
    let userByFoldedUsername: [String: Int]

    package func user(uid: String) -> Int? { userByUID[ExactText(uid)] }
    package func user(handle: String) -> Int? { userByHandle[handle] }
    package func tweet(id: String) -> Int? { tweetByID.index(of: id, in: tweets) }
    /// The index in `tags` of a lowercased hashtag.
    package func tag(named tag: String) -> Int? { tagByName[tag] }

    /// The user an `@name` in a caption means: the exact username, else the one
    /// username equal to it ignoring case; nil when none (or several) match.
    package func user(mentioned name: String) -> Int? {
        userByUsername[name] ?? userByFoldedUsername[name.lowercased()]
    }

    package func likeCount(ofTweet index: Int) -> Int { tweetRelations[index].likers.count }

    package var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    package var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// What links to and from one tweet.
package struct TweetRelations: Sendable, Equatable {
    /// nil when the author has no user document (a placeholder author is shown).
    package internal(set) var author: Int?
    /// The tweet this one replies to, when it exists.
    package internal(set) var parent: Int?
    /// Replies, oldest first (a conversation reads down).
    package internal(set) var replies: [Int] = []
    /// Users who liked it, in uid order; the like count is its size.
    package internal(set) var likers: [Int] = []
}

/// One user's lists, in page order.
package struct UserActivity: Sendable, Equatable {
    /// Tweets that are not replies, newest first.
    package internal(set) var tweets: [Int] = []
    /// Replies, newest first.
    package internal(set) var replies: [Int] = []
    /// Liked tweets, most recent like first (like timestamp, else tweet timestamp; ties by tweet ID).
    package internal(set) var likes: [Int] = []
    /// Favorite places by name in code point order, ties by ID.
    package internal(set) var favorites: [FavoritePlace] = []
}

package struct HashtagIndex: Sendable, Equatable {
    /// Lowercased, without `#`.
    package let tag: String
    /// Newest first.
    package let tweets: [Int]
}

/// A like of an existing user for an existing tweet, by index.
struct CountedLike: Sendable {
    let user: Int32
    let tweet: Int32
    let timestamp: Timestamp?
}
