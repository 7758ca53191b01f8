import Build
import Foundation
import Model
import Output
import Site
import Synchronization
import TestSupport
import Testing

/// A copy of the sample store (`store/`) and theme (`templates/`) in a new folder.
func sampleSiteCopy() throws -> TemporaryFolder {
    let work = try TemporaryFolder()
    try work.copy(packageRoot + "/content", to: "store")
    try work.copy(packageRoot + "/templates", to: "templates")
    return work
}

/// Builds `work`'s store and theme into `work/output`, in-process.
@discardableResult
func build(
    _ work: TemporaryFolder, _ output: String, config: SiteConfig = SiteConfig(),
    shard: Shard? = nil
) throws -> BuildReport {
    try SiteBuild(
        BuildOptions(
            store: work.path("store"), templates: work.path("templates"), output: work.path(output),
            config: config, shard: shard)
    ).run()
}

/// Paths whose bytes differ between two folders of `work` (short, for a readable failure).
func differing(_ work: TemporaryFolder, _ a: String, _ b: String) -> [String] {
    let x = work.files(a)
    let y = work.files(b)
    return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
}

extension BuildReport {
    /// The write summary of a build that ran (nil when nothing changed).
    var summary: WriteSummary? {
        if case .built(let summary) = outcome { return summary }
        return nil
    }
}

@Suite("SiteBuild: the build as a library")
struct SiteBuildTests {
    @Test func buildsTheSampleSiteDeterministicallyAndSkipsUnchangedFiles() throws {
        let work = try sampleSiteCopy()
        let first = try build(work, "a")
        #expect(first.summary?.unchanged == 0 && first.pages > 100)
        #expect(first.summary?.written == first.pages + first.staticFiles)
        try build(work, "b")
        let a = work.files("a")
        #expect(a.count > 100 && a == work.files("b"), "two builds of the same store are byte-identical")

        let second = try build(work, "a")
        #expect(second.summary?.written ?? 0 == 0)
        #expect(work.files("a") == a)
    }

    @Test func shardsTogetherAreTheWholeSite() throws {
        let work = try sampleSiteCopy()
        try build(work, "full")
        var union: [String: Data] = [:]
        for k in 1...3 {
            try build(work, "part\(k)", shard: Shard(index: k, count: 3))
            let part = work.files("part\(k)")
            #expect(!part.isEmpty)
            #expect(Set(part.keys).isDisjoint(with: union.keys), "shards do not overlap")
            union.merge(part) { first, _ in first }
        }
        #expect(union == work.files("full"))
        #expect(Shard(index: 4, count: 3) == nil && Shard("0/2") == nil && Shard("2/2") != nil)
    }

    @Test func storeErrorsStopTheBuildBeforeTheOutputIsTouched() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let before = work.files("site")
        try work.write("store/tweets/broken.json", #"{"caption": 3, "timestamp": "2024-01-01T00:00:00Z", "uid": "u"}"#)
        #expect {
            try build(work, "site")
        } throws: { error in
            guard case BuildError.invalidStore(_, let problems, _) = error else { return false }
            return problems.contains { $0.path == "tweets/broken" && $0.field == "caption" }
        }
        #expect(work.files("site") == before)

