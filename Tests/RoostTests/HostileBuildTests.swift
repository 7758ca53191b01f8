import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `roost build` through the real binary, over an existing site: a failed build leaves the
/// output as it was; a killed build leaves whole files and the next build repairs the site;
/// two builds into one folder refuse each other; unwritable outputs are clear errors.
@Suite("roost build: failure safety", .serialized, .timeLimit(.minutes(3)))
struct FailureSafetyTests {
    static let content = RoostProcess.packageRoot.path + "/content"
    static let templates = RoostProcess.packageRoot.path + "/templates"

    /// A folder with a copy of the sample store and the theme, and a built site in `out`
    /// (plus a file of the user's own that no build may touch).
    static func builtSite() throws -> TemporaryFolder {
        let t = try TemporaryFolder()
        try copyFolder(content, to: t.path("store"))
        try copyFolder(templates, to: t.path("theme"))
        let first = try RoostProcess.run([
            "build", "--store", t.path("store"), "--templates", t.path("theme"), "--output", t.path("out"), "--quiet",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        try t.write("out/CNAME", "example.com\n")
        return t
    }

    static func build(_ t: TemporaryFolder, _ extra: [String] = []) throws -> RoostProcess.Result {
        try RoostProcess.run(
            ["build", "--store", t.path("store"), "--templates", t.path("theme"), "--output", t.path("out"), "--quiet"]
                + extra)
    }

    @Test func invalidJSONLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let before = fullListing(t.path("out"))
        try t.write("store/tweets/zzzBroken.json", "{\n  \"caption\": \"x\",\n  \"uid\": oops\n}\n")
        let result = try Self.build(t)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tweets/zzzBroken.json:3:10"), "\(result.stderr)")
        let after = fullListing(t.path("out"))
        #expect(after == before, "\(differences(before, after))")
    }

    @Test func aDataErrorLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let before = fullListing(t.path("out"))
        try t.write("store/tweets/aaaWrong.json", #"{"caption": 5, "timestamp": "2023-01-01T00:00:00Z", "uid": "x"}"#)
        let result = try Self.build(t)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tweets/aaaWrong: field 'caption'"), "\(result.stderr)")
        #expect(fullListing(t.path("out")) == before)
    }

    /// A build whose commit fails partway (a folder of someone's where a page goes, met after
    /// the feed's pages were put in place) leaves the output byte-identical; once the folder
    /// is gone, the next build writes the site.
    @Test func aCommitThatFailsPartwayLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let page = "out/t/0YFCIsYrzaxRdPpOUAoR/index.html"
        try FileManager.default.removeItem(atPath: t.path(page))
        try t.write(page + "/mine.txt", "the user's file\n")
        let before = fullListing(t.path("out"))
        let tweet = t.path("store/tweets/2ka14XtBQ6RbXTryUDF9.json")
        let edited = try String(contentsOfFile: tweet, encoding: .utf8)
            .replacingOccurrences(of: "\"caption\": \"", with: "\"caption\": \"Edited: ")
        try edited.write(toFile: tweet, atomically: true, encoding: .utf8)
        let result = try Self.build(t)
        #expect(result.status == 1)
        #expect(result.stderr.contains(t.path(page)) && result.stderr.contains("in the way"), "\(result.stderr)")
        let after = fullListing(t.path("out"))
        #expect(after == before, "\(differences(before, after))")
        try FileManager.default.removeItem(atPath: t.path(page))
        #expect(try Self.build(t).status == 0)
        #expect(
            try String(contentsOfFile: t.path("out/t/2ka14XtBQ6RbXTryUDF9/index.html"), encoding: .utf8).contains(
                "Edited: "))
    }

    @Test func anUnknownPartialLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let before = fullListing(t.path("out"))
        let feed = t.path("theme/feed.mustache")
        let text = try String(contentsOfFile: feed, encoding: .utf8)
        try (text + "{{> partials/does-not-exist}}\n").write(toFile: feed, atomically: true, encoding: .utf8)
        let result = try Self.build(t)
        #expect(result.status == 1)
        #expect(result.stderr.contains("does-not-exist"), "\(result.stderr)")
        #expect(result.stderr.contains("feed.mustache"), "the error names the template file: \(result.stderr)")
        #expect(fullListing(t.path("out")) == before)
    }

    /// A template that fails while pages are being written (a dynamic partial naming no
    /// template): the staged files are thrown away.
    @Test func aFailureWhileRenderingLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let before = fullListing(t.path("out"))
        let tweet = t.path("theme/tweet.mustache")
        let text = try String(contentsOfFile: tweet, encoding: .utf8)
        try text.replacingOccurrences(of: "{{$main}}", with: "{{$main}}{{>*tweet.id}}")
            .write(toFile: tweet, atomically: true, encoding: .utf8)
        // Change every page, so a half-finished build would show.
        let result = try Self.build(t, ["--base-url", "/changed/"])
        #expect(result.status == 1, "\(result.stderr)")
        let after = fullListing(t.path("out"))
        #expect(after == before, "\(differences(before, after))")
    }

    @Test func anUnknownViewerLeavesTheOutputByteIdentical() throws {
        let t = try Self.builtSite()
        let before = fullListing(t.path("out"))
        let result = try Self.build(t, ["--viewer", "nobody-at-all"])
        #expect(result.status == 1 && result.stderr.contains("nobody-at-all"))
        #expect(fullListing(t.path("out")) == before)
    }

    /// (d) An output folder that cannot be created or written: a clear error, exit 1.
    @Test func anOutputThatCannotBeWritten() throws {
        let t = try TemporaryFolder()
        try t.write("file", "I am a file\n")
        for output in [t.path("file/out"), t.path("file"), t.path("file/a/b")] {
            let result = try RoostProcess.run(["build", "--store", Self.content, "--output", output, "--quiet"])
            #expect(result.status == 1, "\(output): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(t.path("file")), "\(output): \(result.stderr)")
            #expect(
                result.stderr.lowercased().contains("not a directory") || result.stderr.contains("in the way"),
                "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count <= 3, "a short message: \(result.stderr)")
        }
        #expect(try String(contentsOfFile: t.path("file"), encoding: .utf8) == "I am a file\n")
        // A file of the old site replaced by a folder: the file in the way is not the site's; exit 1, and a message.
        let site = try Self.builtSite()
        try FileManager.default.removeItem(atPath: site.path("out/u"))
        try site.write("out/u", "not a folder\n")
        let result = try Self.build(site)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(site.path("out/u")), "\(result.stderr)")
        #expect(try String(contentsOfFile: site.path("out/u"), encoding: .utf8) == "not a folder\n")
    }
}

