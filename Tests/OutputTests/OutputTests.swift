import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Output

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SiteWriterTests {
    let site: [String: String] = [
        "index.html": "<h1>home</h1>",
        "users/alice/index.html": "<h1>alice</h1>",
        "users/bob/index.html": "<h1>bob</h1>",
        "css/site.css": "body{}",
    ]

    @Test func firstBuildWritesEverythingAndAManifest() throws {
        let t = try TemporaryFolder()
        let summary = try build(t.output, site)
        #expect(
            summary
                == WriteSummary(
                    written: 4, unchanged: 0, removed: 0, bytesWritten: site.values.map(\.utf8.count).reduce(0, +)))
        for (path, content) in site { #expect(read(t.outputPath(path)) == content) }
        let manifest = try #require(read(t.outputPath(".roost-manifest")))
        let lines = manifest.split(separator: "\n").map(String.init)
        #expect(lines.first == "# roost-manifest 2")
        let entries = lines.dropFirst()
        #expect(
            entries.map { $0.split(separator: " ", maxSplits: 3)[3] } == [
                "css/site.css", "index.html", "users/alice/index.html", "users/bob/index.html",
            ])
        let index = try #require(entries.first { $0.hasSuffix(" index.html") && !$0.contains("/") })
        let expectedHash = String(ContentHash.hash("<h1>home</h1>"), radix: 16)
        #expect(index == String(repeating: "0", count: 16 - expectedHash.count) + expectedHash + " 13 - index.html")
        #expect(
            Set(listing(t.output).keys)
                == Set(site.keys).union([".roost-manifest", "users", "users/alice", "users/bob", "css"]),
            "no staging folder or lock file is left")
    }

    /// `expect(files:)` only makes room: told too many or too few, a build is the same.
    @Test(arguments: [0, 2, 1000])
    func aWriterToldHowManyFilesToExpectWritesTheSame(files: Int) throws {
        let (told, plain) = (try TemporaryFolder(), try TemporaryFolder())
        let writer = try SiteWriter(outputDirectory: told.output)
        writer.expect(files: files)
        for (path, content) in site { _ = try writer.write(path, Array(content.utf8)) }
        #expect(try writer.commit() == (try build(plain.output, site)))
        for path in site.keys + [".roost-manifest"] {
            #expect(read(told.outputPath(path)) == read(plain.outputPath(path)), "\(path)")
        }
    }

    @Test func secondIdenticalBuildTouchesNothing() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        let before = site.keys.map { FileIdentity(t.outputPath($0)) }
        let manifestBefore = read(t.outputPath(".roost-manifest"))
        let manifestIdentity = FileIdentity(t.outputPath(".roost-manifest"))
        usleep(20_000)
        let writer = try SiteWriter(outputDirectory: t.output)
        for (path, content) in site { #expect(try writer.write(path, content) == .unchanged) }
        let summary = try writer.commit()
        #expect(summary == WriteSummary(written: 0, unchanged: 4, removed: 0, bytesWritten: 0))
        #expect(site.keys.map { FileIdentity(t.outputPath($0)) } == before)
        #expect(read(t.outputPath(".roost-manifest")) == manifestBefore)
        #expect(
            FileIdentity(t.outputPath(".roost-manifest")) == manifestIdentity,
            "an unchanged build does not rewrite the manifest")
    }

    @Test func changedFileIsRewritten() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        var next = site
        next["index.html"] = "<h1>HOME</h1>"  // same size, other content
        next["css/site.css"] = "body{color:red}"
        let writer = try SiteWriter(outputDirectory: t.output)
        for (path, content) in next {
            let outcome = try writer.write(path, content)
            #expect(outcome == (site[path] == content ? .unchanged : .written), "\(path)")
        }
        #expect(try writer.commit() == WriteSummary(written: 2, unchanged: 2, removed: 0, bytesWritten: 13 + 15))
        #expect(read(t.outputPath("index.html")) == "<h1>HOME</h1>")
        #expect(read(t.outputPath("css/site.css")) == "body{color:red}")
    }

    @Test func fileChangedOnDiskBehindOurBackIsRewritten() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        put(t.outputPath("index.html"), "truncated")
        unlink(t.outputPath("css/site.css"))
        #expect(try build(t.output, site) == WriteSummary(written: 2, unchanged: 2, removed: 0, bytesWritten: 13 + 6))
        #expect(read(t.outputPath("index.html")) == "<h1>home</h1>")
        #expect(read(t.outputPath("css/site.css")) == "body{}")
        // The repaired files were recorded as known again (the final manifest replaced the
        // intent, though it equals the old one), so a third build touches nothing.
        #expect(read(t.outputPath(".roost-manifest"))?.contains("- 0 -") == false)
        #expect(try build(t.output, site).written == 0)
    }

    /// Files replacing the last build's are staged flat, new ones at their paths: when their
    /// folder is gone from the output (removed by hand), both kinds still land in it.
    @Test func aFolderRemovedByHandGetsBackItsReplacedAndItsNewFiles() throws {
        let t = try TemporaryFolder()
        var first = site
        first["users/alice/likes.html"] = "<p>likes</p>"
        try build(t.output, first)
        try FileManager.default.removeItem(atPath: t.outputPath("users/alice"))
        var next = first
        next["users/alice/index.html"] = "<h1>Alice</h1>"  // replaced: staged flat
        next["users/alice/about.html"] = "<p>new</p>"  // new, and first in the folder: staged at its path
        // (`likes.html` has the same bytes, but is not on disk: staged flat too.)
        #expect(try build(t.output, next) == WriteSummary(written: 3, unchanged: 3, removed: 0, bytesWritten: 36))
        #expect(
            listing(t.output).filter { $0.value.hasPrefix("f:") && $0.key != ".roost-manifest" }
                == next.mapValues { "f:" + $0 })
        #expect(try build(t.output, next).written == 0)
    }

    /// Two paths with one flat name (a 64-bit hash collision, made here by hand): the second
    /// is staged at its own path, and both land.
    @Test func aFlatNameTakenAlreadyStagesTheFileAtItsPath() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        let writer = try SiteWriter(outputDirectory: t.output)
        let taken = writer.stagingName + "/" + SiteWriter.flatName(of: "users/bob/index.html")
        put(t.outputPath(taken), "someone else's")
        var next = site
        next["users/bob/index.html"] = "<h1>Bob</h1>"
        for (path, content) in next { _ = try writer.write(path, content) }
        #expect(exists(t.outputPath(writer.stagingName + "/users/bob/index.html")))
        #expect(try writer.commit().written == 1)
        #expect(read(t.outputPath("users/bob/index.html")) == "<h1>Bob</h1>")
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging") })
    }

    /// Enough files replaced that their old copies are removed by many threads at once: each
    /// path holds its new bytes, and nothing staged is left behind.
    @Test func manyFilesReplacedLeaveOnlyTheirNewBytes() throws {
        let t = try TemporaryFolder()
        let paths = (0..<2_000).map { "t/\($0)/index.html" }
        try build(t.output, Dictionary(uniqueKeysWithValues: paths.map { ($0, "old \($0)") }))
        let next = Dictionary(uniqueKeysWithValues: paths.map { ($0, "new \($0)") })
        #expect(try build(t.output, next).written == paths.count)
        let files = listing(t.output).filter { $0.value.hasPrefix("f:") && $0.key != ".roost-manifest" }
        #expect(files == next.mapValues { "f:" + $0 })
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging") })
    }

    /// Enough files no longer produced that they are removed by many threads at once: each
    /// is gone with its folder, counted once, and the manifest no longer lists it.
    @Test func manyFilesNoLongerProducedAreRemovedWithTheirFolders() throws {
        let t = try TemporaryFolder()
        let paths = (0..<2_000).map { "t/\($0)/index.html" }
        var first = Dictionary(uniqueKeysWithValues: paths.map { ($0, "page \($0)") })
        first["index.html"] = "home"
        try build(t.output, first)
        let kept = Dictionary(uniqueKeysWithValues: paths.prefix(10).map { ($0, "page \($0)") })
        let next = kept.merging(["index.html": "home"]) { a, _ in a }
        #expect(try build(t.output, next) == WriteSummary(written: 0, unchanged: 11, removed: 1_990, bytesWritten: 0))
        var expected = next.mapValues { "f:" + $0 }
        expected["t"] = "d"
        for k in 0..<10 { expected["t/\(k)"] = "d" }
        #expect(listing(t.output).filter { $0.key != ".roost-manifest" } == expected)
        let entries = read(t.outputPath(".roost-manifest"))?.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(entries?.count == 11)
        #expect(try build(t.output, next) == WriteSummary(written: 0, unchanged: 11, removed: 0, bytesWritten: 0))
    }

    @Test func fileNoLongerProducedIsRemovedWithItsEmptyFolders() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        var next = site
        next["users/alice/index.html"] = nil
        next["users/bob/index.html"] = nil
        #expect(try build(t.output, next).removed == 2)
        #expect(!exists(t.outputPath("users/alice/index.html")))
        #expect(!exists(t.outputPath("users")), "folders left empty are removed")
        #expect(read(t.outputPath("index.html")) == "<h1>home</h1>")
        #expect(!(read(t.outputPath(".roost-manifest")) ?? "").contains("users/"))
    }

    /// A path written in another Unicode form (a tag `café` with é as e and an accent) is
    /// another file on disk, though equal as a Swift string: the old one is removed, and
    /// the manifest lists the new one. (The old one was once kept, listed under the new.)
    @Test func aPathInAnotherUnicodeFormReplacesTheOldFile() throws {
        let t = try TemporaryFolder()
        let (composed, decomposed) = ("tags/caf\u{E9}/index.html", "tags/cafe\u{301}/index.html")
        try #require(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        try build(t.output, ["index.html": "home", composed: "<h1>café</h1>"])
        let summary = try build(t.output, ["index.html": "home", decomposed: "<h1>café</h1>"])
        #expect(summary.removed == 1 && summary.written == 1)
        let tags = try FileManager.default.contentsOfDirectory(atPath: t.outputPath("tags"))
        #expect(tags.map { Array($0.utf8) } == [Array("cafe\u{301}".utf8)])
        let manifest = try #require(FileManager.default.contents(atPath: t.outputPath(".roost-manifest")))
        #expect(manifest.firstRange(of: Data(decomposed.utf8)) != nil)
        #expect(manifest.firstRange(of: Data(composed.utf8)) == nil)
    }

    @Test func filesNotInTheManifestAreNeverRemoved() throws {
        let t = try TemporaryFolder()
        put(t.outputPath("CNAME"), "example.org")
        try build(t.output, site)
        put(t.outputPath("users/alice/notes.txt"), "mine")
        put(t.outputPath("users/bob/index.html.bak"), "mine too")
        #expect(try build(t.output, ["index.html": "<h1>home</h1>"]).removed == 3)
        #expect(read(t.outputPath("CNAME")) == "example.org")
        #expect(read(t.outputPath("users/alice/notes.txt")) == "mine")
        #expect(read(t.outputPath("users/bob/index.html.bak")) == "mine too")
        #expect(!exists(t.outputPath("users/alice/index.html")))
        #expect(!exists(t.outputPath("css")))
    }

    @Test func abandonLeavesTheFolderByteIdentical() throws {
        let t = try TemporaryFolder()
        put(t.outputPath("CNAME"), "example.org")
        try build(t.output, site)
        let before = listing(t.output)
        let writer = try SiteWriter(outputDirectory: t.output)
        _ = try writer.write("index.html", "<h1>changed</h1>")
        _ = try writer.write("new/page.html", "new")
        _ = try writer.write("users/bob/index.html", "<h1>bob</h1>")
        writer.abandon()
        #expect(listing(t.output) == before)
        #expect(throws: OutputError.finished(directory: t.output + "/")) { try writer.write("x.html", "x") }
        #expect(throws: OutputError.finished(directory: t.output + "/")) { try writer.commit() }
    }

    @Test func abandonOnAFolderNeverBuiltLeavesItAsItWas() throws {
        let t = try TemporaryFolder()
        put(t.outputPath("CNAME"), "example.org")
        let before = listing(t.output)
        let writer = try SiteWriter(outputDirectory: t.output)
        _ = try writer.write("index.html", "x")
        writer.abandon()
        #expect(listing(t.output) == before)
    }

    @Test func droppingTheWriterWithoutCommitAbandons() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        let before = listing(t.output)
        do {
            let writer = try SiteWriter(outputDirectory: t.output)
            _ = try writer.write("index.html", "<h1>changed</h1>")
        }
        #expect(listing(t.output) == before)
        // and the lock was released
        try build(t.output, site)
    }

    @Test(arguments: [
        "../x", "/abs", "a/../../b", "a//b", "a/./b", "./a", "a/", "", "a\0b", "a\\b", "a\nb",
        ".roost-manifest", ".roost-lock", "sub/.roost-staging-1/x", "..", ".",
        String(repeating: "n", count: 256),
    ])
    func unsafePathsAreRefused(_ path: String) throws {
        let t = try TemporaryFolder()
        try build(t.output, ["index.html": "x"])
        let before = listing(t.path())
        let writer = try SiteWriter(outputDirectory: t.output)
        do {
            _ = try writer.write(path, "evil")
            Issue.record("\(path.debugDescription) was accepted")
        } catch {
            guard case .unsafePath(let refused, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(refused == path)
            #expect(error.description.hasPrefix("refusing to write \""))
        }
        _ = try writer.write("index.html", "x")
        #expect(try writer.commit() == WriteSummary(written: 0, unchanged: 1, removed: 0, bytesWritten: 0))
        #expect(listing(t.path()) == before)
    }

    /// Each refused path is told its first problem, in the order of its bytes.
    @Test func aRefusedPathIsToldItsFirstProblem() {
        let expected: [(String, String)] = [
            ("", "the path is empty"),
            ("/a\0", "the path is absolute; give it relative to the output folder"),
            ("a//b", "the path has an empty segment (\"//\", or a trailing \"/\")"),
            ("a/", "the path has an empty segment (\"//\", or a trailing \"/\")"),
            ("./a", "the path has a \".\" segment"),
            ("a/..", "the path has a \"..\" segment"),
            ("a\0/..", "the path contains a NUL byte"),
            ("../a\\b", "the path has a \"..\" segment"),
            ("a\\b\0", "the path contains a backslash; use \"/\" between folders"),
            ("a/b\rc", "the path contains a line break"),
            ("x/.roost-a\0", "names starting with \".roost-\" are reserved for roost's own files"),
            ("x/.roos\n-a", "the path contains a line break"),
            ("x/a.roost-/" + String(repeating: "n", count: 256), "a path segment is longer than 255 bytes"),
        ]
        for (path, problem) in expected {
            #expect(PathRules.problem(with: path) == problem, "\(path.debugDescription)")
        }
    }

    @Test func ordinaryPathsAreAccepted() {
        for path in [
            ".well-known/security.txt", "a..b/c", "...", ".roost", "roost-x/.roostx", "a b/ü.html",
            String(repeating: "n", count: 255),
        ] {
            #expect(PathRules.problem(with: path) == nil, "\(path)")
        }
    }

    @Test func writingAPathTwiceIsAnError() throws {
        let t = try TemporaryFolder()
        let writer = try SiteWriter(outputDirectory: t.output)
        _ = try writer.write("a.html", "1")
        #expect(throws: OutputError.duplicatePath("a.html")) { try writer.write("a.html", "2") }
        writer.abandon()
    }

    @Test func aSecondWriterIsLockedOut() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        do {
            _ = try SiteWriter(outputDirectory: t.output + "/")
            Issue.record("second writer opened")
        } catch {
            #expect(error == .locked(directory: t.output + "/", pid: getpid()))
            #expect(
                error.description
                    == "\(t.output)/ is being written by another roost build (pid \(getpid())); wait for it to finish")
        }
        _ = try first.write("a.html", "a")
        _ = try first.commit()
        let third = try SiteWriter(outputDirectory: t.output)  // released by commit
        third.abandon()
    }

    @Test func staleStagingFoldersAreRemovedOnceTheLockIsHeld() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        let dead: Int32 = 2_147_483_000  // above any pid_max
        put(t.outputPath(".roost-staging-\(dead)/0"), "half a fi")
        put(t.outputPath(".roost-staging-\(dead)/1"), "another")
        put(t.outputPath(".roost-staging-1/0"), "pid 1 is alive, but a container may reuse a dead build's pid")
        let writer = try SiteWriter(outputDirectory: t.output)
        #expect(!exists(t.outputPath(".roost-staging-\(dead)")))
        #expect(!exists(t.outputPath(".roost-staging-1")), "with the lock held, no other build can be writing")
        writer.abandon()
    }

    @Test func outputFolderThatCannotBeCreatedGivesAClearError() throws {
        let t = try TemporaryFolder()
        put(t.path("file"), "not a folder")
        let before = listing(t.path())
        do {
            _ = try SiteWriter(outputDirectory: t.path("file/public"))
            Issue.record("opened a folder under a file")
        } catch {
            #expect(error.errnoCode == ENOTDIR)
            #expect(error.description.contains(t.path("file/public") + "/"))
            #expect(error.description.contains("Not a directory"))
        }
        #expect(listing(t.path()) == before)
    }

    @Test(.enabled(if: !runningAsRoot, "permission bits do not stop root; the next test fails the same way as root"))
    func readOnlyOutputFolderGivesAClearErrorAndChangesNothing() throws {
        let t = try TemporaryFolder()
        defer { chmod(t.output, 0o755) }
        try build(t.output, site)
        let before = listing(t.output)
        chmod(t.output, 0o555)
        do {
            _ = try build(t.output, ["index.html": "changed"])
            Issue.record("wrote into a read-only folder")
        } catch let error as OutputError {
            #expect(error.errnoCode == EACCES)
            #expect(error.description.contains(t.output + "/"))
        }
        chmod(t.output, 0o755)
        #expect(listing(t.output) == before)
    }

    /// The read-only folder's failure (the lock file cannot be made) for root too: a folder
    /// where the lock file goes.
    @Test func aLockFileThatCannotBeMadeGivesAClearErrorAndChangesNothing() throws {
        let t = try TemporaryFolder()
        try build(t.output, site)
        try FileManager.default.createDirectory(atPath: t.outputPath(".roost-lock"), withIntermediateDirectories: false)
        let before = listing(t.output)
        do {
            _ = try build(t.output, ["index.html": "changed"])
            Issue.record("built without taking the lock")
        } catch let error as OutputError {
            #expect(error.errnoCode == EISDIR)
            #expect(error.description.contains(t.outputPath(".roost-lock") + ":"))
            #expect(error.description.contains("a folder is in the way"))
        }
        #expect(listing(t.output) == before)
    }

    @Test func aFileInTheWayFailsTheCommitAndLeavesThingsConsistent() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["a.html": "a", "z.html": "z"])
        put(t.outputPath("blocked"), "the user's file")
        let writer = try SiteWriter(outputDirectory: t.output)
        _ = try writer.write("a.html", "A")  // before the failure in path order: not moved either
        _ = try writer.write("blocked/x.html", "x")  // fails: `blocked` is a file
        _ = try writer.write("z.html", "Z")  // after the failure: not moved
        do {
            _ = try writer.commit()
            Issue.record("commit succeeded")
        } catch {
            #expect(error.errnoCode == ENOTDIR)
            #expect(error.description.contains(t.output + "/blocked"))
        }
        #expect(read(t.outputPath("a.html")) == "a")
        #expect(read(t.outputPath("z.html")) == "z")
        #expect(read(t.outputPath("blocked")) == "the user's file")
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging") || $0.hasSuffix(".tmp") })
        // the manifest says what is on disk: the next build is correct
        #expect(
            try build(t.output, ["a.html": "A", "z.html": "Z"])
                == WriteSummary(written: 2, unchanged: 0, removed: 0, bytesWritten: 2))
    }

    /// Files replaced in place (exchanged with their staged copies where the file system can):
    /// the new bytes at each path, the old ones gone, a reader of an old file keeping what it
    /// opened, and nothing of the commit left beside them.
    @Test func replacedFilesTakeTheirPlaceAtomicallyAndLeaveNothingBehind() throws {
        let t = try TemporaryFolder()
        let old = ["index.html": "home", "t/1/index.html": "one", "t/2/index.html": "two"]
        try build(t.output, old)
        let reader = open(t.outputPath("t/1/index.html"), O_RDONLY)
        defer { close(reader) }
        let summary = try build(t.output, ["index.html": "home", "t/1/index.html": "ONE", "t/2/index.html": "TWO!"])
        #expect(summary.written == 2 && summary.unchanged == 1)
        var bytes = [UInt8](repeating: 0, count: 8)
        #expect(read(reader, &bytes, 8) == 3 && Array(bytes[..<3]) == Array("one".utf8))
        let files = listing(t.output).filter { !$0.key.hasPrefix(".roost-manifest") && $0.value != "d" }
        #expect(files == ["index.html": "f:home", "t/1/index.html": "f:ONE", "t/2/index.html": "f:TWO!"])
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging") || $0.hasSuffix(".tmp") })
        #expect(
            try build(t.output, ["index.html": "home", "t/1/index.html": "ONE", "t/2/index.html": "TWO!"]).written == 0)
    }

    /// A folder someone made where the last build wrote a file is not exchanged away with the
    /// new file: the commit fails on it, and what is in it stays.
    @Test func aFolderMadeInPlaceOfAFileIsNotTakenAway() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["a.html": "a", "b.html": "b"])
        try FileManager.default.removeItem(atPath: t.outputPath("a.html"))
        put(t.outputPath("a.html/mine.txt"), "the user's file")
        #expect(throws: OutputError.self) { try build(t.output, ["a.html": "A", "b.html": "b"]) }
        #expect(read(t.outputPath("a.html/mine.txt")) == "the user's file")
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging") || $0.hasSuffix(".tmp") })
    }

    @Test func aFileBecomesAFolderAndBack() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["about": "old", "blog/index.html": "blog", "blog/post/index.html": "post"])
        let summary = try build(t.output, ["about/index.html": "new", "blog": "flat"])
        #expect(summary.written == 2 && summary.removed == 3)
        #expect(read(t.outputPath("about/index.html")) == "new")
        #expect(read(t.outputPath("blog")) == "flat")
    }

    @Test func symlinkedParentFoldersAreNotWrittenThrough() throws {
        let t = try TemporaryFolder()
        mkdir(t.path("elsewhere"), 0o755)
        try build(t.output, ["index.html": "x"])
        symlink(t.path("elsewhere"), t.outputPath("linked"))
        let writer = try SiteWriter(outputDirectory: t.output)
        _ = try writer.write("linked/evil.html", "evil")
        #expect {
            _ = try writer.commit()
        } throws: { error in
            guard case OutputError.unsafePath(let path, let reason) = error else { return false }
            return path == "linked/evil.html" && reason.contains("symbolic link")
        }
        #expect(listing(t.path("elsewhere")).isEmpty)
    }

    /// A commit that cannot put a file in place fails before it moves any: a file or a link
    /// where one of its folders should be leaves the output exactly as it was (SPEC 6), not
    /// with the files before it in path order replaced.
    @Test func aCommitThatCannotFinishChangesNothing() throws {
        for obstacle in ["a file", "a link"] {
            let t = try TemporaryFolder()
            mkdir(t.path("elsewhere"), 0o755)
            try build(t.output, ["a.html": "old a", "t/x/index.html": "old x", "z.html": "old z"])
            try FileManager.default.removeItem(atPath: t.outputPath("t"))
            if obstacle == "a file" {
                put(t.outputPath("t"), "the user's file")
            } else {
                symlink(t.path("elsewhere"), t.outputPath("t"))
            }
            let before = listing(t.output)
            #expect(throws: OutputError.self, "\(obstacle)") {
                try build(t.output, ["a.html": "new a", "t/x/index.html": "new x", "z.html": "new z"])
            }
            #expect(listing(t.output) == before, "\(obstacle)")
            #expect(read(t.outputPath("a.html")) == "old a" && read(t.outputPath("z.html")) == "old z")
            #expect(listing(t.path("elsewhere")).isEmpty)
        }
    }

    /// A commit that fails partway through its moves (here on someone's folder where a new
    /// page goes, found only when its turn comes) puts back what the moves before it changed:
    /// a file exchanged, a folder moved in, a file of the last build moved aside for a folder;
    /// the manifest is the old one, byte for byte. The next build, the folder gone, finishes.
    @Test func aCommitThatFailsPartwayPutsTheOutputBack() throws {
        let t = try TemporaryFolder()
        let old = ["a.html": "old a", "c": "old c", "k.html": "old k", "z.html": "old z"]
        try build(t.output, old)
        put(t.outputPath("m.html/mine.txt"), "the user's file")
        let before = listing(t.output)
        let new = [
            "a.html": "new a", "b/index.html": "new b", "c/index.html": "new c", "k.html": "old k",
            "m.html": "new m", "z.html": "new z",
        ]
        do {
            _ = try build(t.output, new)
            Issue.record("moved a file over someone's folder")
        } catch let error as OutputError {
            #expect(error.errnoCode == EISDIR)
            #expect(error.description.contains(t.outputPath("m.html")))
        }
        #expect(listing(t.output) == before)
        try FileManager.default.removeItem(atPath: t.outputPath("m.html"))
        #expect(try build(t.output, new) == WriteSummary(written: 5, unchanged: 1, removed: 1, bytesWritten: 25))
        #expect(try build(t.output, new).written == 0)
    }

    /// A folder of the last build where a file now goes is moved aside only when it holds
    /// nothing but that build's files: with someone's file in it, nothing of it is removed.
    @Test func aFolderOfTheLastBuildWithSomeonesFileInItStays() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["0.html": "old 0", "a/index.html": "old a", "a/b/index.html": "old b"])
        put(t.outputPath("a/b/mine.txt"), "the user's file")
        let before = listing(t.output)
        #expect(throws: OutputError.self) { try build(t.output, ["0.html": "new 0", "a": "flat"]) }
        #expect(listing(t.output) == before)
        try FileManager.default.removeItem(atPath: t.outputPath("a/b/mine.txt"))
        #expect(try build(t.output, ["0.html": "new 0", "a": "flat"]).removed == 2)
        #expect(read(t.outputPath("a")) == "flat" && read(t.outputPath("0.html")) == "new 0")
    }

    @Test func dirtyManifestEntriesFromAnInterruptedCommitAreRewrittenOrRemoved() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["a.html": "a", "b.html": "b"])
        // What a commit killed after its intent manifest leaves: entries of unknown content.
        put(t.outputPath(".roost-manifest"), "# roost-manifest 1\n- 0 a.html\n- 0 b.html\n- 0 c.html\n")
        put(t.outputPath("c.html"), "c, moved in before the kill")
        let summary = try build(t.output, ["a.html": "a"])
        #expect(summary == WriteSummary(written: 1, unchanged: 0, removed: 2, bytesWritten: 1))
        #expect(!exists(t.outputPath("b.html")) && !exists(t.outputPath("c.html")))
    }

    @Test func concurrentWritesAllLand() throws {
        let t = try TemporaryFolder()
        let writer = try SiteWriter(outputDirectory: t.output)
        let count = 2_000
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do {
                _ = try writer.write("d\(i % 37)/e\(i % 5)/page-\(i).html", "page \(i)")
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try writer.commit().written == count)
        for i in 0..<count { #expect(read(t.outputPath("d\(i % 37)/e\(i % 5)/page-\(i).html")) == "page \(i)") }
        #expect(
            try build(
                t.output,
                Dictionary(
                    uniqueKeysWithValues: (0..<count).map { ("d\($0 % 37)/e\($0 % 5)/page-\($0).html", "page \($0)") })
            ).unchanged == count)
    }
}

