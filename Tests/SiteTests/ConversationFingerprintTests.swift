import Model
import Site
import Store
import TestSupport
import Testing

/// A tweet page shows its whole conversation (SPEC 7), so its fingerprint must change with any
/// tweet of it — a like on a grandchild reply, an ancestor's author — or a rebuild would keep a
/// stale page; and it must not change for edits outside the conversation.
@Suite struct ConversationFingerprints {
    static let base: [Document] = [
        user("uA", "ann"), user("uB", "ben"),
        tweet("root", by: "uA", at: at(minute: 1)),
        tweet("mid", by: "uB", at: at(minute: 2), replyTo: "root"),
        tweet("leaf", by: "uA", at: at(minute: 3), replyTo: "mid"),
        tweet("other", by: "uB", at: at(minute: 4)),
    ]

    static func fingerprints(_ documents: [Document]) throws -> [String: UInt64] {
        let renderer = try SiteRenderer(
            snapshot: Snapshot(documents: documents), config: SiteConfig(), templates: defaultTemplates(language: "en"))
        return Dictionary(
            uniqueKeysWithValues: zip(renderer.plan.pages.map(\.path), renderer.pageFingerprints()))
    }

    @Test func aLikeOnAGrandchildChangesTheRootsPage() throws {
        let before = try Self.fingerprints(Self.base)
        let after = try Self.fingerprints(Self.base + [like("uB", "leaf")])
        #expect(before["t/root/index.html"] != after["t/root/index.html"])
        #expect(before["t/mid/index.html"] != after["t/mid/index.html"])
        #expect(before["t/other/index.html"] == after["t/other/index.html"])
    }

    @Test func aNewReplyDeepDownChangesEveryAncestorsPage() throws {
        let before = try Self.fingerprints(Self.base)
        let after = try Self.fingerprints(Self.base + [tweet("deeper", by: "uB", at: at(minute: 9), replyTo: "leaf")])
        for id in ["root", "mid", "leaf"] {
            #expect(before["t/\(id)/index.html"] != after["t/\(id)/index.html"], "\(id)")
        }
    }

    /// Past the first 100 replies, the page counts the rest: one more deep down changes the
    /// root's page though the replies it shows stay the same.
    @Test func aReplyPastTheFirstHundredChangesTheCount() throws {
        let chain =
            [user("uA", "ann")]
            + (0..<110).map { i in
                tweet("c\(i)", by: "uA", at: at(minute: i), replyTo: i == 0 ? nil : "c\(i - 1)")
            }
        let before = try Self.fingerprints(chain)
        let after = try Self.fingerprints(chain + [tweet("c110", by: "uA", at: at(minute: 110), replyTo: "c109")])
        #expect(before["t/c0/index.html"] != after["t/c0/index.html"])
    }

    @Test func theRootsAuthorChangesTheLeafsPage() throws {
        let before = try Self.fingerprints(Self.base)
        let renamed = Self.base.map { $0.path.description == "users/uA" ? user("uA", "ann", fullname: "Ann Two") : $0 }
        let after = try Self.fingerprints(renamed)
        #expect(before["t/leaf/index.html"] != after["t/leaf/index.html"])
        let movedBen = Self.base.map {
            $0.path.description == "users/uB" ? user("uB", "ben", fullname: "Ben Two") : $0
        }
        #expect(try Self.fingerprints(movedBen)["t/root/index.html"] != before["t/root/index.html"], "mid is Ben's")
    }
}
