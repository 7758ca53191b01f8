import FirestoreListen
import Store

/// Which queries the listen stream follows: together they hold every document that can change
/// a page (SPEC 2.3: users, their tweets, likes and favorite places).
package enum ListenPlan: String, Sendable, CaseIterable {
    /// The four collection groups, four targets. Google's servers send only what changed, so
    /// this is the plan for production.
    case groups
    /// The `users` collection; for each user their likes and their favorites; and `tweets`
    /// split by `uid` into ranges that start at each user's ID, so that every tweet is in
    /// one small target: its author's, with the tweets by unknown uids that sort between
    /// (SPEC 6: those still appear). The emulator answers every change by resending the
    /// touched targets whole: small targets keep that to about one user's documents. Likes
    /// and favorites under a uid that is no user's change no page (SPEC 4); they are followed
    /// from when that user appears.
    case users

    /// The plan for `endpoint`: per user on the emulator, groups on Google's servers.
    package static func `default`(for endpoint: FirestoreEndpoint) -> ListenPlan {
        endpoint.isEmulator ? .users : .groups
    }

    /// The targets to listen to before anything is known.
    var initialQueries: [ListenTarget.Query] {
        switch self {
        case .groups: FirestoreSource.groups.map { .collectionGroup(id: $0) }
        case .users: [Self.usersQuery]
        }
    }

    /// The `users` collection (top level: the only users that are users, SPEC 2.1).
    static let usersQuery = ListenTarget.Query.collection(parent: "", id: "users")

    /// The targets besides `initialQueries` while the users are `users` (none for the
    /// groups plan).
    func queries(forUsers users: Set<String>) -> [ListenTarget.Query] {
        switch self {
        case .groups:
            return []
        case .users:
            // The server's order: strings compare by their UTF-8 bytes.
            let sorted = users.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var queries: [ListenTarget.Query] = []
            for uid in sorted {
                queries.append(.collection(parent: "users/" + uid, id: "user-likes"))
                queries.append(.collection(parent: "favorites/" + uid, id: "favorites"))
            }
            let starts = [""] + sorted.filter { !$0.isEmpty }
            for (index, from) in starts.enumerated() {
                let before = index + 1 < starts.count ? starts[index + 1] : nil
                queries.append(.fieldRange(parent: "", id: "tweets", field: "uid", from: from, before: before))
            }
            return queries
        }
    }

    /// The users that have targets of their own: the IDs of the documents the `users` target holds.
    static func userIDs(in documents: some Sequence<DocumentPath>) -> Set<String> {
        Set(documents.lazy.filter { $0.segments.count == 2 && $0.segments[0] == "users" }.map { $0.segments[1] })
    }
}