@Suite struct ContentHashTests {
    @Test func valuesAreStable() {
        let hashes = ["", "a", "abc", "hello, world", "01234567", "0123456789abcdef", "<h1>home</h1>"]
            .map { String(ContentHash.hash($0), radix: 16) }
        #expect(
            hashes == [
                "ef46db3751d8e999", "d24ec4f1a98c6e5b", "c89525286f56deb4", "12dfb9de3205158a", "e4ba22a49ad89d3f",
                "5c5b90c34e376d0b", "aeea5ea6ead20d10",
            ])
    }

    @Test func doesNotDependOnAlignmentAndSeesEveryByte() {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let reference = (0...bytes.count).map { ContentHash.hash(Array(bytes[0..<$0])) }
        #expect(Set(reference).count == reference.count)
        var padded = [UInt8](repeating: 0, count: 3) + bytes
        padded.withUnsafeBytes { raw in
            for n in 0...bytes.count {
                #expect(ContentHash.hash(UnsafeRawBufferPointer(rebasing: raw[3..<(3 + n)])) == reference[n])
            }
        }
        for i in 0..<bytes.count {  // flipping any bit changes the hash
            padded = bytes
            padded[i] ^= 0x10
            #expect(ContentHash.hash(padded) != reference[bytes.count])
        }
    }

    /// The manifest is streamed to its file past 1 MiB at a time: the bytes are the ones
    /// `encode` makes whole.
    @Test func aStreamedManifestEqualsTheEncodedOne() throws {
        var entries: [String: ManifestEntry] = ["z": .dirty]
        for i in 0..<30_000 {
            entries["t/\(i * 7919 % 30_000)/index.html"] = ManifestEntry(
                hash: UInt64(i) &* 0x9e37_79b9_7f4a_7c15, size: i, fingerprint: i % 3 == 0 ? nil : UInt64(i))
        }
        let dir = try TemporaryFolder()
        let fd = open(dir.path("manifest"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var stream = ManifestStream(to: fd, inputs: "abc")
        for path in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            stream.append(path, entries[path]!)
        }
        #expect(stream.finish() == 0)
        close(fd)
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("manifest"))))
        #expect(written.count > 1 << 20)
        #expect(written == Manifest.encode(entries, inputs: "abc"))
    }

    @Test func manifestRoundTrips() {
        let entries: [String: ManifestEntry] = [
            "b/c d.html": ManifestEntry(hash: 0xdead_beef, size: 7, fingerprint: 0x1234),
            "a": ManifestEntry(hash: .max, size: 0), "z": .dirty,
        ]
        let encoded = Manifest.encode(entries)
        #expect(
            String(decoding: encoded, as: UTF8.self)
                == "# roost-manifest 2\nffffffffffffffff 0 - a\n00000000deadbeef 7 0000000000001234 b/c d.html\n- 0 - z\n"
        )
        #expect(Manifest.decode(encoded) == entries)
        // Version 1 (no fingerprints) is still read.
        #expect(
            Manifest.decode(Array("# roost-manifest 1\n00000000deadbeef 7 b/c d.html\n".utf8))
                == ["b/c d.html": ManifestEntry(hash: 0xdead_beef, size: 7)])
        #expect(
            Manifest.decode(Array("garbage\nxyz 1 a\n0000000000000001 -1 b\n0000000000000001 1 ../c\n".utf8)).isEmpty)
    }
}

