import FirestoreListen
import Store

/// Which queries the listen stream follows: together they hold every document that can change
/// a page (SPEC 2.3: users, their tweets, likes and favorite places).
package enum ListenPlan: String, Sendable, CaseIterable {
    /// The four collection groups, four targets. Google's servers send only what changed, so
    /// this is the plan for production.
    case groups
    /// The `users` and `tweets` collections, and each user's likes and favorites (up to
    /// `mostUsersFollowedOneByOne` users; past it, likes and favorites as groups). The emulator
    /// answers every change by resending the touched targets whole: per-user targets keep a
    /// like's resend to that user's likes. Tweets stay one target: the emulator evaluates
    /// every filtered query again on each write to its collection (a range or `uid ==` target
    /// per author made the app's own writes take seconds at 2,000 tweets), and one target also
    /// holds the tweets by uids no user has (SPEC 6: those still appear). Likes and favorites
    /// under a uid that is no user's change no page (SPEC 4); they are followed from when that
    /// user appears.
    case users

    /// The environment variable that chooses the plan (`groups`, `users`) over the default.
    package static let variable = "ROOST_LISTEN_PLAN"

    /// The plan for `endpoint`: per user on the emulator, groups on Google's servers.
    package static func `default`(for endpoint: FirestoreEndpoint) -> ListenPlan {
        endpoint.isEmulator ? .users : .groups
    }

    /// The targets to listen to before anything is known.
    package var initialQueries: [ListenTarget.Query] {
        switch self {
        case .groups: FirestoreSource.groups.map { .collectionGroup(id: $0) }
        case .users: [Self.usersQuery, Self.tweetsQuery]
        }
    }

    /// Up to this many users, each has targets of their own; past it, likes and favorites are
    /// followed as collection groups (as in `groups`).
    package static let mostUsersFollowedOneByOne = 250

    /// The `users` collection (top level: the only users that are users, SPEC 2.1).
    static let usersQuery = ListenTarget.Query.collection(parent: "", id: "users")

    /// The `tweets` collection, whole.
    static let tweetsQuery = ListenTarget.Query.collection(parent: "", id: "tweets")

    /// The targets besides `initialQueries` while the users are `users` (none for the
    /// groups plan).
    package func queries(forUsers users: Set<String>) -> [ListenTarget.Query] {
        switch self {
        case .groups:
            return []
        case .users:
            // The emulator runs each new target's query over the whole database: past a few
            // hundred users, per-user targets would take it minutes to start.
            guard users.count <= Self.mostUsersFollowedOneByOne else {
                return [.collectionGroup(id: "user-likes"), .collectionGroup(id: "favorites")]
            }
            var queries: [ListenTarget.Query] = []
            for uid in users.sorted() {
                queries.append(.collection(parent: "users/" + uid, id: "user-likes"))
                queries.append(.collection(parent: "favorites/" + uid, id: "favorites"))
            }
            return queries
        }
    }

    /// The users that have targets of their own: the IDs of the documents the `users` target holds.
    static func userIDs(in documents: some Sequence<DocumentPath>) -> Set<String> {
        Set(documents.lazy.filter { $0.segments.count == 2 && $0.segments[0] == "users" }.map { $0.segments[1] })
    }
}
