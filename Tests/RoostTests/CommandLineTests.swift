import Foundation
import JSON
import TestSupport
import Testing

@Suite("roost: commands, options and exit statuses")
struct CommandLineTests {
    @Test func versionAndHelp() throws {
        let version = try RoostProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("roost "))
        let help = try RoostProcess.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("check") && help.stdout.contains("build"))
        for command in ["build", "check", "import", "generate", "init", "serve"] {
            let result = try RoostProcess.run([command, "--help"])
            #expect(result.status == 0 && result.stdout.contains("usage: roost \(command)"))
        }
    }

    /// An empty path is the current folder to the file system: `--output ''` wrote the site
    /// there. Every path option, and `init`'s DIR, refuses one.
    @Test func anEmptyPathIsAUsageError() throws {
        let t = try TemporaryFolder()
        for arguments in [
            ["build", "--output", ""], ["build", "--store=", "--output", t.path("out")], ["check", "--store", ""],
            ["init", ""], ["import", "x.json", "--to", ""],
        ] {
            let result = try RoostProcess.run(arguments, in: URL(fileURLWithPath: t.path()))
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("''") || result.stderr.contains("empty"), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.path()).isEmpty, "nothing written")
    }

    /// An empty title would make every page's <title> empty, which HTML refuses.
    @Test func anEmptyTitleIsAUsageError() throws {
        let t = try TemporaryFolder()
        for title in ["", "  "] {
            let result = try RoostProcess.run(["build", "--title", title, "--output", t.path("out")])
            #expect(result.status == 2 && result.stderr.contains("a name that is not empty"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: t.path("out")))
    }

    /// `import --force` empties its folder first: an export inside that folder is refused, not
    /// deleted with it.
    @Test func importRefusesToEmptyTheFolderHoldingItsSource() throws {
        let t = try TemporaryFolder()
        let generated = try RoostProcess.run(
            ["generate", "--users", "2", "--tweets", "3", "--seed", "1", "--to", t.path("export.json")])
        #expect(generated.status == 0, "\(generated.stderr)")
        let result = try RoostProcess.run(
            ["import", "export.json", "--to", ".", "--force"], in: URL(fileURLWithPath: t.path()))
        #expect(result.status == 2 && result.stderr.contains("is inside"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: t.path("export.json")))
    }

    /// `init` says what is in the way in words, not Foundation's error dump, and writes nothing
    /// when its roost.json could not be written.
    @Test func initSaysWhatIsInTheWay() throws {
        let t = try TemporaryFolder()
        let here = URL(fileURLWithPath: t.path())
        _ = try t.write("f", "a file")
        let file = try RoostProcess.run(["init", "f"], in: here)
        #expect(file.status == 1 && file.stderr.contains("is a file, not a folder"), "\(file.stderr)")
        try FileManager.default.createDirectory(atPath: t.path("r/roost.json"), withIntermediateDirectories: true)
        let folder = try RoostProcess.run(["init", "r", "--force"], in: here)
        #expect(folder.status == 1 && folder.stderr.contains("roost.json is a folder"), "\(folder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: t.path("r/content")), "nothing written")
        for result in [file, folder] { #expect(!result.stderr.contains("NSCocoaErrorDomain")) }
    }

    @Test func usageErrorsExitWithTwo() throws {
        let unknown = try RoostProcess.run(["frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown command 'frobnicate'"))
        let option = try RoostProcess.run(["check", "--stroe", "content"])
        #expect(option.status == 2 && option.stderr.contains("unknown option '--stroe'"))
        let value = try RoostProcess.run(["build", "--page-size", "zero"])
        #expect(value.status == 2 && value.stderr.contains("--page-size"))
    }
}

@Suite("roost check")
struct CheckCommandTests {
    @Test func reportsTheSampleStore() throws {
        let result = try RoostProcess.run(["check", "--store", "content"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("10 users, 60 tweets"))
        #expect(result.stdout.contains("likes of missing tweets (1):"))
        #expect(result.stdout.contains("tweets by missing users (1):"))
        #expect(result.stdout.contains("replies to missing tweets (1):"))
        #expect(result.stdout.contains("like counters that drifted (3):"))
        #expect(result.stdout.contains("tweets/n3ic8PbbaJl0077osRzU: field 'likes': stored 7, counted 9 likes"))
        #expect(result.stdout.contains("0 errors, 3 warnings"))
    }

    /// A store that cannot be read still gives `--json` a report on stdout: one error, its
    /// message naming the file and place (it printed nothing there).
    @Test func jsonReportOfAStoreThatCannotBeRead() throws {
        let t = try TemporaryFolder()
        let file = try t.write("broken.json", "{\"users\": {\n  \"u1\": {,}}}")
        let result = try RoostProcess.run(["check", "--store", file, "--json"])
        #expect(result.status == 1)
        let report = try JSONParser.parse(result.stdout)
        #expect(report["errors"] == .integer(1) && report["counts"] == .null)
        let message = report["diagnostics"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(message.contains("broken.json:2:"), "\(message)")
        #expect(result.stderr.contains("broken.json:2:"), "still told on stderr")
    }

    @Test func strictFailsOnWarnings() throws {
        let result = try RoostProcess.run(["check", "--store", "content", "--strict"])
        #expect(result.status == 1)
    }

    @Test func jsonReport() throws {
        let result = try RoostProcess.run(["check", "--json"])
        #expect(result.status == 0)
        let report = try JSONParser.parse(result.stdout)
        #expect(report["warnings"] == .integer(3))
        #expect(report["counts"]?["tweets"] == .integer(60))
        let kinds = report["diagnostics"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
        #expect(kinds.filter { $0 == "like-counter-drift" }.count == 3)
    }

    @Test func invalidJSONNamesFileLineAndColumn() throws {
        let store = try TemporaryFolder()
        try store.write("users/u1.json", "{\n  \"username\": \"a\",\n  \"bio\": oops\n}\n")
        let result = try RoostProcess.run(["check", "--store", store.path()])
        #expect(result.status == 1)
        #expect(result.stderr.contains("users/u1.json:3:10"))
    }

    @Test func fieldErrorsNameDocumentAndField() throws {
        let store = try TemporaryFolder()
        try store.write("tweets/t1.json", #"{"caption": 5, "timestamp": "2023-01-01T00:00:00Z", "uid": "u1"}"#)
        let result = try RoostProcess.run(["check", "--store", store.path()])
        #expect(result.status == 1)
        #expect(result.stdout.contains("tweets/t1: field 'caption': expected a string, found an integer"))
    }
}

@Suite("roost generate")
struct GenerateCommandTests {
    @Test func writesASummaryAndRefusesANonEmptyFolder() throws {
        let folder = try TemporaryFolder()
        let dir = folder.path("store")  // not made yet: `generate` makes it
        let first = try RoostProcess.run(["generate", "--users", "20", "--tweets", "100", "--seed", "5", "--to", dir])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("20 users, 100 tweets"))
        let again = try RoostProcess.run(["generate", "--users", "20", "--tweets", "100", "--to", dir])
        #expect(again.status == 1 && again.stderr.contains("not empty"))
        let forced = try RoostProcess.run([
            "generate", "--users", "20", "--tweets", "100", "--seed", "5", "--to", dir, "--force",
        ])
        #expect(forced.status == 0)
        let check = try RoostProcess.run(["check", "--store", dir])
        #expect(check.status == 0 && check.stdout.contains("0 errors, 0 warnings"))
    }

    @Test func writesOneFileWhenToEndsInJSON() throws {
        let folder = try TemporaryFolder()
        let dir = folder.path()
        let file = dir + "/store.json"
        let arguments = ["generate", "--users", "20", "--tweets", "100", "--seed", "5", "--to"]
        let first = try RoostProcess.run(arguments + [file])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("single file") && first.stdout.contains("files 1,"))
        let again = try RoostProcess.run(arguments + [file])
        #expect(again.status == 1 && again.stderr.contains("exists") && again.stderr.contains("--force"))
        #expect(try RoostProcess.run(arguments + [file, "--force"]).status == 0)
        let missing = try RoostProcess.run(arguments + [dir + "/nope/store.json"])
        #expect(missing.status == 1 && missing.stderr.contains("does not exist"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["store.json"])
        let check = try RoostProcess.run(["check", "--store", file])
        #expect(check.status == 0 && check.stdout.contains("0 errors, 0 warnings"), "\(check.stdout)")
    }

    @Test func usageErrors() throws {
        #expect(try RoostProcess.run(["generate", "--users", "5"]).status == 2)
        #expect(try RoostProcess.run(["generate", "--users", "0", "--to", "/tmp/x"]).status == 2)
        #expect(try RoostProcess.run(["generate", "--tweets", "many", "--to", "/tmp/x"]).status == 2)
    }
}