/// (b) and (c): builds of a larger store (200 users, 2,000 tweets: seconds per build).
@Suite("roost build: killed and concurrent builds", .serialized, .timeLimit(.minutes(3)))
struct KilledBuildTests {
    /// The generated store, made once.
    static let store: String = {
        let folder = FileManager.default.temporaryDirectory.path + "/roost-hostile-store-\(getpid())"
        if !FileManager.default.fileExists(atPath: folder + "/tweets") {
            try! generateStore(at: folder, users: 200, tweets: 2_000, seed: 1)
        }
        atexit { removeTree(FileManager.default.temporaryDirectory.path + "/roost-hostile-store-\(getpid())") }
        return folder
    }()

    static let oldOptions = ["--base-url", "/old/", "--page-size", "20"]
    static let newOptions = ["--base-url", "/new/", "--page-size", "15"]

    static func buildArguments(_ output: String, _ options: [String]) -> [String] {
        [
            "build", "--store", store, "--templates", RoostProcess.packageRoot.path + "/templates", "--output", output,
            "--quiet",
        ] + options
    }

    @Test func aKilledBuildLeavesWholeFilesAndTheNextBuildRepairs() throws {
        let t = try TemporaryFolder()
        let clock = ContinuousClock()
        // The two full builds: the old site and the new one.
        #expect(try RoostProcess.run(Self.buildArguments(t.path("old"), Self.oldOptions)).status == 0)
        #expect(try RoostProcess.run(Self.buildArguments(t.path("new"), Self.newOptions)).status == 0)
        let old = fullListing(t.path("old"))
        let new = fullListing(t.path("new"))
        #expect(old.count > 3_000 && new.count > 3_000)
        // How long a build killed below runs: the old site rebuilt with the new options, with
        // the build cache as warm as theirs (a full build into an empty folder is no measure:
        // the cache makes the rebuild shorter by what it saves).
        try copyFolder(t.path("old"), to: t.path("out"))
        let start = clock.now
        #expect(try RoostProcess.run(Self.buildArguments(t.path("out"), Self.newOptions)).status == 0)
        let buildTime = clock.now - start

        var generator = SystemRandomNumberGenerator()
        let total = Int(buildTime / .milliseconds(1))
        // Early (reading), middle (rendering, staging), late (committing); then random ones.
        var delays = [total / 4, total / 2, total * 9 / 10]
        delays += (0..<2).map { _ in Int.random(in: (total / 10)...(total * 11 / 10), using: &generator) }
        var killedWhileRunning = 0
        var killedAt: [Int] = []
        for first in delays {
            // A build that ended before its kill (this machine busier when it was timed) is
            // run again and killed sooner, twice at most.
            var delay = first
            for attempt in 0..<3 {
                // Each kill starts from the old site: a repaired folder would keep most pages
                // (their fingerprints match) and finish before the kill.
                removeTree(t.path("out"))
                try copyFolder(t.path("old"), to: t.path("out"))
                let child = try RoostChild(
                    Self.buildArguments(t.path("out"), Self.newOptions), logs: t.path("child"))
                usleep(UInt32(delay) * 1_000)
                let running = child.process.isRunning
                child.kill9()
                let now = fullListing(t.path("out"))
                var broken: [String] = []
                for (path, bytes) in now where !path.hasPrefix(".roost-") && !path.hasSuffix("/") {
                    if bytes != old[path] && bytes != new[path] { broken.append(path) }
                }
                #expect(
                    broken.isEmpty,
                    "killed after \(delay) ms: \(broken.count) files are neither the old nor the new version: \(broken.sorted().prefix(10))"
                )
                if running {
                    killedWhileRunning += 1
                    killedAt.append(delay)
                    break
                }
                if attempt < 2 { delay = delay * 2 / 3 }
            }
        }
        #expect(
            killedWhileRunning >= 3,
            "the builds finished before they were killed: \(delays) ms of \(total), killed at \(killedAt)")
        // The next build repairs the site: exactly what a clean build writes.
        let result = try RoostProcess.run(Self.buildArguments(t.path("out"), Self.newOptions))
        #expect(result.status == 0, "\(result.stderr)")
        let repaired = fullListing(t.path("out"))
        #expect(repaired == new, "\(differences(new, repaired))")
    }

    @Test func aSecondBuildIntoTheSameOutputRefuses() throws {
        let t = try TemporaryFolder()
        let first = try RoostChild(Self.buildArguments(t.path("out"), Self.newOptions), logs: t.path("first"))
        // Wait until the first build holds the lock.
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: t.path("out/.roost-lock")), first.process.isRunning,
            ContinuousClock.now < deadline
        {
            usleep(20_000)
        }
        try #require(first.process.isRunning, "the first build ended before the second started")
        let second = try RoostProcess.run(Self.buildArguments(t.path("out"), Self.oldOptions))
        let firstStillRunning = first.process.isRunning
        let (status, stderr) = first.wait()
        #expect(status == 0, "the first build: \(stderr)")
        #expect(firstStillRunning, "the first build finished before the second tried: the test proves nothing")
        #expect(second.status == 1, "\(second.status): \(second.stderr)")
        #expect(second.stderr.contains("being written by another roost build"), "\(second.stderr)")
        #expect(second.stderr.contains(t.path("out")), "\(second.stderr)")
        // The first build's site is whole: the new version of every file.
        let clean = try TemporaryFolder()
        #expect(try RoostProcess.run(Self.buildArguments(clean.path("out"), Self.newOptions)).status == 0)
        let expected = fullListing(clean.path("out"))
        let got = fullListing(t.path("out"))
        #expect(got == expected, "\(differences(expected, got))")
    }
}

