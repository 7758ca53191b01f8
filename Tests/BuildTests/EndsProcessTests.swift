import Foundation
import Testing

@testable import Build

/// `roost build` is the last thing its process does (`BuildOptions.endsProcess`): what a
/// build made is kept until the process exits rather than freed. Its site, its report and
/// the rebuilds after it are those of a build that frees it.
extension BuildCacheTests {
    @Test func aBuildThatEndsItsProcessMakesTheSameSite() throws {
        var options = BuildOptions(
            store: work.path("store"), templates: work.path("templates"), output: work.path("kept"),
            media: MediaOptions(cache: work.path("cache-kept")), usesCache: true)
        options.endsProcess = true
        let build = SiteBuild(options, clock: Self.clock)
        let kept = try build.run()
        let freed = try cachedBuild("site")
        #expect(kept.outcome == freed.outcome)
        #expect((kept.pages, kept.staticFiles, kept.warnings) == (freed.pages, freed.staticFiles, freed.warnings))
        #expect(differing(work, "kept", "site").isEmpty)

        let tweet = try #require(try storeFiles("tweets").first)
        try edit("tweets/" + tweet) { $0["caption"] = "Kept until the process exits" }
        let rebuilt = try build.run()
        #expect(rebuilt.pagesRendered > 0 && rebuilt.pagesRendered < rebuilt.pages)
        try cachedBuild("site")
        #expect(differing(work, "kept", "site").isEmpty)
        try expectEqualsCleanBuild("kept")
        #expect(try build.run().outcome == .nothingChanged)
    }
}
