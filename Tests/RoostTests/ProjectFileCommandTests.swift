import Foundation
import TestSupport
import Testing

/// `roost.json` as a user writes it (SPEC 10): every key sets its option, the command line
/// wins, paths are relative to the file, mistakes are usage errors that name the key.
@Suite("roost.json")
struct ProjectFileCommandTests {
    static func project(_ settings: String) throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        try work.copy(RoostProcess.packageRoot.path + "/content", to: "site/data")
        try work.copy(RoostProcess.packageRoot.path + "/templates", to: "site/theme")
        try work.write("site/roost.json", settings)
        return work
    }

    @Test func settingsApplyAndTheCommandLineWins() throws {
        let work = try Self.project(
            #"{"title": "Mina's archive", "store": "data", "templates": "theme", "output": "out", "pageSize": 7}"#)
        let built = try RoostProcess.run(["build", "--quiet"], in: work.url.appendingPathComponent("site"))
        #expect(built.status == 0, "\(built.stderr)")
        let home = try String(contentsOfFile: work.path("site/out/index.html"), encoding: .utf8)
        #expect(home.contains("<title>Mina&#39;s archive</title>"))
        #expect(home.components(separatedBy: "data-tweet-id=").count - 1 == 7)

        // From another folder, with --config: paths stay relative to the file.
        let again = try RoostProcess.run(
            [
                "build", "--quiet", "--config", work.path("site/roost.json"), "--page-size", "3", "--output",
                work.path("other"),
            ], in: work.url)
        #expect(again.status == 0, "\(again.stderr)")
        let other = try String(contentsOfFile: work.path("other/index.html"), encoding: .utf8)
        #expect(other.components(separatedBy: "data-tweet-id=").count - 1 == 3, "the command line wins")
        #expect(other.contains("Mina&#39;s archive"))
    }

    @Test func serveTakesTheStoreTheThemeAndTheLanguage() throws {
        let work = try Self.project(#"{"title": "보관함", "store": "data", "templates": "theme", "language": "ko"}"#)
        let server = try ServeTests.Server(arguments: [], in: work.url.appendingPathComponent("site"))
        let (status, home) = try server.get("/")
        #expect(status == 200, "\(home)")
        #expect(home.contains("<html lang=\"ko\">") && home.contains("보관함"))
        #expect(home.contains("data-tweet-id=\""), "the store from roost.json, not content/ next to it")
    }

    @Test func mistakesNameTheKey() throws {
        let cases: [(String, String)] = [
            (#"{"pagesize": 3}"#, "unknown key 'pagesize'; did you mean 'pageSize'?"),
            (#"{"pageSize": "3"}"#, "'pageSize' must be a whole number, not a string"),
            (#"{"title": 3}"#, "'title' must be a string, not a number"),
            (#"["title"]"#, "expected a JSON object of settings"),
            ("{\n  \"title\": ,\n}", "roost.json:2:"),
            (#"{"baseURL": "example.com"}"#, "'example.com' is not a base URL"),
            (#"{"media": "mirorr"}"#, "takes link, mirror or none, not 'mirorr'; did you mean 'mirror'?"),
            (#"{"media": true}"#, "'media' must be a string, not"),
        ]
        for (settings, message) in cases {
            let work = try Self.project(settings)
            let result = try RoostProcess.run(["build"], in: work.url.appendingPathComponent("site"))
            #expect(result.status == 2, "\(settings): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(settings): \(result.stderr)")
        }
    }
}

extension ProjectFileCommandTests {
    /// SPEC 9 and 10: `media` and `cache` (relative to the file) set `--media` and `--cache`.
    @Test func mediaAndCacheKeys() throws {
        let work = try Self.project(#"{"store": "data", "output": "out", "media": "none", "cache": "c"}"#)
        let site = work.url.appendingPathComponent("site")
        let none = try RoostProcess.run(["build", "--quiet"], in: site)
        #expect(none.status == 0, "\(none.stderr)")
        let home = try String(contentsOfFile: work.path("site/out/index.html"), encoding: .utf8)
        #expect(!home.contains("firebasestorage") && home.contains("img-src 'self' data:;"))
        // `none` downloads nothing: the cache folder holds the build cache alone (documents,
        // snapshot, captions).
        let cached = try FileManager.default.contentsOfDirectory(atPath: work.path("site/c"))
        #expect(cached.allSatisfy { $0.hasSuffix(".cache") } && cached.count == 3, "\(cached)")

        // The sample's pictures are on the internet: offline, each is a warning and the placeholder.
        let mirror = try RoostProcess.run(
            ["build", "--config", work.path("site/roost.json"), "--media", "mirror", "--offline"], in: work.url)
        #expect(mirror.status == 0, "\(mirror.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path("site/c/media")), "the cache is beside roost.json")
        #expect(mirror.stderr.contains("field 'profileImageUrl': https://"), "\(mirror.stderr)")
        #expect(mirror.stderr.contains("not in the media cache (offline)"))
        #expect(mirror.stdout.contains("not mirrored"), "\(mirror.stdout)")
    }
}

/// What `roost check` and `roost build` say about stores and output folders.
@Suite("roost: clear about mistakes")
struct MistakeTests {
    @Test func aFolderThatIsNoStoreIsNamedWithTheStoreNearby() throws {
        let tweets = try RoostProcess.run(["build", "--store", "content/tweets", "--output", "/tmp/never"])
        #expect(tweets.status == 1)
        #expect(
            tweets.stderr.contains("content/tweets: not a store")
                && tweets.stderr.contains("did you mean the store 'content'?"))
        let root = try RoostProcess.run(["check", "--store", "."])
        #expect(root.status == 1 && root.stderr.contains("did you mean the store './content'?"), "\(root.stderr)")
        let theme = try RoostProcess.run(["check", "--store", "templates"])
        #expect(theme.status == 1 && theme.stderr.contains("holds 404.mustache"), "\(theme.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never"))
    }

    @Test func anOutputInsideTheStoreOrTheThemeIsRefused() throws {
        let work = try TemporaryFolder()
        try work.copy(RoostProcess.packageRoot.path + "/content", to: "store")
        let inside = try RoostProcess.run(["build", "--store", work.path("store"), "--output", work.path("store/site")])
        #expect(inside.status == 1 && inside.stderr.contains("is inside the store"), "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.path("store/site")))
        let theme = try RoostProcess.run(["build", "--output", "templates/out"])
        #expect(theme.status == 1 && theme.stderr.contains("is inside the theme"), "\(theme.stderr)")
    }

    @Test func checkCountsInWordsAndSaysWhyAReferenceIsMissing() throws {
        let store = try TemporaryFolder()
        try store.write("users/u1.json", #"{"username": "mina"}"#)
        try store.write("users/docA.json", #"{"fullname": "No username"}"#)
        try store.write("users/docA/user-likes/t1.json", "{}")
        try store.write("tweets/t1.json", #"{"caption": "hi", "timestamp": 1700000000, "uid": "u1", "likes": 3}"#)
        try store.write("users/u1/user-likes/t1.json", "{}")
        let result = try RoostProcess.run(["check", "--store", store.path()])
        #expect(result.stdout.contains("5 documents, 1 user, 1 tweet, 1 like"), "\(result.stdout)")
        #expect(result.stdout.contains("stored 3, counted 1 like\n"), "\(result.stdout)")
        #expect(result.stdout.contains("liker users/docA has errors and is left out"), "\(result.stdout)")
        #expect(result.stdout.contains("1 error, 1 warning, 1 notice"), "\(result.stdout)")
    }
}
