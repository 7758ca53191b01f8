import Model
import Store
import TestSupport
import Testing

/// `Snapshot.read(at:)` sorts a single file's documents by kind a batch at a time as it is
/// parsed, never holding them all: the snapshot must be the one `Snapshot(decoded:)` derives
/// from the same documents read whole, diagnostics included.
@Suite("Snapshot: a single file derived batch by batch")
struct StreamedDeriveTests {
    /// A node-firestore-import-export file of more documents than one batch (4096), of every
    /// kind, with every kind of problem: documents with errors, liked or favorited by users
    /// with errors, dangling likes and replies, drifted counters, shared handles, images
    /// without alt text.
    static func export(users: Int = 250, tweets: Int = 3000, duplicateTopLevel: Bool = false) -> String {
        func at(_ k: Int) -> String { "\"2023-01-\(10 + k % 18)T0\(k % 10):00:00Z\"" }
        var usersJSON: [String] = []
        for u in 0..<users {
            var likes: [String] = []
            for k in 0..<(u % 7 == 0 ? 0 : 25) {
                let tweet = (u * 37 + k * 11) % (tweets + 40)  // some beyond the last tweet: dangling
                likes.append("\"t\(tweet)\": \(k % 3 == 0 ? "{}" : "{\"timestamp\": \(at(u + k))}")")
            }
            let fields: String
            switch u % 23 {
            case 5: fields = "\"fullname\": \"no username\""  // an error: left out, its likes dangle
            case 6: fields = "\"username\": \"Mina\""  // Mina and mina share a handle
            case 7: fields = "\"username\": \"mina\", \"bio\": \"![](https://example.com/b.png)\""
            default: fields = "\"username\": \"user\(u)\", \"fullname\": \"User \(u)\""
            }
            usersJSON.append(
                "\"u\(u)\": {\(fields), \"__collections__\": {\"user-likes\": {\(likes.joined(separator: ", "))}}}")
        }
        // Likes by a user without a document (only the subcollection holds them).
        usersJSON.append("\"ghost\": {\"__collections__\": {\"user-likes\": {\"t1\": {}, \"t2\": {}}}}")
        var tweetsJSON: [String] = []
        for t in 0..<tweets {
            var fields = [
                "\"caption\": \"tweet \(t) #tag\(t % 9)\(t % 50 == 0 ? " ![](https://example.com/\(t).png)" : "")\"",
                "\"uid\": \"u\((t * 13) % (users + 3))\"",  // some by missing users
            ]
            if t % 97 != 3 { fields.append("\"timestamp\": \(at(t))") }  // an error: no timestamp
            if t % 5 == 1 { fields.append("\"replyTo\": \"t\((t * 7) % (tweets + 20))\"") }
            if t % 11 == 0 { fields.append("\"likes\": \(t % 3 - 1)") }  // drift, negatives, some right
            if t % 89 == 4 { fields.append("\"likes\": \"many\"") }  // an error: the wrong type
            tweetsJSON.append("\"t\(t)\": {\(fields.joined(separator: ", "))}")
        }
        if duplicateTopLevel { tweetsJSON.append("\"t2\": {\"caption\": \"again\", \"uid\": \"u1\"}") }
        var favoritesJSON: [String] = []
        for u in stride(from: 0, to: users + 5, by: 3) {
            let places = (0..<4).map { p in
                p == 3
                    ? "\"p\(p)\": {\"address\": \"no name\"}"
                    : "\"p\(p)\": {\"placeName\": \"Place \((u + p) % 5)\", \"coordinate\": [\(p), 1]}"
            }
            favoritesJSON.append(
                "\"u\(u)\": {\"__collections__\": {\"favorites\": {\(places.joined(separator: ", "))}}}")
        }
        return """
            {"__collections__": {
            "users": {\(usersJSON.joined(separator: ",\n"))},
            "tweets": {\(tweetsJSON.joined(separator: ",\n"))},
            "favorites": {\(favoritesJSON.joined(separator: ",\n"))}
            }}
            """
    }

    /// The snapshot of the documents read whole, in path order.
    static func whole(_ file: String) throws -> (Snapshot, documents: Int) {
        let documents = try DocumentStore.read(at: file).documents
        return (Snapshot(decoded: documents.map(DecodedDocument.init)), documents.count)
    }

    static func expectSame(_ a: Snapshot, _ b: Snapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.users == b.users, sourceLocation: sourceLocation)
        #expect(a.tweets == b.tweets, sourceLocation: sourceLocation)
        #expect(a.likes == b.likes, sourceLocation: sourceLocation)
        #expect(a.tweetRelations == b.tweetRelations, sourceLocation: sourceLocation)
        #expect(a.userActivity == b.userActivity, sourceLocation: sourceLocation)
        #expect(a.tags == b.tags, sourceLocation: sourceLocation)
        #expect(a.diagnostics == b.diagnostics, sourceLocation: sourceLocation)
        for user in a.users {
            #expect(a.user(uid: user.uid) == b.user(uid: user.uid), sourceLocation: sourceLocation)
            #expect(a.user(handle: user.handle) == b.user(handle: user.handle), sourceLocation: sourceLocation)
            #expect(
                a.user(mentioned: user.username) == b.user(mentioned: user.username), sourceLocation: sourceLocation)
        }
        for tweet in a.tweets {
            #expect(a.tweet(id: tweet.id) == b.tweet(id: tweet.id), sourceLocation: sourceLocation)
        }
        for tag in a.tags { #expect(a.tag(named: tag.tag) == b.tag(named: tag.tag), sourceLocation: sourceLocation) }
    }

    @Test func streamedEqualsWhole() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", Self.export())
        let (streamed, source) = try Snapshot.read(at: file)
        let (whole, documents) = try Self.whole(file)
        #expect(documents > 2 * 4096)  // three batches or more
        #expect(source.format == .nodeFirestoreImportExport)
        #expect(source.documentCount == documents)
        Self.expectSame(streamed, whole)
        // The store has every kind of entity and problem it was made to have.
        #expect(!streamed.users.isEmpty && !streamed.tweets.isEmpty && !streamed.likes.isEmpty)
        #expect(streamed.userActivity.contains { !$0.favorites.isEmpty })
        let kinds = Set(streamed.diagnostics.map(\.kind))
        let expected: Set<Diagnostic.Kind> = [
            .missingField, .wrongType, .tweetByMissingUser, .replyToMissingTweet, .likeOfMissingTweet,
            .likeByMissingUser, .favoritesOfMissingUser, .negativeCounter, .likeCounterDrift, .sharedHandle,
            .imageWithoutAlt, .nonNumericCoordinate,
        ]
        #expect(expected.subtracting(kinds).isEmpty, "missing: \(expected.subtracting(kinds))")
    }

