import Foundation
import Testing

@Suite("roost build")
struct BuildCommandTests {
    /// Every file under `folder` (but Roost's own bookkeeping), with its bytes.
    static func files(_ folder: String) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard !relative.hasPrefix(".roost-"), FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { continue }
            found[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
        }
        return found
    }

    @Test func buildsTheSampleSiteDeterministicallyAndSkipsUnchangedFiles() throws {
        let out = try TemporaryFolder()
        let first = try RoostProcess.run(["build", "--output", out.path("a")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("0 unchanged"))
        let again = try RoostProcess.run(["build", "--output", out.path("b")])
        #expect(again.status == 0)
        let a = Self.files(out.path("a")), b = Self.files(out.path("b"))
        #expect(a.count > 100 && a == b, "two builds of the same store are byte-identical")

        let second = try RoostProcess.run(["build", "--output", out.path("a")])
        #expect(second.stdout.contains(" 0 written") || second.stdout.contains("nothing changed"), "\(second.stdout)")
        #expect(Self.files(out.path("a")) == a)
    }

    @Test func shardsTogetherAreTheWholeSite() throws {
        let out = try TemporaryFolder()
        #expect(try RoostProcess.run(["build", "--quiet", "--output", out.path("full")]).status == 0)
        var union: [String: Data] = [:]
        for k in 1...3 {
            let result = try RoostProcess.run(["build", "--quiet", "--shard", "\(k)/3", "--output", out.path("part\(k)")])
            #expect(result.status == 0, "\(result.stderr)")
            let part = Self.files(out.path("part\(k)"))
            #expect(!part.isEmpty)
            #expect(Set(part.keys).isDisjoint(with: union.keys), "shards do not overlap")
            union.merge(part) { first, _ in first }
        }
        #expect(union == Self.files(out.path("full")))
        #expect(try RoostProcess.run(["build", "--shard", "4/3"]).status == 2)
    }

    @Test func aFailedBuildLeavesTheOutputAsItWas() throws {
        let out = try TemporaryFolder()
        #expect(try RoostProcess.run(["build", "--quiet", "--output", out.path("site")]).status == 0)
        let before = Self.files(out.path("site"))
        let store = try TemporaryFolder()
        try store.write("users/u1.json", "{\"username\": ")
        let failed = try RoostProcess.run(["build", "--store", store.path(), "--output", out.path("site")])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("users/u1.json:1:14"))
        #expect(Self.files(out.path("site")) == before)
    }
}

@Suite("roost build: rebuilds equal clean builds")
struct RebuildTests {
    /// Paths whose bytes differ between two folders (short, for a readable failure).
    static func differing(_ a: String, _ b: String) -> [String] {
        let x = BuildCommandTests.files(a), y = BuildCommandTests.files(b)
        return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
    }

    /// Pages whose fingerprint is unchanged are kept without rendering; after edits to the
    /// store and to a template, the rebuilt folder must still equal a clean build.
    /// A copy of the sample store (`store/`) and theme (`templates/`) in a new folder.
    static func sampleSiteCopy() throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        let manager = FileManager.default
        try manager.removeItem(at: work.url)
        try manager.createDirectory(at: work.url, withIntermediateDirectories: true)
        try manager.copyItem(atPath: RoostProcess.packageRoot.path + "/content", toPath: work.path("store"))
        try manager.copyItem(atPath: RoostProcess.packageRoot.path + "/templates", toPath: work.path("templates"))
        return work
    }

    @Test func aRebuildAfterEditsEqualsACleanBuild() throws {
        let work = try Self.sampleSiteCopy()
        let manager = FileManager.default
        func build(_ output: String) throws -> RoostProcess.Result {
            try RoostProcess.run(["build", "--store", work.path("store"), "--templates", work.path("templates"), "--output", work.path(output)])
        }
        #expect(try build("site").status == 0)

        // A caption, a user's name, a like removed, and a template.
        let tweet = work.path("store/tweets/n3ic8PbbaJl0077osRzU.json")
        let text = try String(contentsOfFile: tweet, encoding: .utf8)
        try text.replacingOccurrences(of: "\"caption\": \"", with: "\"caption\": \"Edited: ").write(toFile: tweet, atomically: true, encoding: .utf8)
        let user = work.path("store/users/RPQ0h7aH1QHgf6OBwvJ9MzIV3tRQ.json")
        let profile = try String(contentsOfFile: user, encoding: .utf8)
        try profile.replacingOccurrences(of: "\"fullname\": \"", with: "\"fullname\": \"Dr. ").write(toFile: user, atomically: true, encoding: .utf8)
        let likes = try manager.contentsOfDirectory(atPath: work.path("store/users/BhtKqgSnflkTw1Dd131iQbCsedZi/user-likes"))
        try manager.removeItem(atPath: work.path("store/users/BhtKqgSnflkTw1Dd131iQbCsedZi/user-likes/\(likes.sorted()[0])"))
        let rebuilt = try build("site")
        #expect(rebuilt.status == 0)
        #expect(!rebuilt.stdout.contains(" 0 written"))
        #expect(try build("clean").status == 0)
        #expect(Self.differing(work.path("site"), work.path("clean")).isEmpty)

        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- v2 -->\n").write(toFile: card, atomically: true, encoding: .utf8)
        #expect(try build("site").status == 0)
        try manager.removeItem(atPath: work.path("clean"))
        #expect(try build("clean").status == 0)
        let site = BuildCommandTests.files(work.path("site"))
        #expect(Self.differing(work.path("site"), work.path("clean")).isEmpty)
        #expect(site["index.html"].map { String(decoding: $0, as: UTF8.self).contains("<!-- v2 -->") } == true)
    }
}

