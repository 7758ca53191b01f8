import Firestore
import FirestoreListen
import Store
import Testing

/// The `users` plan's targets as the stream's steps come: added as users appear, removed once
/// every target is in sync after they went, and kept when a user is back before that.
@Suite struct PlannedTargetsTests {
    static let likes = ListenTarget.Query.collection(parent: "users/u1", id: "user-likes")
    static let favorites = ListenTarget.Query.collection(parent: "favorites/u1", id: "favorites")

    func user(_ uid: String, at seconds: Int64) -> ListenResponse {
        let document = Document(
            path: DocumentPath(string: "users/" + uid)!, fields: Fields([("username", .string(uid))]),
            source: "firestore://demo")
        return .documentChange(
            ListenDocument(document: document, updateTime: Timestamp(seconds: seconds)), targetIDs: [1],
            removedTargetIDs: [])
    }

    func target(_ kind: TargetChange.Kind, _ ids: [Int32] = [], at seconds: Int64? = nil) -> ListenResponse {
        .targetChange(TargetChange(kind: kind, targetIDs: ids, readTime: seconds.map { Timestamp(seconds: $0) }))
    }

    /// Feeds `responses` to `listen`, then replans after each step; returns what the replans asked.
    func feed(
        _ responses: [ListenResponse], _ listen: inout ListenState, _ planned: inout PlannedTargets
    ) -> PlannedTargets.Requests {
        var asked = PlannedTargets.Requests()
        for response in responses {
            guard case .step? = listen.receive(response) else { continue }
            let requests = planned.replan(&listen)
            asked.adding += requests.adding
            asked.removing += requests.removing
        }
        return asked
    }

    /// Users (target 1) and tweets (2) in sync, user u1 among the users, and u1's targets (3, 4)
    /// in sync too.
    func followingU1() -> (ListenState, PlannedTargets) {
        var listen = ListenState()
        var planned = PlannedTargets(.users, in: &listen)
        let first = feed([user("u1", at: 1), target(.current, [1, 2]), target(.noChange, at: 1)], &listen, &planned)
        #expect(first.adding.map(\.id) == [3, 4])
        #expect(first.adding.map(\.query) == [Self.likes, Self.favorites])
        let synced = feed([target(.current, [3, 4]), target(.noChange, at: 2)], &listen, &planned)
        #expect(synced == PlannedTargets.Requests())
        #expect(listen.isCurrent)
        return (listen, planned)
    }

    @Test func aUserGoneHasTheirTargetsRemovedOnceAllAreInSync() {
        var (listen, planned) = followingU1()
        let gone = feed([target(.reset, [1]), target(.current, [1]), target(.noChange, at: 3)], &listen, &planned)
        #expect(gone.removing == [3, 4] && gone.adding.isEmpty)
        #expect(listen.listenTargets.map(\.id) == [1, 2])
    }

    /// Reconnected to an emulator started again: the users target comes back in sync empty
    /// before the others, then the app writes u1 again. Its targets, still listening, are kept:
    /// new ones for the same queries would be more for the stream to wait for before it is
    /// caught up.
    @Test func aUserBackBeforeTheStreamIsCaughtUpKeepsTheirTargets() {
        var (listen, planned) = followingU1()
        listen.reconnecting()
        let empty = feed([target(.current, [1]), target(.noChange, at: 3)], &listen, &planned)
        #expect(empty == PlannedTargets.Requests(), "not removed while targets 2, 3 and 4 are catching up")
        let back = feed([user("u1", at: 4), target(.current, [1]), target(.noChange, at: 4)], &listen, &planned)
        #expect(back == PlannedTargets.Requests(), "\(back)")
        let caughtUp = feed([target(.current, [2, 3, 4]), target(.noChange, at: 5)], &listen, &planned)
        #expect(caughtUp == PlannedTargets.Requests())
        #expect(listen.isCurrent)
        #expect(listen.listenTargets.map(\.id) == [1, 2, 3, 4])
    }

    @Test func aTargetListenedToAgainIsStillPlanned() throws {
        var (listen, planned) = followingU1()
        let relistened = listen.relisten(3)
        let again = try #require(relistened)
        planned.relistened(3, as: again.id)
        _ = feed([target(.current, [again.id]), target(.noChange, at: 3)], &listen, &planned)
        let gone = feed([target(.reset, [1]), target(.current, [1]), target(.noChange, at: 4)], &listen, &planned)
        #expect(gone.removing.sorted() == [4, again.id])
    }
}