    /// Two top-level documents with one path: found only at the end, after batches were
    /// taken; the file is then read whole, and what was taken is dropped.
    @Test func fileReadAgainWholeGivesTheSameSnapshot() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", Self.export(duplicateTopLevel: true))
        let (streamed, source) = try Snapshot.read(at: file)
        let (whole, documents) = try Self.whole(file)
        #expect(source.documentCount == documents)
        Self.expectSame(streamed, whole)
    }

    @Test func decodedInAnyOrderGivesTheSameSnapshot() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", Self.export(users: 40, tweets: 300))
        let decoded = try DocumentStore.read(at: file).documents.map(DecodedDocument.init)
        var generator = SeededGenerator(seed: 16)
        Self.expectSame(Snapshot(decoded: decoded.shuffled(using: &generator)), Snapshot(decoded: decoded))
    }
}

/// A document's ID is its bytes (SPEC 2.1: its file name), as in Firestore: an ID written in
/// another Unicode form (é as one code point, or e and a combining accent) names another
/// document, though Swift's `==` calls the two strings equal.
@Suite("Snapshot: IDs named by other documents")
struct SharedIDTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func aReferenceInAnotherFormNamesAnotherDocument() {
        let (composed, decomposed) = (Self.composed, Self.decomposed)
        let s = Snapshot(documents: [
            user(composed, "one"), user("u2", "two"),
            tweet(composed, by: decomposed, at: "2023-01-01T00:00:00Z"),
            tweet("t2", by: "u2", at: "2023-01-02T00:00:00Z", replyTo: decomposed),
            tweet("t3", by: "u2", at: "2023-01-03T00:00:00Z", replyTo: "t2"),
        ])
        #expect(
            s.diagnostics.map(\.description).sorted() == [
                "tweets/\(composed): field 'uid': author users/\(decomposed) does not exist",
                "tweets/t2: field 'replyTo': parent tweets/\(decomposed) does not exist",
            ])
        let t1 = s.tweets[s.tweet(id: composed)!]
        let t2 = s.tweets[s.tweet(id: "t2")!]
        #expect(s.tweet(id: decomposed) == nil && s.user(uid: decomposed) == nil)
        #expect(Array(t1.authorUID.utf8) == Array(decomposed.utf8), "kept as written")
        #expect(Array(t2.replyTo!.utf8) == Array(decomposed.utf8))
        #expect(s.tweetRelations[s.tweet(id: "t3")!].parent == s.tweet(id: "t2"))
    }

    /// Two tweets and two users whose IDs differ only in their Unicode form are four
    /// documents: each like counts for the tweet it names, each tweet for its own author.
    /// (Compared as Swift strings, the likes of both went to one tweet, and both tweets to
    /// one author.)
    @Test func idsInTwoFormsAreTwoDocuments() throws {
        let (composed, decomposed) = (Self.composed, Self.decomposed)
        let s = Snapshot(documents: [
            user(composed, "precomp"), user(decomposed, "decomp"),
            tweet(composed, by: composed, at: "2023-01-01T00:00:00Z"),
            tweet(decomposed, by: decomposed, at: "2023-01-02T00:00:00Z"),
            tweet("r", by: composed, at: "2023-01-03T00:00:00Z", replyTo: decomposed),
            like(composed, composed), like(decomposed, composed), like(decomposed, decomposed),
        ])
        #expect(s.diagnostics.isEmpty, "\(s.diagnostics)")
        let c = try #require(s.tweet(id: composed))
        let d = try #require(s.tweet(id: decomposed))
        #expect(c != d && s.user(uid: composed) != s.user(uid: decomposed))
        #expect(s.likeCount(ofTweet: c) == 2 && s.likeCount(ofTweet: d) == 1)
        #expect(s.tweetRelations[c].author == s.user(uid: composed))
        #expect(s.tweetRelations[d].author == s.user(uid: decomposed))
        #expect(s.tweetRelations[s.tweet(id: "r")!].parent == d)
        #expect(s.activity(decomposed).likes.sorted() == [c, d].sorted())
        #expect(s.activity(composed).tweets == [c] && s.activity(decomposed).tweets == [d])
    }
}
