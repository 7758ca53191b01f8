import FirestoreListen

/// The targets a listen plan keeps on the stream (`ListenPlan`): its first queries, and those
/// of the users as they now are, added as users appear and removed as they go once every
/// target is in sync (so that no step shows their documents gone and back).
package struct PlannedTargets: Sendable {
    private let plan: ListenPlan
    /// The target holding the users (the `users` plan), whose documents choose the rest.
    private var usersTarget: Int32?
    /// The targets for the users as they are, by query.
    private var planned: [ListenTarget.Query: Int32] = [:]
    /// Targets no longer planned, to remove once the targets that replace them are in sync.
    private var retiring: [Int32] = []

    /// What a replan asks of the server.
    package struct Requests: Sendable, Equatable {
        package var adding: [ListenTarget] = []
        package var removing: [Int32] = []

        package init(adding: [ListenTarget] = [], removing: [Int32] = []) {
            self.adding = adding
            self.removing = removing
        }
    }

    /// Adds the plan's first queries to `listen`.
    package init(_ plan: ListenPlan, in listen: inout ListenState) {
        self.plan = plan
        for query in plan.initialQueries {
            let target = listen.addTarget(query)
            if query == ListenPlan.usersQuery { usersTarget = target.id }
        }
    }

    /// After a step of `listen`: the targets for the users its users target now holds are
    /// added, and those no longer planned are removed when every target is in sync.
    package mutating func replan(_ listen: inout ListenState) -> Requests {
        guard let usersTarget else { return Requests() }
        let users = ListenPlan.userIDs(in: listen.documents(of: usersTarget).keys)
        let wanted = plan.queries(forUsers: users)
        var requests = Requests()
        for query in wanted where planned[query] == nil {
            // Planned again before it went (a user gone and back while the stream catches up):
            // the target still listening is kept, not doubled by a new one to wait for.
            if let k = retiring.firstIndex(where: { listen.query(of: $0) == query }) {
                planned[query] = retiring.remove(at: k)
                continue
            }
            let target = listen.addTarget(query)
            planned[query] = target.id
            requests.adding.append(target)
        }
        let kept = Set(wanted)
        for (query, id) in planned where !kept.contains(query) {
            planned[query] = nil
            retiring.append(id)
        }
        if listen.isCurrent {
            for id in retiring.sorted() {
                listen.removeTarget(id)
                requests.removing.append(id)
            }
            retiring = []
        }
        return requests
    }

    /// Target `old` is listened to again as `new` (`ListenState.relisten`).
    package mutating func relistened(_ old: Int32, as new: Int32) {
        for (query, id) in planned where id == old { planned[query] = new }
        retiring = retiring.map { $0 == old ? new : $0 }
        if usersTarget == old { usersTarget = new }
    }
}
