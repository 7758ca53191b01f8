import Foundation
import Testing

@testable import Build

/// The context cache: a rebuild that updates the kept snapshot takes the tweets' dates and
/// caption langs from it, and its site is a clean build's; a context cache of another theme,
/// or one damaged, is not used.
extension BuildCacheTests {
    func contextCachePath() throws -> String {
        work.path(
            "cache/" + (try #require(try files("cache").first { $0.hasPrefix("context-") && $0.hasSuffix(".cache") })))
    }

    func fileIdentity(_ path: String) -> [Int] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return [] }
        return [
            (attributes[.systemFileNumber] as? Int) ?? 0,
            Int(((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970 * 1e9),
        ]
    }

    @Test func aCaptionRebuildTakesTheKeptDatesAndLangs() throws {
        try cachedBuild("site")
        let path = try contextCachePath()
        let written = fileIdentity(path)
        let tweets = try storeFiles("tweets")
        // A caption now in Hangul: its lang is made again, the others' taken.
        try edit("tweets/" + tweets[0]) { $0["caption"] = "안녕하세요 여러분, 오늘은 좋은 날입니다" }
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
        #expect(fileIdentity(path) == written, "the kept parts serve: not written again")
        try reword(tweets[1], "and another")
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
    }

    @Test func anotherDateTemplateMakesTheDatesAgain() throws {
        try cachedBuild("site")
        let words = work.path("templates/i18n/en.json")
        let text = try String(contentsOfFile: words, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "{{monthName}} {{day}}, {{year}}", with: "{{day}} {{monthName}} {{year}}")
        #expect(edited != text)
        try edited.write(toFile: words, atomically: true, encoding: .utf8)
        try reword(try storeFiles("tweets")[0], "after the theme")
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
    }

    @Test(arguments: damages)
    func aDamagedContextCacheIsMadeAgain(damage kind: String) throws {
        try cachedBuild("site")
        try damage(try contextCachePath(), kind)
        let tweet = try storeFiles("tweets")[0]
        try reword(tweet, "after the damage")
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
        // …and it is written again, for the snapshot kept, with the old caption's lang.
        try edit("tweets/" + tweet) { $0["caption"] = "Привет всем, какой хороший день" }
        #expect(try cachedBuild("site").snapshotReused)
        try expectEqualsCleanBuild("site")
    }
}
