import Foundation
import TestSupport
import Testing

/// `roost` as a tool people install: the binary copied into an empty folder outside the
/// checkout, with no `templates/` or `content/` near it, makes a site with `init` and
/// builds and serves it with no options.
@Suite("roost init, and a binary copied anywhere")
struct InitTests {
    /// A tweet of the sample store, and words of its caption.
    static let tweetID = "n3ic8PbbaJl0077osRzU"
    static let captionWords = "Stop fighting the compiler."

    /// A new folder holding only a copy of the built binary (`bin/roost`).
    static func folderWithCopiedBinary() throws -> (folder: TemporaryFolder, binary: URL) {
        let folder = try TemporaryFolder()
        try folder.copy(RoostProcess.binary.path, to: "bin/roost")
        #expect(!folder.path().hasPrefix(RoostProcess.packageRoot.path + "/"), "outside the checkout")
        return (folder, folder.url.appendingPathComponent("bin/roost"))
    }

    /// Every file below `folder`, with its bytes (as `TemporaryFolder.files` gives them).
    static func files(in folder: String) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let file = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            found[file] = FileManager.default.contents(atPath: folder + "/" + file)
        }
        return found
    }

    static func text(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    @Test func aCopiedBinaryInitsBuildsAndServesASite() throws {
        let (folder, roost) = try Self.folderWithCopiedBinary()
        let version = try RoostProcess.run(["--version"], in: folder.url, binary: roost)
        #expect(version.status == 0 && version.stdout.hasPrefix("roost "))

        let initialized = try RoostProcess.run(["init", "site"], in: folder.url, binary: roost)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let site = folder.url.appendingPathComponent("site")
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: site.path))
        #expect(written == ["roost.json", "content", "README.md"], "no templates/ without --theme")
        let config = Self.text(site.path + "/roost.json")
        for key in ["\"title\": \"site\"", "\"language\": \"en\"", "\"baseURL\": \"/\"", "\"store\": \"content\""] {
            #expect(config.contains(key), "roost.json has \(key)")
        }
        #expect(!config.contains("templates"))
        #expect(folder.files("site/content") == Self.files(in: RoostProcess.packageRoot.path + "/content"))

        let built = try RoostProcess.run(["build"], in: site, binary: roost)
        #expect(built.status == 0, "\(built.stderr)")
        let output = site.path + "/public"
        let feed = Self.text(output + "/index.html")
        #expect(feed.contains("h-entry") && feed.contains("data-tweet-id=\""), "the feed shows tweets")
        let tweet = Self.text(output + "/t/\(Self.tweetID)/index.html")
        #expect(tweet.contains("data-tweet-id=\"\(Self.tweetID)\"") && tweet.contains(Self.captionWords))
        #expect(
            FileManager.default.contents(atPath: output + "/static/style.css")
                == FileManager.default.contents(atPath: RoostProcess.packageRoot.path + "/templates/static/style.css"),
            "the built-in theme's static files")

        let server = try ServeTests.Server(arguments: [], in: site, binary: roost)
        let (status, page) = try server.get("/t/\(Self.tweetID)/")
        #expect(status == 200 && page.contains(Self.captionWords))
        let (cssStatus, css) = try server.get("/static/style.css")
        #expect(cssStatus == 200 && css.contains(":root"))
    }

    @Test func initThemeWritesTheThemeAndATemplatesFolderReplacesTheBuiltInOne() throws {
        let (folder, roost) = try Self.folderWithCopiedBinary()
        let initialized = try RoostProcess.run(["init", "--theme", "site"], in: folder.url, binary: roost)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let site = folder.url.appendingPathComponent("site")
        #expect(folder.files("site/templates") == Self.files(in: RoostProcess.packageRoot.path + "/templates"))
        #expect(Self.text(site.path + "/roost.json").contains("\"templates\": \"templates\""))

        // An edit to templates/ in the current folder shows: that folder is the theme.
        let layout = site.path + "/templates/layout.mustache"
        try (Self.text(layout) + "<!-- edited theme -->\n").write(toFile: layout, atomically: true, encoding: .utf8)
        #expect(try RoostProcess.run(["build"], in: site, binary: roost).status == 0)
        #expect(Self.text(site.path + "/public/index.html").contains("<!-- edited theme -->"))

        // Without the folder (and roost.json's key naming it), the built-in theme again.
        try FileManager.default.moveItem(atPath: site.path + "/templates", toPath: folder.path("edited"))
        let config = site.path + "/roost.json"
        let withoutKey = Self.text(config).replacingOccurrences(of: ",\n  \"templates\": \"templates\"", with: "")
        #expect(!withoutKey.contains("templates"))
        try withoutKey.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try RoostProcess.run(["build"], in: site, binary: roost).status == 0)
        #expect(!Self.text(site.path + "/public/index.html").contains("<!-- edited theme -->"))

        // --templates DIR names the theme wherever it is.
        let given = try RoostProcess.run(
            ["build", "--templates", folder.path("edited"), "--output", "given"], in: site, binary: roost)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(Self.text(site.path + "/given/index.html").contains("<!-- edited theme -->"))

        // serve follows the same rule.
        let server = try ServeTests.Server(arguments: ["--templates", folder.path("edited")], in: site, binary: roost)
        #expect(try server.get("/").1.contains("<!-- edited theme -->"))
    }

    @Test func initRefusesAFolderThatIsNotEmptyUnlessForced() throws {
        let folder = try TemporaryFolder()
        try folder.write("site/notes.txt", "mine")
        let refused = try RoostProcess.run(["init", "site"], in: folder.url)
        #expect(refused.status == 1 && refused.stderr.contains("is not empty"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/roost.json")))

        let forced = try RoostProcess.run(["init", "site", "--force"], in: folder.url)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("site/roost.json")))
        #expect(Self.text(folder.path("site/notes.txt")) == "mine", "other files are left alone")

        let missing = try RoostProcess.run(["init"], in: folder.url)
        #expect(missing.status == 2 && missing.stderr.contains("missing DIR"))
    }
}