/// (e) Privacy: no user's `email`, and no value of a field Roost does not know, is ever
/// written to any output file.
@Suite("roost build: privacy", .timeLimit(.minutes(2)))
struct PrivacyTests {
    static let payload = "<script>alert('XSS')</script>'><x-hostile>"

    @Test func emailsAndUnknownFieldsAreNeverWritten() throws {
        let t = try TemporaryFolder()
        try copyFolder(FailureSafetyTests.content, to: t.path("sample"))
        // A hostile store beside it: markup everywhere, e-mails that look like markup and URLs.
        let hostile: [(String, String)] = [
            (
                "users/h1.json",
                #"{"username": "h1", "email": "\#(Self.payload)@evil.example", "bio": "mail me", "secretField": "TOPSECRET-h1"}"#
            ),
            (
                "users/h2.json",
                #"{"username": "h2", "fullname": "H2", "email": "https://h2-private.example/?TOPSECRET", "profileImageUrl": "javascript:alert(1)"}"#
            ),
            (
                "users/h3.json",
                #"{"username": "h3", "email": "h3.private@example.com", "Email": "h3.other@example.com", "emailAddress": "h3.third@example.com"}"#
            ),
            (
                "tweets/t1.json",
                #"{"caption": "hi @h1 @h2", "timestamp": "2024-01-01T00:00:00Z", "uid": "h1", "secretField": {"deep": ["TOPSECRET-deep"]}}"#
            ),
            ("users/h1/user-likes/t1.json", #"{"secretField": "TOPSECRET-like"}"#),
            (
                "favorites/h1/favorites/p1.json",
                #"{"placeName": "Home", "address": "1 Road", "secretField": "TOPSECRET-place", "email": "place.private@example.com"}"#
            ),
        ]
        for (path, text) in hostile { try t.write("hostile/" + path, text) }
        for store in ["sample", "hostile"] {
            try addSecretFields(t.path(store))
            var secrets = ["TOPSECRET"]
            for (_, value) in storeDocuments(t.path(store)) {
                for key in ["email", "Email", "emailAddress"] {
                    if let email = value[key]?.stringValue { secrets.append(email) }
                }
            }
            #expect(secrets.count > (store == "sample" ? 10 : 5))
            for viewer in [[], ["--viewer", store == "sample" ? "mina" : "h1"]] {
                let result = try RoostProcess.run(
                    ["build", "--store", t.path(store), "--output", t.path("out-\(store)"), "--quiet"] + viewer)
                #expect(result.status == 0, "\(store): \(result.stderr)")
                let files = fullListing(t.path("out-\(store)"))
                #expect(files.count > 10)
                for (path, bytes) in files where !path.hasSuffix("/") {
                    let text = String(decoding: bytes, as: UTF8.self)
                    for secret in secrets {
                        // Also the escaped forms of the value.
                        let escaped = secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                            of: "<", with: "&lt;"
                        )
                        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                        .replacingOccurrences(of: "'", with: "&#39;")
                        #expect(!text.contains(secret) && !text.contains(escaped), "\(store): \(secret) in \(path)")
                    }
                }
            }
        }
    }
}