        try work.write("store/tweets/broken.json", "{\"caption\": ")
        #expect { try build(work, "site") } throws: { "\($0)".contains("broken.json:1:13") }
        #expect(work.files("site") == before)
    }

    /// A build that fails with an output folder there (a store gone, a store with an error, the
    /// build cache's files being read on other threads) gives its lock back and leaves no
    /// staging folder, and the next build takes it.
    @Test func aFailedBuildGivesBackTheOutputsLock() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let manifest = FileManager.default.contents(atPath: work.path("site/.roost-manifest"))
        func expectOutputAsItWas(_ what: String) throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: work.path("site"))
            #expect(!names.contains { $0.hasPrefix(".roost-staging-") || $0 == ".roost-lock" }, "\(what)")
            #expect(FileManager.default.contents(atPath: work.path("site/.roost-manifest")) == manifest, "\(what)")
        }
        var options = BuildOptions(
            store: work.path("gone"), templates: work.path("templates"), output: work.path("site"))
        options.usesCache = true
        options.media.cache = work.path("cache")
        #expect(throws: (any Error).self) { try SiteBuild(options).run() }
        try expectOutputAsItWas("a store gone")
        try work.write("store/tweets/broken.json", #"{"caption": 3, "timestamp": "2024-01-01T00:00:00Z", "uid": "u"}"#)
        options.store = work.path("store")
        #expect(throws: BuildError.self) { try SiteBuild(options).run() }
        try expectOutputAsItWas("a store with an error")
        try FileManager.default.removeItem(atPath: work.path("store/tweets/broken.json"))
        #expect(try SiteBuild(options).run().pages > 0)
    }

    /// SPEC 10: a language the theme has no table for stops the build before anything is read
    /// or written; a theme edit to a table rebuilds the pages.
    @Test func languagesOfTheTheme() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let before = work.files("site")
        #expect {
            try build(work, "site", config: SiteConfig(language: "fr"))
        } throws: { error in
            guard case SiteError.unknownLanguage("fr", let available, _) = error else { return false }
            return available == ["en", "ko"]
        }
        #expect(work.files("site") == before)
        #expect(throws: SiteError.self) { try build(work, "fresh", config: SiteConfig(language: "fr")) }
        #expect(!FileManager.default.fileExists(atPath: work.path("fresh")))

        let korean = try build(work, "site", config: SiteConfig(language: "ko"))
        #expect(korean.pages > 100)
        let feed = try String(contentsOfFile: work.path("site/index.html"), encoding: .utf8)
        #expect(feed.contains("<html lang=\"ko\">") && feed.contains("최신 트윗"))
        // Edit one text: the pages that show it change.
        let table = work.path("templates/i18n/ko.json")
        let text = try String(contentsOfFile: table, encoding: .utf8)
        try text.replacingOccurrences(of: "\"최신 트윗\"", with: "\"새 트윗\"").write(
            toFile: table, atomically: true, encoding: .utf8)
        try build(work, "site", config: SiteConfig(language: "ko"))
        #expect(try String(contentsOfFile: work.path("site/index.html"), encoding: .utf8).contains("새 트윗"))
    }

    @Test func warningsAreReportedAndFailOnlyWhenStrict() throws {
        let work = try sampleSiteCopy()
        let report = try build(work, "site")
        #expect(report.warnings.count == 3 && report.warnings.allSatisfy { $0.severity == .warning })
        var options = BuildOptions(
            store: work.path("store"), templates: work.path("templates"), output: work.path("strict"))
        options.strict = true
        #expect(throws: BuildError.self) { try SiteBuild(options).run() }
        #expect(!FileManager.default.fileExists(atPath: work.path("strict")), "a failed first build creates no folder")
    }

    /// The observer hears every phase and every page.
    @Test func anObserverHearsThePhasesAndEachPage() throws {
        final class Recorder: BuildObserver {
            let log = Mutex<(phases: [String], total: Int, pages: Int)>(([], 0, 0))
            func phaseEnded(_ phase: BuildPhase) { log.withLock { $0.phases.append(phase.rawValue) } }
            func renderingStarted(pages: Int) { log.withLock { $0.total = pages } }
            func pagesFinished(_ count: Int) { log.withLock { $0.pages += count } }
        }
        let work = try sampleSiteCopy()
        let recorder = Recorder()
        let report = try SiteBuild(
            BuildOptions(
                store: work.path("store"), templates: work.path("templates"),
                output: work.path("site"))
        ).run(observer: recorder)
        let log = recorder.log.withLock { $0 }
        #expect(
            log.phases == [
                "stamp inputs", "read and decode store", "derive", "search index", "captions", "fingerprints",
                "render and stage", "commit",
            ])
        #expect(log.total == report.pages && log.pages == report.pages)
    }
}

@Suite("SiteBuild: rebuilds equal clean builds")
struct RebuildTests {
    /// Pages whose fingerprint is unchanged are kept without rendering; after edits to the
    /// store and to a template, the rebuilt folder must still equal a clean build.
    @Test func aRebuildAfterEditsEqualsACleanBuild() throws {
        let work = try sampleSiteCopy()
        let manager = FileManager.default
        try build(work, "site")

        // A caption, a user's name, a like removed, and a template.
        let tweet = work.path("store/tweets/n3ic8PbbaJl0077osRzU.json")
        let text = try String(contentsOfFile: tweet, encoding: .utf8)
        try text.replacingOccurrences(of: "\"caption\": \"", with: "\"caption\": \"Edited: ").write(
            toFile: tweet, atomically: true, encoding: .utf8)
        let user = work.path("store/users/RPQ0h7aH1QHgf6OBwvJ9MzIV3tRQ.json")
        let profile = try String(contentsOfFile: user, encoding: .utf8)
        try profile.replacingOccurrences(of: "\"fullname\": \"", with: "\"fullname\": \"Dr. ").write(
            toFile: user, atomically: true, encoding: .utf8)
        let likes = try manager.contentsOfDirectory(
            atPath: work.path("store/users/BhtKqgSnflkTw1Dd131iQbCsedZi/user-likes"))
        try manager.removeItem(
            atPath: work.path("store/users/BhtKqgSnflkTw1Dd131iQbCsedZi/user-likes/\(likes.sorted()[0])"))
        let rebuilt = try build(work, "site")
        #expect((rebuilt.summary?.written ?? 0) > 0)
        try build(work, "clean")
        #expect(differing(work, "site", "clean").isEmpty)

        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- v2 -->\n").write(
            toFile: card, atomically: true, encoding: .utf8)
        try build(work, "site")
        try manager.removeItem(atPath: work.path("clean"))
        try build(work, "clean")
        #expect(differing(work, "site", "clean").isEmpty)
        #expect(
            work.files("site")["index.html"].map { String(decoding: $0, as: UTF8.self).contains("<!-- v2 -->") } == true
        )
    }
}

