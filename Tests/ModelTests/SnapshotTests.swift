import Model
import Store
import TestSupport
import Testing

@Suite("Snapshot: derived lists and counts")
struct SnapshotTests {
    let snapshot = Snapshot(documents: [
        user("alice", "Alice", fullname: "Alice Kim"),
        user("bob", "bob"),
        user("carol", "carol"),
        tweet("t1", by: "alice", at: "2023-01-01T10:00:00Z", likes: 2),
        tweet("t2", by: "bob", at: "2023-01-02T10:00:00Z", "@Alice agreed", replyTo: "t1", likes: 5),
        tweet("t3", by: "alice", at: "2023-01-03T10:00:00Z", "@bob thanks", replyTo: "t2"),
        tweet("t4", by: "alice", at: "2023-01-03T10:00:00Z"),  // same time as t3: ID breaks the tie
        tweet("t0", by: "bob", at: "2022-12-31T00:00:00+09:00"),
        like("bob", "t1", at: "2023-02-01T00:00:00Z"),
        like("carol", "t1"),
        like("bob", "t4", at: "2023-01-04T00:00:00Z"),
        like("bob", "t0"),
        like("bob", "gone"),
        like("nobody", "t1"),
    ])

    @Test func feedIsNewestFirstWithTiesByID() {
        #expect(snapshot.ids(Array(snapshot.tweets.indices)) == ["t3", "t4", "t2", "t1", "t0"])
    }

    @Test func likeCountsComeFromLikeDocumentsOfExistingUsers() {
        #expect(snapshot.likeCount(ofTweet: snapshot.tweet(id: "t1")!) == 2)
        #expect(snapshot.likeCount(ofTweet: snapshot.tweet(id: "t2")!) == 0)
        #expect(snapshot.relations("t1").likers.map { snapshot.users[$0].uid } == ["bob", "carol"])
    }

    @Test func repliesAndParents() {
        #expect(snapshot.ids(snapshot.relations("t1").replies) == ["t2"])
        #expect(snapshot.relations("t3").parent == snapshot.tweet(id: "t2"))
        #expect(snapshot.relations("t1").parent == nil)
    }

    @Test func userListsInPageOrder() {
        let alice = snapshot.activity("alice")
        #expect(snapshot.ids(alice.tweets) == ["t4", "t1"])
        #expect(snapshot.ids(alice.replies) == ["t3"])
        #expect(alice.likes.isEmpty)
        // Like time when recorded, else the tweet's time: t1 (liked Feb 1), t4 (liked Jan 4), t0 (tweeted Dec 30).
        #expect(snapshot.ids(snapshot.activity("bob").likes) == ["t1", "t4", "t0"])
        #expect(snapshot.ids(snapshot.activity("bob").replies) == ["t2"])
    }

    @Test func danglingReferencesAreWarningsWithPaths() {
        let warnings = snapshot.warnings.map(\.description)
        #expect(warnings.contains("users/bob/user-likes/gone: liked tweets/gone does not exist"))
        #expect(warnings.contains("users/nobody/user-likes/t1: liker users/nobody does not exist"))
        #expect(snapshot.errors.isEmpty)
    }

    @Test func counterDriftIsANoticeWithBothNumbers() {
        let drift = snapshot.diagnostics.filter { $0.kind == .likeCounterDrift }.map(\.description)
        #expect(drift == ["tweets/t2: field 'likes': stored 5, counted 0 likes"])
    }

    @Test func mentionsResolveByUsername() {
        #expect(snapshot.user(mentioned: "Alice") == snapshot.user(uid: "alice"))
        #expect(snapshot.user(mentioned: "alice") == snapshot.user(uid: "alice"))
        #expect(snapshot.user(mentioned: "dave") == nil)
    }
}

@Suite("Snapshot: handles")
struct HandleTests {
    @Test func safeUniqueUsernamesAreLowercased() {
        let s = Snapshot(documents: [user("u1", "Mina_K"), user("u2", "joon")])
        #expect(s.users.map(\.handle) == ["mina_k", "joon"])
        #expect(s.user(handle: "mina_k") == 0)
    }

    @Test func clashingOrUnsafeUsernamesGetUIDHandles() {
        let s = Snapshot(documents: [
            user("a1", "Mina"), user("a2", "mina"), user("a3", "민아"), user("a4", "dot.name"),
            user("a5", String(repeating: "x", count: 31)), doc("users/weird id", [("username", .string("x y"))]),
        ])
        #expect(s.users.map(\.handle).prefix(5) == ["u-a1", "u-a2", "u-a3", "u-a4", "u-a5"])
        let weird = s.users[s.user(uid: "weird id")!].handle
        #expect(weird.hasPrefix("u-") && weird.count == 18 && !weird.contains(" "))
        #expect(s.diagnostics.filter { $0.kind == .sharedHandle }.count == 1)
    }
}