/// `roost import` writes IDs as file names: hostile IDs never write outside `--to`.
// (The limit is generous: a test's clock runs while it waits for a thread, and on 2 cores the
// tests that wait for child processes can hold both for minutes.)
@Suite("roost import: hostile IDs", .timeLimit(.minutes(5)))
struct HostileImportTests {
    @Test(arguments: [
        "..", ".", "", "../../escaped", "a/b", "/abs", "nul\u{0}x", "x\\..\\..\\y", ".hidden",
        String(repeating: "z", count: 300),
    ])
    func anIDThatIsNotAFileNameIsRefusedOrKeptInside(id: String) throws {
        let t = try TemporaryFolder()
        let escapedID = JSONWriter.string(.string(id), pretty: false).dropFirst().dropLast()  // without its quotes
        try t.write(
            "deep/er/export.json",
            """
            {"__collections__": {"tweets": {"\(escapedID)": {"caption": "x", "timestamp": 0, "uid": "u1"}},
              "users": {"u1": {"username": "a", "__collections__": {"user-likes": {"\(escapedID)": {}}}}}}}
            """)
        let result = try RoostProcess.run(["import", t.path("deep/er/export.json"), "--to", t.path("deep/er/store")])
        // Nothing appears outside the destination (besides the export itself).
        let outside = fullListing(t.path()).keys.filter { !$0.hasPrefix("deep/er/store/") && $0 != "deep/er/store/" }
        #expect(
            Set(outside) == ["deep/", "deep/er/", "deep/er/export.json"], "\(id.debugDescription): \(outside.sorted())")
        if result.status == 0 {
            // Imported: the store reads back with the same IDs.
            let check = try RoostProcess.run(["check", "--store", t.path("deep/er/store")])
            #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        } else {
            #expect(result.status == 1, "\(id.debugDescription): \(result.status) \(result.stderr)")
            #expect(
                result.stderr.contains("tweets/") || result.stderr.contains("user-likes/"),
                "names the document: \(result.stderr)")
        }
    }
}