@Suite struct OutputErrorTests {
    @Test func messagesNameThePathAndWhatToDo() {
        #expect(
            OutputError.fileSystem(operation: "write", path: "public/a.html", errno: ENOSPC).description
                == "could not write public/a.html: No space left on device (the disk is full; free some space and build again)"
        )
        #expect(
            OutputError.fileSystem(operation: "create the lock file", path: "public/.roost-lock", errno: EACCES)
                .description
                == "could not create the lock file public/.roost-lock: Permission denied (permission denied; check the owner and permissions of the output folder)"
        )
        #expect(
            OutputError.fileSystem(operation: "write", path: "public/a.html", errno: EROFS).description.contains(
                "read-only"))
        #expect(
            OutputError.locked(directory: "public/", pid: 1234).description
                == "public/ is being written by another roost build (pid 1234); wait for it to finish")
        #expect(
            OutputError.unsafePath(path: "../x", reason: "the path has a \"..\" segment").description
                == "refusing to write \"../x\": the path has a \"..\" segment")
        #expect(OutputError.duplicatePath("a.html").description.contains("\"a.html\" was produced twice"))
        #expect(
            WriteSummary(written: 12, unchanged: 3988, removed: 2, bytesWritten: 1_234_567).description
                == "wrote 12 files (1,234,567 bytes), 3,988 unchanged, removed 2")
    }
}