@Suite("roost build: nothing to do when nothing changed")
struct UnchangedInputsTests {
    /// A copy of the sample store and theme, old enough (over a second) for its file times to
    /// be trusted.
    static func workspace() throws -> TemporaryFolder {
        let work = try RebuildTests.sampleSiteCopy()
        Thread.sleep(forTimeInterval: 1.2)
        return work
    }

    static func build(_ work: TemporaryFolder, _ output: String, _ extra: [String] = []) throws -> RoostProcess.Result {
        try RoostProcess.run(["build", "--store", work.path("store"), "--templates", work.path("templates"),
                              "--output", work.path(output)] + extra)
    }

    @Test func theSecondBuildSkipsEverythingUntilAnInputChanges() throws {
        let work = try Self.workspace()
        #expect(try Self.build(work, "site").status == 0)
        let built = BuildCommandTests.files(work.path("site"))
        let again = try Self.build(work, "site")
        #expect(again.status == 0 && again.stdout.contains("nothing changed"), "\(again.stdout)")
        #expect(BuildCommandTests.files(work.path("site")) == built)

        // An option: a real build (which keeps its pages, since none changed bytes)…
        let other = try Self.build(work, "site", ["--page-size", "5"])
        #expect(other.status == 0 && !other.stdout.contains("nothing changed"), "\(other.stdout)")
        #expect(!(try Self.build(work, "site")).stdout.contains("nothing changed"))
        #expect(try Self.build(work, "site").stdout.contains("nothing changed"))

        // An output file deleted or edited by hand is put back.
        try FileManager.default.removeItem(atPath: work.path("site/index.html"))
        let repaired = try Self.build(work, "site")
        #expect(repaired.stdout.contains(" 1 written"), "\(repaired.stdout)")
        try "edited".write(toFile: work.path("site/tags/swift/index.html"), atomically: false, encoding: .utf8)
        let restored = try Self.build(work, "site")
        #expect(restored.stdout.contains(" 1 written"), "\(restored.stdout)")
        #expect(BuildCommandTests.files(work.path("site")) == built)

        // A template.
        let card = work.path("templates/partials/card.mustache")
        try (try String(contentsOfFile: card, encoding: .utf8) + "<!-- v3 -->\n").write(toFile: card, atomically: true, encoding: .utf8)
        let restyled = try Self.build(work, "site")
        #expect(!restyled.stdout.contains("nothing changed") && !restyled.stdout.contains(" 0 written"), "\(restyled.stdout)")
    }

    /// An edit that keeps the file's size and even its modification time is still seen.
    @Test func aSameSizeEditIsRebuiltLikeACleanBuild() throws {
        let work = try Self.workspace()
        #expect(try Self.build(work, "site").status == 0)
        let tweet = work.path("store/tweets/n3ic8PbbaJl0077osRzU.json")
        let old = try FileManager.default.attributesOfItem(atPath: tweet)[.modificationDate] as! Date
        let text = try String(contentsOfFile: tweet, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "Hot take", with: "Hot TAKE")
        #expect(edited != text && edited.utf8.count == text.utf8.count)
        try edited.write(toFile: tweet, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: tweet)
        let rebuilt = try Self.build(work, "site")
        #expect(!rebuilt.stdout.contains("nothing changed") && !rebuilt.stdout.contains(" 0 written"), "\(rebuilt.stdout)")
        #expect(try Self.build(work, "clean").status == 0)
        #expect(RebuildTests.differing(work.path("site"), work.path("clean")).isEmpty)
    }

    /// A store file dated after the last build's stamp (a clock ahead, a copy with times
    /// kept) could change again unseen: such a store is always read.
    @Test func aStoreWithFileTimesInTheFutureIsAlwaysRead() throws {
        let work = try Self.workspace()
        let future = Date().addingTimeInterval(3600)
        try FileManager.default.setAttributes([.modificationDate: future],
                                              ofItemAtPath: work.path("store/tweets/n3ic8PbbaJl0077osRzU.json"))
        #expect(try Self.build(work, "site").status == 0)
        let again = try Self.build(work, "site")
        #expect(again.status == 0 && !again.stdout.contains("nothing changed") && again.stdout.contains(" 0 written"),
                "\(again.stdout)")
    }
}
