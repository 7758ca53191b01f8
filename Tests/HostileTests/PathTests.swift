import Foundation
import Model
import Site
import Store
import TestSupport
import Testing

// A hang is caught within the limit. It is generous because a test's clock runs while it waits
// for a thread: on 2 cores, the tests that wait for child processes can hold both for minutes.
/// IDs and names that are hostile as file names and URL segments: every page path stays
/// inside the output, and every link resolves (SPEC 3).
@Suite(.timeLimit(.minutes(5)))
struct PathTests {
    static let long250 = String(repeating: "a", count: 246) + "Long"  // 250 bytes: with ".json", 255
    static let longKorean = String(repeating: "가", count: 83)  // 249 bytes

    /// IDs usable as file names (no "/", no NUL) that are awkward anywhere else.
    static let ids = [
        "with space", "a..b", "..a", "a..", "%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e", "..%2F", "트윗🐦", "e\u{301}", "\u{E9}",
        long250, longKorean, "Case", "case", "CASE", "index.html", "page", "~0000000000000000", "~", "-", "_",
        "a b\tc\nd",
        "?query#frag", "semi;colon", "back\\slash", "C:", "con", "\u{202E}gpj.exe", "\u{FEFF}bom", "*", "'\"<>&",
        "\u{1}\u{7F}", ".hidden-not-a-dot-name".replacingOccurrences(of: ".", with: "dot"),
    ]

    /// Usernames that are not plain handles, or differ only in case.
    static let usernames = [
        "Mina", "mina", "MINA", "../admin", "..", ".", "", " ", "u-abc", "user name", "사용자",
        String(repeating: "x", count: 31),
        String(repeating: "y", count: 30), "a/b", "%2F", "e\u{301}", "\u{E9}", "index.html",
    ]

    static func oddStore(_ folder: StoreFolder) {
        for (i, id) in ids.enumerated() {
            let uid = id
            folder.document(
                "users/\(uid).json",
                [
                    "username": json(usernames[i % usernames.count] + (i < usernames.count ? "" : "\(i)")),
                    "bio": json("#\(id) @\(usernames[i % usernames.count])"),
                ])
            folder.document(
                "tweets/\(id).json",
                [
                    "caption": json("#tag\(i) #\(id) #\(Self.long250) #\(Self.longKorean) @Mina @mina"),
                    "timestamp": String(1_700_000_000 + i), "uid": json(uid),
                    "replyTo": json(ids[(i + 1) % ids.count]),
                ])
            folder.document("users/\(uid)/user-likes/\(ids[(i + 3) % ids.count]).json", [:])
            folder.document(
                "favorites/\(uid)/favorites/\(id).json",
                ["placeName": json(id), "coordinate": #"{"latitude": 1, "longitude": 2}"#])
        }
    }

    @Test(arguments: [
        SiteConfig(), SiteConfig(baseURL: "https://example.com/a b/", pageSize: 2),
        SiteConfig(baseURL: "/sub/", pageSize: 1),
    ])
    func oddIDsStayInsideTheOutput(config: SiteConfig) throws {
        let folder = try StoreFolder()
        Self.oddStore(folder)
        let site = try requireSite(folder.path, config: config)
        // Dot-names ("..a", "..%2F") are ignored (SPEC 2.1).
        let expected = Self.ids.filter { !$0.hasPrefix(".") }.count
        #expect(site.snapshot.tweets.count == expected)
        let problems = siteProblems(site)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(lines(problems))")
        // Every tweet and every user has a page of its own.
        let tweetPages = Set(site.paths.filter { $0.hasPrefix("t/") })
        #expect(tweetPages.count == expected)
        let profiles = Set(
            site.paths.filter {
                $0.hasPrefix("u/") && $0.split(separator: "/").count == 3 && $0.hasSuffix("/index.html")
            })
        #expect(profiles.count == expected, "\(profiles.sorted())")
    }

    /// Names that differ only in case get paths that differ in more than case: the site can
    /// be copied to a case-insensitive file system (macOS, Windows, many hosts).
    @Test func pathsDoNotDifferOnlyInCase() throws {
        let folder = try StoreFolder()
        Self.oddStore(folder)
        let site = try requireSite(folder.path)
        var seen: [String: String] = [:]
        var clashes: [String] = []
        for path in site.paths {
            if let other = seen[path.lowercased()] { clashes.append("\(other) ~ \(path)") }
            seen[path.lowercased()] = path
        }
        #expect(clashes.isEmpty, "\(clashes)")
        // Plain IDs that clash with none keep their readable URL.
        #expect(site.paths.contains("t/with space/index.html") == false && site.paths.contains("t/page/index.html"))
    }

    /// The single-file formats can carry IDs no file name can: "", ".", "..", "a/b", NUL.
    @Test func exportIDsThatAreNotFileNames() throws {
        let folder = try StoreFolder()
        let ids = [
            "", ".", "..", "../../../../tmp/roost-escape", "a/b", "/abs", "\u{0}nul", "..\\..\\win", "%2F",
            Self.long250 + Self.long250,
        ]
        var tweets: [String] = []
        var users: [String] = []
        for (i, id) in ids.enumerated() {
            users.append(
                "\(json(id)): {\"username\": \(json("user\(i)")), \"__collections__\": {\"user-likes\": {\(json(id)): {}}}}"
            )
            tweets.append(
                "\(json(id)): {\"caption\": \(json("#\(id) x")), \"timestamp\": \(1_700_000_000 + i), \"uid\": \(json(id)), \"replyTo\": \(json(ids[(i + 1) % ids.count]))}"
            )
        }
        folder.write(
            "export.json",
            "{\"__collections__\": {\"users\": {\(users.joined(separator: ", "))}, \"tweets\": {\(tweets.joined(separator: ", "))}}}"
        )
        let outcome = build(folder.path + "/export.json")
        let site = try #require(outcome.site, "\(outcome.summary)")
        #expect(site.store.format == .nodeFirestoreImportExport)
        #expect(site.snapshot.tweets.count == ids.count)
        let problems = siteProblems(site)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(lines(problems))")
    }

    /// Firestore REST names with dot segments and encoded slashes.
    @Test func restNamesWithDotSegments() throws {
        let folder = try StoreFolder()
        let names = [
            "tweets/..", "tweets/.", "users/../tweets/x", "tweets/a%2Fb", "users/..%2F..", "users/u1/user-likes/..",
        ]
        let docs = names.enumerated().map { i, name in
            """
            {"name": "projects/p/databases/(default)/documents/\(name)", "fields": {
              "caption": {"stringValue": "x"}, "timestamp": {"timestampValue": "2024-01-01T00:00:0\(i)Z"},
              "uid": {"stringValue": ".."}, "username": {"stringValue": "dots\(i)"}}}
            """
        }
        folder.write("export.json", "{\"documents\": [\(docs.joined(separator: ","))]}")
        let outcome = build(folder.path + "/export.json")
        switch outcome {
        case .built(let site):
            let problems = siteProblems(site)
            #expect(problems.isEmpty, "\(problems.count) problems:\n\(lines(problems))")
        case .storeError(let error):
            #expect("\(error)".contains("export.json"), "\(error)")
        case .dataErrors(let errors, _):
            Issue.record("unexpected data errors \(errors)")
        case .renderError(let message):
            Issue.record("render error \(message)")
        }
    }
}