@Suite("SiteBuild: nothing to do when nothing changed")
struct UnchangedInputsTests {
    /// A copy of the sample store and theme, old enough (over a second) for its file times to
    /// be trusted.
    static func workspace() throws -> TemporaryFolder {
        let work = try sampleSiteCopy()
        Thread.sleep(forTimeInterval: 1.2)
        return work
    }

    @Test func theSecondBuildSkipsEverythingUntilAnInputChanges() throws {
        let work = try Self.workspace()
        try build(work, "site")
        let built = work.files("site")
        #expect(try build(work, "site").outcome == .nothingChanged)
        #expect(work.files("site") == built)

        // An option: a real build (which keeps its pages, since none changed bytes)…
        #expect(try build(work, "site", config: SiteConfig(pageSize: 5)).outcome != .nothingChanged)
        #expect(try build(work, "site").outcome != .nothingChanged)
        #expect(try build(work, "site").outcome == .nothingChanged)

        // An output file deleted or edited by hand is put back.
        try FileManager.default.removeItem(atPath: work.path("site/index.html"))
        #expect(try build(work, "site").summary?.written == 1)
        try "edited".write(toFile: work.path("site/tags/swift/index.html"), atomically: false, encoding: .utf8)
        #expect(try build(work, "site").summary?.written == 1)
        #expect(work.files("site") == built)

        // A template.
        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- v3 -->\n").write(
            toFile: card, atomically: true, encoding: .utf8)
        let restyled = try build(work, "site")
        #expect((restyled.summary?.written ?? 0) > 0)
    }

    /// An edit that keeps the file's size and even its modification time is still seen.
    @Test func aSameSizeEditIsRebuiltLikeACleanBuild() throws {
        let work = try Self.workspace()
        try build(work, "site")
        let tweet = work.path("store/tweets/n3ic8PbbaJl0077osRzU.json")
        let old = try FileManager.default.attributesOfItem(atPath: tweet)[.modificationDate] as! Date
        let text = try String(contentsOfFile: tweet, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "Hot take", with: "Hot TAKE")
        #expect(edited != text && edited.utf8.count == text.utf8.count)
        try edited.write(toFile: tweet, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: tweet)
        #expect((try build(work, "site").summary?.written ?? 0) > 0)
        try build(work, "clean")
        #expect(differing(work, "site", "clean").isEmpty)
    }

    /// A store file dated after the last build's stamp (a clock ahead, a copy with times
    /// kept) could change again unseen: such a store is always read.
    @Test func aStoreWithFileTimesInTheFutureIsAlwaysRead() throws {
        let work = try Self.workspace()
        let future = Date().addingTimeInterval(3600)
        try FileManager.default.setAttributes(
            [.modificationDate: future],
            ofItemAtPath: work.path("store/tweets/n3ic8PbbaJl0077osRzU.json"))
        try build(work, "site")
        let again = try build(work, "site")
        #expect(again.outcome != .nothingChanged && again.summary?.written == 0)
    }
}

@Suite("SiteBuild: URLs and mistakes")
struct SiteBuildURLTests {
    @Test func aPathOnlyBaseWritesNoSitemapAndSaysSo() throws {
        let work = try sampleSiteCopy()
        let report = try build(work, "path")
        #expect(work.files("path")["sitemap.xml"] == nil)
        #expect(report.notices == [.noSitemap(baseURL: "/")])
        let absolute = try build(work, "absolute", config: SiteConfig(baseURL: "https://example.com/"))
        #expect(work.files("absolute")["sitemap.xml"] != nil && absolute.notices.isEmpty)
    }

    @Test func theOutputMayNotBeInsideTheStoreOrTheTheme() throws {
        let work = try sampleSiteCopy()
        for inside in ["store", "store/site", "templates/x/y", "store/../store/out"] {
            #expect(throws: BuildError.self, "\(inside)") { try build(work, inside) }
        }
        #expect(!FileManager.default.fileExists(atPath: work.path("store/site")))
        #expect(try build(work, "store-site").summary != nil, "a sibling whose name starts the same is fine")
    }
}
