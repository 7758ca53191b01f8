import Build
import Foundation
import Model
import Search
import TestSupport
import Testing

/// The search index's files are pages of the plan: fingerprinted, rewritten only when they
/// change, split by `--shard`.
@Suite("SiteBuild: the search index's files")
struct SearchBuildTests {
    @Test func aNewTweetRewritesOnlyTheSearchFilesOfItsWords() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let before = work.files("site").filter { $0.key.hasPrefix("search/") }
        #expect(before.keys.contains("search/index.html") && before.keys.contains("search/index.js"))
        #expect(before.keys.filter { $0.hasPrefix("search/k/") }.count >= 2)

        try work.write([tweet("zzNewTweet", by: "RPQ0h7aH1QHgf6OBwvJ9MzIV3tRQ", at: "2030-01-01T00:00:00Z", "zqxj 새단어")]
        )
        try build(work, "site")
        let after = work.files("site").filter { $0.key.hasPrefix("search/") }
        let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }
        // Its words' shards, the shard list, the days, the last card data file (its number is
        // the next one) and its author's users file at most: not the other card data files.
        let cards = changed.filter { $0.hasPrefix("search/d/") }
        #expect(cards.count == 1, "\(cards.sorted())")
        #expect(changed.count <= 8, "\(changed.sorted())")
        #expect(
            after.keys.filter { $0.hasPrefix("search/d/") }.count
                >= before.keys.filter { $0.hasPrefix("search/d/") }.count)
    }

    /// The term shards are staged before the other pages and let go of (`SiteBuild`): each
    /// is still written whole.
    @Test func everyTermShardIsWrittenAsTheIndexMadeIt() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let written = work.files("site").filter { $0.key.hasPrefix("search/k/") }
        let index = SearchIndex(snapshot: try Snapshot.read(at: work.path("store")).0)
        #expect(!index.shards.isEmpty)
        #expect(written == Dictionary(uniqueKeysWithValues: index.shards.map { ($0.path, Data($0.bytes)) }))
    }

    @Test func shardsOfABuildTogetherWriteEverySearchFile() throws {
        let work = try sampleSiteCopy()
        try build(work, "whole")
        try build(work, "one", shard: Shard(index: 1, count: 2)!)
        try build(work, "two", shard: Shard(index: 2, count: 2)!)
        let whole = work.files("whole").filter { $0.key.hasPrefix("search/") }
        let one = work.files("one").filter { $0.key.hasPrefix("search/") }
        let two = work.files("two").filter { $0.key.hasPrefix("search/") }
        #expect(!one.isEmpty && !two.isEmpty)
        #expect(Set(one.keys).isDisjoint(with: two.keys))
        #expect(one.merging(two) { a, _ in a } == whole)
    }
}
