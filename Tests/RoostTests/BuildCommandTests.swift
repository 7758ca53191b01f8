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
        #expect(second.stdout.contains(" 0 written"), "\(second.stdout)")
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
