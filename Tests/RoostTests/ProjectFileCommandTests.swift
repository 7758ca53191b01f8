import Build
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
            // The file, line and column of the key, as the README says.
            (#"{"pagesize": 3}"#, "roost.json:1:2: unknown key 'pagesize'; did you mean 'pageSize'?"),
            (
                "{\n  \"title\": \"a, b\",\n  \"pageSize\": \"3\"\n}",
                "roost.json:3:3: 'pageSize' must be a whole number, not a string"
            ),
            (#"{"title": 3}"#, "roost.json:1:2: 'title' must be a string, not a number"),
            (
                "{\"title\": \"A\",\n \"pageSize\": 5,\n \"title\": \"B\"}",
                "roost.json:3:2: 'title' is set twice (first on line 1)"
            ),
            (#"["title"]"#, "expected a JSON object of settings"),
            ("{\n  \"title\": ,\n}", "roost.json:2:"),
            (#"{"baseURL": "example.com"}"#, "roost.json: baseURL: 'example.com' is not a base URL"),
            // A value of roost.json's that the option refuses names roost.json.
            (#"{"pageSize": -5}"#, "option '--page-size' (roost.json: pageSize) takes a whole number from 1"),
            (#"{"media": "mirorr"}"#, "takes link, mirror or none, not 'mirorr'; did you mean 'mirror'?"),
            (#"{"media": true}"#, "'media' must be a string, not"),
        ]
        for (settings, message) in cases {
            let work = try Self.project(settings)
            let result = try RoostProcess.run(["build"], in: work.url.appendingPathComponent("site"))
            #expect(result.status == 2, "\(settings): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(settings): \(result.stderr)")
        }
        // A value given on the command line is the option's, not roost.json's.
        let work = try Self.project(#"{"title": "x"}"#)
        let given = try RoostProcess.run(["build", "--output="], in: work.url.appendingPathComponent("site"))
        #expect(given.status == 2 && given.stderr.contains("option '--output' takes a path"), "\(given.stderr)")
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
        // snapshot, captions, search postings, context parts, page fingerprints; and the
        // folders' listings once they have settled, which the store just copied has not).
        let cached = try FileManager.default.contentsOfDirectory(atPath: work.path("site/c"))
        let parts = cached.filter { !$0.hasPrefix("listing-") }
        #expect(cached.allSatisfy { $0.hasSuffix(".cache") } && parts.count == 6, "\(cached)")

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

    /// A cache folder inside the output would be published with the site (its files name local
    /// paths): refused, as an output inside the store is.
    @Test func aCacheInsideTheOutputIsRefused() throws {
        let work = try TemporaryFolder()
        let result = try RoostProcess.run([
            "build", "--output", work.path("site"), "--cache", work.path("site/.cache"),
        ])
        #expect(result.status == 1 && result.stderr.contains("is inside the output folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.path("site")))
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

/// `--config other/roost.json` (issue 29): the defaults the file does not set (the store, the
/// theme, the output, the cache) are in its folder, as its own paths are, whatever the current
/// folder holds; paths on the command line stay relative to the current folder.
@Suite("roost.json: defaults beside the file")
struct ProjectFolderTests {
    /// `other/` with the sample store (`content/`), a `roost.json` that sets the title alone and,
    /// `withTheme`, a theme (`templates/`) that marks its footer; beside it, a decoy store and
    /// theme in the folder roost runs in, which must not be taken.
    static func project(withTheme: Bool) throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        try work.copy(RoostProcess.packageRoot.path + "/content", to: "other/content")
        try work.write("other/roost.json", #"{"title": "Other site"}"#)
        try work.write("content/users/decoy.json", #"{"username": "decoy", "fullname": "Decoy"}"#)
        try Self.theme(marked: "decoy", at: "templates", in: work)
        if withTheme { try Self.theme(marked: "project", at: "other/templates", in: work) }
        return work
    }

    private static func theme(marked mark: String, at path: String, in work: TemporaryFolder) throws {
        try work.copy(RoostProcess.packageRoot.path + "/templates", to: path)
        let layout = work.path(path + "/layout.mustache")
        let text = try String(contentsOfFile: layout, encoding: .utf8)
        try work.write(
            path + "/layout.mustache",
            text.replacingOccurrences(
                of: "<footer class=\"site-footer\">", with: "<footer class=\"site-footer\" data-theme=\"\(mark)\">"))
    }

    @Test func buildTakesTheStoreThemeOutputAndCacheBesideTheFile() throws {
        let work = try Self.project(withTheme: true)
        let built = try RoostProcess.run(["build", "--config", "other/roost.json"], in: work.url)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("other/public: "), "\(built.stdout)")
        let home = try String(contentsOfFile: work.path("other/public/index.html"), encoding: .utf8)
        #expect(home.contains("<title>Other site</title>") && home.contains("data-theme=\"project\""))
        #expect(!home.contains("decoy"), "the store and theme of the current folder are not taken")
        #expect(FileManager.default.fileExists(atPath: work.path("other/.roost-cache")))
        for name in ["public", ".roost-cache"] {
            #expect(!FileManager.default.fileExists(atPath: work.path(name)), "\(name) in the current folder")
        }

        // The command line's paths are the current folder's.
        let given = try RoostProcess.run(
            ["build", "--quiet", "--config", "other/roost.json", "--store", "content", "--output", "out"], in: work.url)
        #expect(given.status == 0, "\(given.stderr)")
        let decoy = try String(contentsOfFile: work.path("out/u/decoy/index.html"), encoding: .utf8)
        #expect(decoy.contains("data-theme=\"project\""), "the store given, the file's theme")
    }

    @Test func withoutATemplatesFolderBesideTheFileTheBuiltInThemeIsUsed() throws {
        let work = try Self.project(withTheme: false)
        let built = try RoostProcess.run(["build", "--quiet", "--config", work.path("other/roost.json")], in: work.url)
        #expect(built.status == 0, "\(built.stderr)")
        let home = try String(contentsOfFile: work.path("other/public/index.html"), encoding: .utf8)
        #expect(home.contains("<footer class=\"site-footer\">"), "not the current folder's templates/")
    }

    @Test func checkAndServeTakeTheStoreAndThemeBesideTheFile() throws {
        let work = try Self.project(withTheme: true)
        let checked = try RoostProcess.run(["check", "--config", "other/roost.json"], in: work.url)
        #expect(checked.stdout.hasPrefix("other/content: "), "\(checked.stdout)\(checked.stderr)")
        let server = try ServeTests.Server(arguments: ["--config", "other/roost.json"], in: work.url)
        let (status, home) = try server.get("/")
        #expect(status == 200, "\(home)")
        #expect(home.contains("data-theme=\"project\"") && home.contains("data-tweet-id=\"") && !home.contains("decoy"))
    }

    @Test func theDefaultsOfPathsFollowTheFilesFolder() throws {
        #expect(ProjectFile.folder(of: "roost.json") == "" && ProjectFile.folder(of: "./roost.json") == "")
        #expect(ProjectFile.folder(of: "other/roost.json") == "other")
        #expect(ProjectFile.folder(of: "/roost.json") == "/" && ProjectFile.folder(of: "/a/b/roost.json") == "/a/b")
        #expect(ProjectFile.path("content", in: "") == "content")
        #expect(ProjectFile.path("content", in: "other") == "other/content")
        #expect(ProjectFile.path("content", in: "/") == "/content")
        #expect(ProjectFile.path("/abs", in: "other") == "/abs")
    }
}
