import Model
import Store
import TestSupport
import Testing

@testable import Site

/// The replies a tweet's page leaves out are counted (SPEC 7: "a note says how many more there
/// are"), up to `Conversation.maxWalk`: past that the page says "more than" the count, so that
/// a tweet with a huge reply tree costs a bounded walk per page.
@Suite struct ConversationCounts {
    /// A root with `count` direct replies.
    static func root(_ id: String, replies count: Int) -> [Document] {
        [tweet(id, by: "uA", at: at(minute: 0))]
            + (0..<count).map { tweet("\(id)-\($0)", by: "uA", at: at(minute: 1), replyTo: id) }
    }

    @Test func theCountStopsAtTheWalksBound() throws {
        let shown = Conversation.maxReplies
        let bound = Conversation.maxWalk
        let snapshot = Snapshot(
            documents: [user("uA", "ann")] + Self.root("exact", replies: shown + bound)
                + Self.root("over", replies: shown + bound + 1) + Self.root("few", replies: shown + 3))
        let exact = Conversation(of: try #require(snapshot.tweet(id: "exact")), in: snapshot)
        #expect(exact.replies.count == shown && exact.hiddenReplies == bound && !exact.hiddenRepliesOverCount)
        let over = Conversation(of: try #require(snapshot.tweet(id: "over")), in: snapshot)
        #expect(over.replies.count == shown && over.hiddenReplies == bound && over.hiddenRepliesOverCount)
        let few = Conversation(of: try #require(snapshot.tweet(id: "few")), in: snapshot)
        #expect(few.hiddenReplies == 3 && !few.hiddenRepliesOverCount)
    }
}
