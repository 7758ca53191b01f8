import Firestore
import FirestoreListen
import Testing

/// What each listen plan follows: every document that can change a page, in targets the
/// emulator can keep up with.
@Suite struct ListenPlanTests {
    @Test func groupsAreTheFourCollectionGroups() {
        #expect(
            ListenPlan.groups.initialQueries
                == ["users", "user-likes", "tweets", "favorites"].map {
                    .collectionGroup(id: $0)
                })
        #expect(ListenPlan.groups.queries(forUsers: ["u1", "u2"]).isEmpty)
    }

    @Test func theEmulatorsPlanFollowsEachUsersLikesAndFavorites() {
        #expect(
            ListenPlan.users.initialQueries == [
                .collection(parent: "", id: "users"), .collection(parent: "", id: "tweets"),
            ])
        #expect(
            ListenPlan.users.queries(forUsers: ["u2", "u1"]) == [
                .collection(parent: "users/u1", id: "user-likes"), .collection(parent: "favorites/u1", id: "favorites"),
                .collection(parent: "users/u2", id: "user-likes"), .collection(parent: "favorites/u2", id: "favorites"),
            ])
        #expect(ListenPlan.users.queries(forUsers: []).isEmpty)
    }

    @Test func pastTheLimitLikesAndFavoritesAreGroups() {
        let limit = ListenPlan.mostUsersFollowedOneByOne
        let many = Set((0...limit).map { "u\($0)" })
        #expect(
            ListenPlan.users.queries(forUsers: many) == [
                .collectionGroup(id: "user-likes"), .collectionGroup(id: "favorites"),
            ])
        #expect(ListenPlan.users.queries(forUsers: Set(many.sorted().dropLast())).count == 2 * limit)
    }
}
