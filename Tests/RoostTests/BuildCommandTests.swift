import Foundation
import TestSupport
import Testing

/// `roost build` as a user runs it: its messages and exit statuses. What the build does is
/// tested in-process (Tests/BuildTests).
@Suite("roost build")
struct BuildCommandTests {
    @Test func summarisesWhatItWroteAndSaysWhenNothingChanged() throws {
        let out = try TemporaryFolder()
        let first = try RoostProcess.run(["build", "--output", out.path("a")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("pages and 11 static files") && first.stdout.contains("0 unchanged"),
            "\(first.stdout)"
        )
        #expect(first.stderr.contains("warning: tweets/"), "dangling references are shown")
        let second = try RoostProcess.run(["build", "--output", out.path("a")])
        #expect(second.stdout.contains(" 0 written") || second.stdout.contains("nothing changed"), "\(second.stdout)")
        let quiet = try RoostProcess.run(["build", "--quiet", "--shard", "2/3", "--output", out.path("b")])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    /// Store text in a message reaches the terminal with its escape sequences written out
    /// (`\u001b`), not acted on (a screen cleared, the clipboard written through OSC 52), and a
    /// line break in it cannot start a line of its own.
    @Test func storeTextCannotDriveTheTerminal() throws {
        let work = try TemporaryFolder()
        try work.copy(packageRoot + "/content", to: "store")
        try work.write(
            "store/tweets/zzz.json",
            #"{"caption": "x", "timestamp": "\u001b[2J\u001b]52;c;cHduZWQ=\u0007\nnote: all is well", "uid": "x"}"#)
        try work.write("store/users/u\u{1B}]0;title\u{07}.json", #"{"username": "odd"}"#)
        for arguments in [
            ["build", "--store", work.path("store"), "--output", work.path("out")],
            ["check", "--store", work.path("store")],
        ] {
            let result = try RoostProcess.run(arguments)
            let output = result.stdout + result.stderr
            #expect(!output.utf8.contains(0x1B) && !output.utf8.contains(0x07), "\(arguments[0]): \(output)")
            #expect(output.contains(#"\u001b[2J\u001b]52;c;cHduZWQ=\u0007\nnote: all is well""#), "\(output)")
            #expect(!output.split(separator: "\n").contains { $0.hasPrefix("note: all is well") })
        }
    }

    /// A symbolic link in the store is not followed (a store never reads outside itself), and
    /// says so: a warning from `build` and `check` naming it, a failure with `--strict`, where
    /// it was left out silently (a linked folder of tweets missing from the site unsaid).
    @Test func aLinkInTheStoreIsNamedNotSkippedSilently() throws {
        let work = try TemporaryFolder()
        try work.copy(packageRoot + "/content", to: "store")
        try work.write(
            "elsewhere/zzz.json", #"{"caption": "from elsewhere", "timestamp": "2024-01-01T00:00:00Z", "uid": "x"}"#)
        symlink(work.path("elsewhere/zzz.json"), work.path("store/tweets/zzz.json"))
        symlink(work.path("elsewhere"), work.path("store/more"))
        let build = ["build", "--store", work.path("store"), "--output", work.path("out")]
        let built = try RoostProcess.run(build)
        #expect(built.status == 0, "\(built.stderr)")
        for path in ["more", "tweets/zzz.json"] {
            #expect(built.stderr.contains("warning: \(path): a symbolic link, not followed"), "\(built.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: work.path("out/t/zzz")))
        let strict = try RoostProcess.run(build + ["--strict"])
        #expect(strict.status == 1 && strict.stderr.contains("tweets/zzz.json: a symbolic link"), "\(strict.stderr)")
        let checked = try RoostProcess.run(["check", "--store", work.path("store")])
        #expect(checked.stdout.contains("symbolic links in the store, not followed (2):"), "\(checked.stdout)")
        let json = try RoostProcess.run(["check", "--json", "--store", work.path("store")])
        #expect(
            json.stdout.contains(#""kind":"skipped-link""#) || json.stdout.contains(#""kind": "skipped-link""#),
            "\(json.stdout)")
    }

    /// A rebuild says how many pages it rendered: an edited tag template, only the tag pages.
    @Test func saysHowManyPagesARebuildRendered() throws {
        let work = try TemporaryFolder()
        try work.copy(packageRoot + "/templates", to: "theme")
        let arguments = ["build", "--templates", work.path("theme"), "--output", work.path("out")]
        let first = try RoostProcess.run(arguments)
        #expect(first.status == 0 && !first.stdout.contains("rendered"), "\(first.stdout)")
        let tag = work.path("theme/tag.mustache")
        try (String(contentsOfFile: tag, encoding: .utf8) + "<!-- edited -->\n").write(
            toFile: tag, atomically: true, encoding: .utf8)
        let second = try RoostProcess.run(arguments)
        // Every tag's pages (`tags/x/index.html`, `tags/x/page/2/…`); not the index of tags.
        let tagPages = try #require(FileManager.default.subpaths(atPath: work.path("out/tags")))
            .count { $0.hasSuffix("index.html") && $0.contains("/") }
        #expect(second.stdout.contains(" pages (\(tagPages) rendered) and 11 static files"), "\(second.stdout)")
    }

    @Test func usageMistakesExitWithTwo() throws {
        #expect(try RoostProcess.run(["build", "--shard", "4/3"]).status == 2)
        #expect(try RoostProcess.run(["build", "extra"]).status == 2)
        let typo = try RoostProcess.run(["build", "--outptu", "x"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean '--output'?"), "\(typo.stderr)")
    }

    /// SPEC 10: `--language` picks the theme's table; one it does not have is an error naming
    /// the ones it has.
    @Test func languageOption() throws {
        let out = try TemporaryFolder()
        let korean = try RoostProcess.run(["build", "--quiet", "--language", "ko", "--output", out.path("ko")])
        #expect(korean.status == 0, "\(korean.stderr)")
        let feed = try String(contentsOfFile: out.path("ko/index.html"), encoding: .utf8)
        #expect(feed.contains("<html lang=\"ko\">") && feed.contains("최신 트윗"))
        let french = try RoostProcess.run(["build", "--quiet", "--language", "fr", "--output", out.path("fr")])
        #expect(french.status == 1)
        #expect(french.stderr.contains("language 'fr'") && french.stderr.contains("it has en, ko"), "\(french.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path("fr")))
    }

    @Test func aFailedBuildSaysWhyAndExitsWithOne() throws {
        let out = try TemporaryFolder()
        #expect(try RoostProcess.run(["build", "--quiet", "--output", out.path("site")]).status == 0)
        let before = out.files("site")
        let store = try TemporaryFolder()
        try store.write("users/u1.json", "{\"username\": ")
        let failed = try RoostProcess.run(["build", "--store", store.path(), "--output", out.path("site")])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("users/u1.json:1:14"))
        #expect(out.files("site") == before)

        try store.write("users/u1.json", "{\"username\": 3}")
        let invalid = try RoostProcess.run(["build", "--store", store.path(), "--output", out.path("site")])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("error: users/u1: field 'username'"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("1 problem in \(store.path()); nothing was written"), "\(invalid.stderr)")
    }
}