@Suite("SiteWriter: keeping files by fingerprint")
struct FingerprintTests {
    @Test func aFileWithTheSameFingerprintIsKeptWithoutBeingProduced() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        _ = try first.write("a.html", Array("A".utf8), fingerprint: 1)
        _ = try first.write("b.html", Array("B".utf8), fingerprint: 2)
        _ = try first.commit()

        let second = try SiteWriter(outputDirectory: t.output)
        #expect(try second.keep("a.html", fingerprint: 1))
        #expect(try !second.keep("b.html", fingerprint: 3), "a new fingerprint must be produced again")
        _ = try second.write("b.html", Array("B2".utf8), fingerprint: 3)
        let summary = try second.commit()
        #expect(summary.written == 1 && summary.unchanged == 1 && summary.removed == 0)
        #expect(read(t.outputPath("a.html")) == "A" && read(t.outputPath("b.html")) == "B2")

        // The manifest remembers both fingerprints; a file changed by hand is not kept.
        put(t.outputPath("a.html"), "edited by hand")
        let third = try SiteWriter(outputDirectory: t.output)
        #expect(try !third.keep("a.html", fingerprint: 1))
        #expect(try third.keep("b.html", fingerprint: 3))
        third.abandon()
    }

    /// A kept file is produced as much as a written one: once, and not after the commit.
    @Test func aKeptPathIsProducedOnce() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        for name in ["a", "b", "c"] { _ = try first.write("\(name).html", Array(name.utf8), fingerprint: 1) }
        _ = try first.commit()

        let second = try SiteWriter(outputDirectory: t.output)
        #expect(try second.keep("a.html", fingerprint: 1))
        #expect(throws: OutputError.duplicatePath("a.html")) { try second.keep("a.html", fingerprint: 1) }
        #expect(throws: OutputError.duplicatePath("a.html")) { try second.write("a.html", "a") }
        _ = try second.write("b.html", Array("B".utf8), fingerprint: 2)
        #expect(throws: OutputError.duplicatePath("b.html")) { try second.keep("b.html", fingerprint: 1) }
        #expect(try second.commit() == WriteSummary(written: 1, unchanged: 1, removed: 1, bytesWritten: 1))
        #expect(throws: OutputError.finished(directory: t.output + "/")) { try second.keep("a.html", fingerprint: 1) }
        #expect(read(t.outputPath("a.html")) == "a" && read(t.outputPath("b.html")) == "B")
        #expect(!exists(t.outputPath("c.html")), "neither kept nor written: removed")

        let third = try SiteWriter(outputDirectory: t.output)
        #expect(try third.keep("a.html", fingerprint: 1), "the kept file is in the manifest as it was")
        #expect(try third.keep("b.html", fingerprint: 2))
        third.abandon()
    }

    /// With the last build's files checked ahead (`checkPreviousFiles`), `keep` answers as
    /// when it looks at each file itself: one gone, grown, cut or turned into a folder is
    /// produced again; the others are kept.
    @Test func filesCheckedAheadAreKeptOnlyWhenIntact() throws {
        let t = try TemporaryFolder()
        let names = ["a", "b", "c", "d", "e"].map { "p/\($0)/index.html" }
        let first = try SiteWriter(outputDirectory: t.output)
        for (k, name) in names.enumerated() { _ = try first.write(name, Array("page \(k)".utf8), fingerprint: 1) }
        _ = try first.write("unfingerprinted.html", "x")
        for name in ["q/a.html", "q/b/c.html", "r/a.html"] {
            _ = try first.write(name, Array("q".utf8), fingerprint: 1)
        }
        _ = try first.commit()
        try FileManager.default.removeItem(atPath: t.outputPath("q"))
        try FileManager.default.removeItem(atPath: t.outputPath("r"))
        put(t.outputPath("r"), "a file where a folder was")

        try FileManager.default.removeItem(atPath: t.outputPath(names[1]))
        put(t.outputPath(names[2]), "page 2, longer by hand")
        put(t.outputPath(names[3]), "p")
        try FileManager.default.removeItem(atPath: t.outputPath(names[4]))
        try FileManager.default.createDirectory(atPath: t.outputPath(names[4]), withIntermediateDirectories: true)

        let second = try SiteWriter(outputDirectory: t.output)
        second.checkPreviousFiles()
        second.checkPreviousFiles()  // (once is enough; again changes nothing)
        #expect(try second.keep(names[0], fingerprint: 1))
        for name in names.dropFirst() { #expect(try !second.keep(name, fingerprint: 1), "\(name)") }
        #expect(try !second.keep("unfingerprinted.html", fingerprint: 1))
        #expect(try !second.keep("never-written.html", fingerprint: 1))
        for name in ["q/a.html", "q/b/c.html", "r/a.html"] { #expect(try !second.keep(name, fingerprint: 1)) }
        #expect(!second.previousOutputIsIntact())
        second.abandon()

        // Abandoned or committed before any `keep`, a writer waits for its check.
        let third = try SiteWriter(outputDirectory: t.output)
        third.checkPreviousFiles()
        third.abandon()
        let fourth = try SiteWriter(outputDirectory: t.output)
        fourth.checkPreviousFiles()
        _ = try fourth.commit()
        #expect(!exists(t.outputPath(names[0])), "nothing kept or written: removed")
    }

    /// Threads that ask before the check is done take part of it: asked from many threads at
    /// once, over several of its tasks, every answer is still the file's.
    @Test func filesCheckedAheadAnswerEveryThreadThatAsks() throws {
        let t = try TemporaryFolder()
        let (names, gone) = try Self.pagesWithSomeRemoved(in: t, count: 1500, removingFrom: 7, every: 211)

        let second = try SiteWriter(outputDirectory: t.output)
        second.checkPreviousFiles()
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { part in
            for k in stride(from: names.count - 1 - part, through: 0, by: -16) {
                let kept = (try? second.keep(names[k], fingerprint: 1)) ?? false
                if kept == gone.contains(k) { wrong.withLock { $0.append(names[k]) } }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty)
        second.abandon()
    }

    /// A thread that waits for something else checks files meanwhile (`checkPreviousFiles(while:)`),
    /// stopping when told: however much it took, the check's other threads, or `keep` itself,
    /// do the rest, and every answer is still the file's.
    @Test(arguments: [0, 1, 3])
    func filesCheckedWhileTheCallerWaitsAnswerAsTheOthers(tasksAllowed: Int) throws {
        let t = try TemporaryFolder()
        let (names, gone) = try Self.pagesWithSomeRemoved(in: t, count: 600, removingFrom: 3, every: 199)

        for startsTheRest in [true, false] {
            let second = try SiteWriter(outputDirectory: t.output)
            var asked = 0
            second.checkPreviousFiles(while: {
                asked += 1
                return asked <= tasksAllowed
            })
            #expect(asked == min(tasksAllowed + 1, 3), "asked before each of its 2 tasks, and once more to stop")
            if startsTheRest { second.checkPreviousFiles() }
            let wrong = names.indices.filter { k in
                ((try? second.keep(names[k], fingerprint: 1)) ?? false) == gone.contains(k)
            }
            #expect(wrong.isEmpty, "started the rest: \(startsTheRest)")
            second.abandon()
        }
    }

    /// `count` pages (`t/<k>/index.html`, fingerprint 1) written and committed in `t`'s output,
    /// then those from `first`, `every` apart, removed by hand: the pages, and which are gone.
    private static func pagesWithSomeRemoved(in t: TemporaryFolder, count: Int, removingFrom first: Int, every: Int)
        throws -> (names: [String], gone: Set<Int>)
    {
        let names = (0..<count).map { "t/\($0)/index.html" }
        let writer = try SiteWriter(outputDirectory: t.output)
        for name in names { _ = try writer.write(name, Array("page".utf8), fingerprint: 1) }
        _ = try writer.commit()
        let gone = Set(stride(from: first, to: names.count, by: every))
        for k in gone { try FileManager.default.removeItem(atPath: t.outputPath(names[k])) }
        return (names, gone)
    }

    @Test func sameBytesFromNewInputsRecordTheNewFingerprint() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        _ = try first.write("a.html", Array("A".utf8), fingerprint: 1)
        _ = try first.commit()
        let second = try SiteWriter(outputDirectory: t.output)
        #expect(try second.write("a.html", Array("A".utf8), fingerprint: 9) == .unchanged)
        _ = try second.commit()
        let third = try SiteWriter(outputDirectory: t.output)
        #expect(try third.keep("a.html", fingerprint: 9))
        third.abandon()
    }
}

@Suite("SiteWriter: the inputs token of a finished build")
struct InputsTokenTests {
    @Test func aFinishedCommitRecordsTheTokenForTheNextBuild() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        #expect(first.previousInputs == nil)
        _ = try first.write("a/index.html", Array("A".utf8))
        _ = try first.commit(inputs: "0123abcd 42")

        let second = try SiteWriter(outputDirectory: t.output)
        #expect(second.previousInputs == "0123abcd 42")
        #expect(second.previousOutputIsIntact())
        // Nothing written, new token: the manifest still records it.
        _ = try second.write("a/index.html", Array("A".utf8))
        _ = try second.commit(inputs: "ffff 43")
        let third = try SiteWriter(outputDirectory: t.output)
        #expect(third.previousInputs == "ffff 43")
        third.abandon()
        // Abandoning leaves the token as it was.
        #expect(try SiteWriter(outputDirectory: t.output).previousInputs == "ffff 43")
    }

    @Test func theManifestsHeadTellsTheTokenWithoutTheLock() throws {
        let t = try TemporaryFolder()
        #expect(SiteWriter.recordedInputs(outputDirectory: t.output) == nil)  // no folder yet
        let first = try SiteWriter(outputDirectory: t.output)
        #expect(SiteWriter.recordedInputs(outputDirectory: t.output) == nil)  // no manifest yet
        for k in 0..<500 { _ = try first.write("p\(k)/index.html", Array("page \(k)".utf8)) }
        _ = try first.commit(inputs: "0123abcd 42")
        // Read while another build holds the lock, as a build deciding early does.
        let second = try SiteWriter(outputDirectory: t.output)
        #expect(SiteWriter.recordedInputs(outputDirectory: t.output) == "0123abcd 42")
        _ = try second.write("p0/index.html", Array("page 0".utf8))
        _ = try second.commit()
        #expect(SiteWriter.recordedInputs(outputDirectory: t.output) == nil)
    }

    @Test func aCommitWithoutATokenForgetsTheOldOne() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        _ = try first.write("a.html", Array("A".utf8))
        _ = try first.commit(inputs: "1 2")
        let second = try SiteWriter(outputDirectory: t.output)
        _ = try second.write("a.html", Array("B".utf8))
        _ = try second.commit()
        #expect(try SiteWriter(outputDirectory: t.output).previousInputs == nil)
    }

    @Test func aFailedCommitRecordsNoNewToken() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        _ = try first.write("a.html", Array("A".utf8))
        _ = try first.commit(inputs: "1 2")
        // A folder of someone else's where the new build wants a file: the commit fails.
        let second = try SiteWriter(outputDirectory: t.output)
        _ = try second.write("b/index.html", Array("B".utf8))
        _ = try second.write("c", Array("C".utf8))
        put(t.outputPath("c/theirs.txt"), "not ours")
        #expect(throws: OutputError.self) { try second.commit(inputs: "3 4") }
        // Put back as it was, the output is the first build's again: its token holds.
        #expect(try SiteWriter(outputDirectory: t.output).previousInputs == "1 2")
        // A link where a new file goes is replaced, for good: the failure after it leaves the
        // output changed, and no token.
        symlink("elsewhere", t.outputPath("a0.html"))
        let third = try SiteWriter(outputDirectory: t.output)
        _ = try third.write("a0.html", Array("A0".utf8))
        _ = try third.write("c", Array("C".utf8))
        #expect(throws: OutputError.self) { try third.commit(inputs: "3 4") }
        #expect(read(t.outputPath("a0.html")) == "A0")
        #expect(try SiteWriter(outputDirectory: t.output).previousInputs == nil)
    }

    @Test func anOutputFileRemovedOrChangedInSizeIsNotIntact() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        _ = try first.write("a.html", Array("A".utf8))
        _ = try first.write("b/index.html", Array("B".utf8))
        _ = try first.commit(inputs: "1 2")
        put(t.outputPath("a.html"), "longer now")
        var writer = try SiteWriter(outputDirectory: t.output)
        #expect(!writer.previousOutputIsIntact())
        writer.abandon()
        put(t.outputPath("a.html"), "A")
        writer = try SiteWriter(outputDirectory: t.output)
        #expect(writer.previousOutputIsIntact())
        writer.abandon()
        try FileManager.default.removeItem(atPath: t.outputPath("b/index.html"))
        writer = try SiteWriter(outputDirectory: t.output)
        #expect(!writer.previousOutputIsIntact())
        writer.abandon()
    }

    @Test func manifestsWithAndWithoutATokenDecodeTheSameEntries() {
        let entries = ["a.html": ManifestEntry(hash: 1, size: 2, fingerprint: 3)]
        let with = Manifest.encode(entries, inputs: "abc 1")
        #expect(Manifest.inputs(of: with) == "abc 1")
        #expect(Manifest.decode(with) == entries)
        #expect(Manifest.inputs(of: Manifest.encode(entries)) == nil)
        #expect(Manifest.inputs(of: Manifest.encode(entries, inputs: "two\nlines")) == nil)
    }
}
