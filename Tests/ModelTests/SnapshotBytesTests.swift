import JSON
import Model
import Store
import Support
import TestSupport
import Testing

/// The snapshot as the build cache keeps it (`Snapshot+Bytes`): loaded, it is the snapshot
/// that was derived, look-ups included; a cut or damaged encoding is refused, not trusted.
@Suite("Snapshot: the build cache's binary form")
struct SnapshotBytesTests {
    static func bytes(of snapshot: Snapshot) -> [UInt8] {
        var out = ByteWriter()
        snapshot.encode { (part: (inout ByteWriter) -> Void) in part(&out) }
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(ByteReader.Malformed) -> Snapshot {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ByteReader.Malformed) -> Snapshot in
                var reader = ByteReader(buffer)
                let snapshot = try Snapshot(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                return snapshot
            }
        }
        return try result.get()
    }

    /// Every kind of entity and problem (`StreamedDeriveTests.export`).
    static func derived() throws -> Snapshot {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", StreamedDeriveTests.export(users: 60, tweets: 600))
        return try StreamedDeriveTests.whole(file).0
    }

    @Test func aLoadedSnapshotIsTheOneDerived() throws {
        let snapshot = try Self.derived()
        let bytes = Self.bytes(of: snapshot)
        let loaded = try Self.decode(bytes)
        StreamedDeriveTests.expectSame(loaded, snapshot)
        #expect(loaded.likeCount == snapshot.likeCount)
        #expect(Self.bytes(of: loaded) == bytes, "encoded again, the same bytes")
    }

    /// A loaded snapshot finds tweets by ID with a scan at first and with a table once asked
    /// often (`TweetLookup`): both answer as the derived snapshot's table does, an unknown ID
    /// included, and so do many threads asking at once of a snapshot not yet asked.
    @Test func aLoadedSnapshotFindsTweetsByIDAsTheDerivedOne() throws {
        let snapshot = try Self.derived()
        let bytes = Self.bytes(of: snapshot)
        let ids = snapshot.tweets.map(\.id) + ["no-such-tweet", ""]
        let loaded = try Self.decode(bytes)
        for id in ids.prefix(3) + ids.suffix(3) + ids {
            #expect(loaded.tweet(id: id) == snapshot.tweet(id: id), "\(id)")
        }
        let fresh = try Self.decode(bytes)
        let answers = [[Int?]](parallelCount: 16) { k in
            ids.indices.filter { $0 % 16 == k }.map { fresh.tweet(id: ids[$0]) }
        }
        for k in 0..<16 {
            #expect(answers[k] == ids.indices.filter { $0 % 16 == k }.map { snapshot.tweet(id: ids[$0]) })
        }
    }

    /// Indices are numbers, not lengths: a few likes of the last of many tweets make a block
    /// of likes far shorter than the indices in it (a bug once refused every such snapshot).
    @Test func indicesLargerThanTheirBlockLoad() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.json", StreamedDeriveTests.export(users: 3, tweets: 3000))
        let snapshot = try StreamedDeriveTests.whole(file).0
        try #require(snapshot.likeCount > 0 && snapshot.likeCount < 100 && snapshot.tweets.count > 2000)
        StreamedDeriveTests.expectSame(try Self.decode(Self.bytes(of: snapshot)), snapshot)
    }

    @Test func aCutOrDamagedEncodingIsRefused() throws {
        let bytes = Self.bytes(of: try Self.derived())
        for cut in [1, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
            #expect(throws: ByteReader.Malformed.self) { try Self.decode(Array(bytes[..<cut])) }
        }
        // A user count one larger than the users written: what follows no longer parses, or
        // an index points past its list; either way, refused.
        var larger = bytes
        larger[0] &+= 1
        #expect(throws: ByteReader.Malformed.self) { try Self.decode(larger) }
    }

    /// Items are decoded into their place in the list, block by block: one that fails part of
    /// the way through a block gives the items made before it back, and the list is refused;
    /// a count of more items than the bytes could hold is refused before room is made for it.
    @Test func aListDamagedPartWayOrCountedBeyondItsBytesIsRefused() throws {
        let bytes = Self.bytes(of: try Self.derived())
        for offset in stride(from: bytes.count / 10, to: bytes.count, by: bytes.count / 40) {
            var damaged = bytes
            damaged.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
            _ = try? Self.decode(damaged)  // (refused, or read as other values: never a crash)
        }
        var huge = ByteWriter()
        huge.append(length: 1 << 40)
        for _ in 0..<64 { huge.append(length: 1) }
        #expect(throws: ByteReader.Malformed.self) { try Self.decode(huge.bytes) }
    }

    /// The content of tweets replaced without deriving (`replaceContent(ofDocuments:)`):
    /// only tweets without problems, whose problems in the snapshot deriving found from
    /// what is kept.
    @Test func onlyTweetsWithoutDecodingProblemsAreReplaced() throws {
        let snapshot = try Self.derived()
        func document(_ json: String, id: String) throws -> DecodedDocument {
            guard case .object(let pairs) = try JSONParser.parse(json) else { throw ByteReader.Malformed() }
            return DecodedDocument(
                Document(path: DocumentPath(["tweets", id]), fields: Fields(json: pairs), source: "tweets/\(id).json"))
        }
        func time(_ tweet: Tweet) -> String { RFC3339.format(tweet.timestamp)! }
        let plain = try #require(
            snapshot.tweets.first { tweet in
                !tweet.isReply && tweet.images.isEmpty
                    && !snapshot.diagnostics.contains { $0.path == "tweets/" + tweet.id }
            })
        // The fields replacingContent keeps, as the tweet has them.
        func kept(_ tweet: Tweet) -> String {
            #""uid": "\#(tweet.authorUID)", "timestamp": "\#(time(tweet))""#
                + (tweet.storedLikes.map { #", "likes": \#($0)"# } ?? "")
                + (tweet.replyTo.map { #", "replyTo": "\#($0)""# } ?? "")
        }
        let tags = plain.hashtags.map { " #" + $0 }.joined()
        let fields = kept(plain)
        let reworded = try document(#"{"caption": "reworded\#(tags)", \#(fields)}"#, id: plain.id)
        var updated = snapshot
        let taken = updated.replaceContent(ofDocuments: [reworded])
        let (indices, _) = try #require(taken)
        #expect(updated.tweets[indices[0]].caption == "reworded" + tags)
        // An image without alt text is a problem of the document itself: derived again.
        let image = try document(#"{"caption": "![](https://example.com/a.png)\#(tags)", \#(fields)}"#, id: plain.id)
        var unchanged = snapshot
        let withImage = unchanged.replaceContent(ofDocuments: [image])
        #expect(withImage == nil)
        // A tweet the snapshot had such a problem with: derived again too.
        let flagged = try #require(
            snapshot.diagnostics.first { $0.kind == .imageWithoutAlt && $0.path.hasPrefix("tweets/") })
        let tweet = try #require(snapshot.tweet(id: String(flagged.path.dropFirst(7))).map { snapshot.tweets[$0] })
        let mendedTags = tweet.hashtags.map { " #" + $0 }.joined()
        let mended = try document(#"{"caption": "mended\#(mendedTags)", \#(kept(tweet))}"#, id: tweet.id)
        #expect(mended.diagnostics.isEmpty && mended.tweet?.hashtags == tweet.hashtags)
        let withMended = unchanged.replaceContent(ofDocuments: [mended])
        #expect(withMended == nil)
        // (Without that problem, the same edit is taken.)
        #expect(snapshot.replacingContent(of: [try #require(mended.tweet)]) != nil)
    }

    /// In place, an edit that cannot be taken leaves the snapshot as it was: a like of a tweet
    /// the snapshot lacks after one it has, a tweet it lacks after one it has.
    @Test func editsInPlaceAreWholeOrNotAtAll() throws {
        let snapshot = try Self.derived()
        let before = Self.bytes(of: snapshot)
        let user = try #require(snapshot.users.first)
        let tweet = try #require(
            snapshot.tweets.first { t in
                !t.isReply && t.images.isEmpty && !snapshot.diagnostics.contains { $0.path == "tweets/" + t.id }
            })
        var edited = snapshot
        let likes = [
            LikeChange(uid: user.uid, tweetID: tweet.id, like: Like(uid: user.uid, tweetID: tweet.id, timestamp: nil)),
            LikeChange(
                uid: user.uid, tweetID: "noSuchTweet", like: Like(uid: user.uid, tweetID: "noSuchTweet", timestamp: nil)
            ),
        ]
        let liked = edited.replaceLikes(likes)
        #expect(!liked)
        #expect(Self.bytes(of: edited) == before, "a refused like left part of itself")
        func document(_ caption: String, id: String) throws -> Tweet {
            let tags = tweet.hashtags.map { " #" + $0 }.joined()
            let json =
                #"{"caption": "\#(caption)\#(tags)", "uid": "\#(tweet.authorUID)", "timestamp": "\#(RFC3339.format(tweet.timestamp)!)""#
                + (tweet.storedLikes.map { #", "likes": \#($0)"# } ?? "") + "}"
            guard case .object(let pairs) = try JSONParser.parse(json) else { throw ByteReader.Malformed() }
            return try #require(
                DecodedDocument(
                    Document(
                        path: DocumentPath(["tweets", id]), fields: Fields(json: pairs), source: "tweets/\(id).json")
                ).tweet)
        }
        let reworded = try document("reworded", id: tweet.id)
        let refused = edited.replaceContent(of: [reworded, try document("new", id: "noSuchTweet")])
        #expect(refused == nil)
        #expect(Self.bytes(of: edited) == before, "a refused edit left part of itself")
        // Taken: the tweets it replaced are given back, and the copy it was made from is as it was.
        let taken = edited.replaceContent(of: [reworded])
        let (indices, replaced) = try #require(taken)
        #expect(edited.tweets[indices[0]].caption == reworded.caption)
        #expect(replaced.map(\.caption) == [tweet.caption])
        #expect(Self.bytes(of: snapshot) == before)
    }
}