@Suite("Snapshot: hashtags and favorites")
struct TagAndFavoriteTests {
    @Test func favoritesByNameThenID() {
        let s = Snapshot(documents: [
            user("u1", "one"),
            doc(
                "favorites/u1/favorites/p2",
                [
                    ("placeName", .string("카페")),
                    (
                        "coordinate",
                        .map(
                            Fields([
                                (key: "latitude", value: .string("37.55")),
                                (key: "longtitude", value: .string("126.92")),
                            ]))
                    ),
                ]),
            doc(
                "favorites/u1/favorites/p1",
                [
                    ("placeName", .string("카페")),
                    (
                        "coordinate",
                        .map(
                            Fields([
                                (key: "latitude", value: .double(37.5)), (key: "longitude", value: .integer(127)),
                            ]))
                    ),
                ]),
            doc(
                "favorites/u1/favorites/p3",
                [("placeName", .string("Zoo")), ("coordinate", .geoPoint(latitude: 1, longitude: 2))]),
            doc(
                "favorites/u1/favorites/p4",
                [
                    ("placeName", .string("Bad")),
                    (
                        "coordinate",
                        .map(
                            Fields([
                                (key: "latitude", value: .string("north")), (key: "longitude", value: .integer(1)),
                            ]))
                    ),
                ]),
            doc("favorites/ghost/favorites/p9", [("placeName", .string("Nowhere"))]),
        ])
        let places = s.activity("u1").favorites
        #expect(places.map(\.id) == ["p4", "p3", "p1", "p2"])
        #expect(places[2].coordinate == Coordinate(latitude: 37.5, longitude: 127))
        #expect(places[3].coordinate == Coordinate(latitude: 37.55, longitude: 126.92))
        #expect(places[1].coordinate == Coordinate(latitude: 1, longitude: 2))
        #expect(places[0].coordinate == nil)
        #expect(s.kinds().contains(.nonNumericCoordinate))
        #expect(s.warnings.map(\.description).contains("favorites/ghost: favorites of users/ghost, who does not exist"))
    }

    /// Names in code point order, ties (the same bytes) by ID. A name composed and the same
    /// name decomposed are not a tie: their code points differ.
    @Test func favoritesGoByNameInCodePointOrderThenByID() {
        let s = Snapshot(documents: [
            user("u1", "one"),
            favorite("u1", "p5", "Cafe\u{301}"),
            favorite("u1", "p3", "Caf\u{E9}"),
            favorite("u1", "p4", "Cafe"),
            favorite("u1", "p1", "카페 서면점"),
            favorite("u1", "p2", "카페"),
            favorite("u1", "p0", "Caf\u{E9}"),
        ])
        #expect(s.activity("u1").favorites.map(\.id) == ["p4", "p5", "p0", "p3", "p2", "p1"])
    }

    /// The order does not depend on the order the documents come in. (Names equal for Swift
    /// once went by ID, and others by code point: "é" decomposed came before "Á", which came
    /// before "é" composed, which came before "é" decomposed by ID, and each input order
    /// gave its own list.)
    @Test func favoritesOrderIsTheSameWhateverTheInputOrder() {
        let places = [
            favorite("u1", "p4", "\u{C1}"), favorite("u1", "p7", "\u{E9}"), favorite("u1", "p8", "e\u{301}"),
        ]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let s = Snapshot(documents: [user("u1", "one")] + order.map { places[$0] })
            #expect(s.activity("u1").favorites.map(\.id) == ["p8", "p4", "p7"], "input order \(order)")
        }
    }
}

/// A store that gives one document twice (an export file can list it twice; a folder cannot):
/// an error naming the document, whichever collection, so no build picks one of the two.
@Suite("Snapshot: documents given twice")
struct DuplicateDocumentTests {
    @Test func eachDocumentGivenTwiceIsAnError() {
        let s = Snapshot(documents: [
            user("u1", "one"), user("u1", "one again"), user("u2", "two"),
            tweet("t1", by: "u1", at: "2023-01-01T00:00:00Z"), tweet("t1", by: "u2", at: "2023-01-02T00:00:00Z"),
            tweet("t1", by: "u2", at: "2023-01-03T00:00:00Z"), tweet("t2", by: "u2", at: "2023-01-04T00:00:00Z"),
            like("u2", "t2"), like("u2", "t2"), like("u1", "t2"),
        ])
        let twice = s.diagnostics.filter { $0.kind == .duplicateDocument }
        #expect(twice.map(\.path).sorted() == ["tweets/t1", "users/u1", "users/u2/user-likes/t2"])
        #expect(twice.allSatisfy { $0.severity == .error && $0.message.contains("more than once") })
    }

    /// IDs in two Unicode forms are two documents, not one given twice.
    @Test func idsInTwoFormsAreNotGivenTwice() {
        let s = Snapshot(documents: [user("caf\u{E9}", "one"), user("cafe\u{301}", "two")])
        #expect(!s.kinds().contains(.duplicateDocument))
    }
}
