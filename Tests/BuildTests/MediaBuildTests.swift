import Build
import Foundation
import Live
import Media
import Model
import Site
import Support
import Synchronization
import TestSupport
import Testing

/// A small store whose pictures are on a local test server, and a cache folder: what
/// `--media` does to a build (SPEC 9). No test reaches the internet.
final class MediaSite {
    /// The picture server's version of `/changing.png` (bumped to change its bytes).
    final class Version: Sendable {
        let value = Mutex(1)
    }
    let version = Version()
    let server: TestServer
    let work: TemporaryFolder

    init() throws {
        let version = self.version
        server = try TestServer { request in
            let path = String(request.path.prefix { $0 != "?" })
            if path.hasPrefix("/png/"), let n = Int(path.dropFirst(5).dropLast(4)) {
                return .ok(TestImages.numbered(n), type: "image/png")
            }
            switch path {
            case "/changing.png":
                let v = version.value.withLock { $0 }
                return .ok(TestImages.png(width: v, height: 2, seed: v), type: "image/png")
            case "/fake.png":
                return .ok(Array("<!doctype html><script>alert(1)</script>".utf8), type: "image/png")
            default:
                return .answer(status: 404, headers: [], body: Array("not here".utf8))
            }
        }
        work = try TemporaryFolder()
        let base = server.base
        try writeUser("u1", "mina", image: "\(base)/png/1.png", bio: "Painter. ![my studio](\(base)/png/3.png)")
        try writeUser("u2", "joon", image: "\(base)/gone.png")
        try writeUser("u3", "sol", image: "\(base)/changing.png")
        try writeTweet("t1", by: "u1", "A cat: ![a cat \"Mo\"](\(base)/png/2.png) and ![](\(base)/fake.png)")
        try writeTweet("t2", by: "u2", "hello")
        try writeTweet("t3", by: "u3", "hi")
    }

    private func writeUser(_ uid: String, _ name: String, image: String, bio: String? = nil) throws {
        var fields = ["\"username\": \"\(name)\"", "\"profileImageUrl\": \"\(image)\""]
        if let bio { fields.append("\"bio\": \(json(bio))") }
        try work.write("store/users/\(uid).json", "{" + fields.joined(separator: ", ") + "}")
    }

    private func writeTweet(_ id: String, by uid: String, _ caption: String) throws {
        try work.write(
            "store/tweets/\(id).json",
            "{\"caption\": \(json(caption)), \"timestamp\": \"2023-05-0\(id.last!)T10:00:00Z\", \"uid\": \"\(uid)\"}")
    }

    private func json(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
            .description
    }

    func url(_ path: String) -> String { server.base + path }

    /// The picture server is on this machine: allowed on purpose, as `--media-allow 127.0.0.1/32` does.
    static let allowed = [IPNetwork("127.0.0.1/32")!]

    /// The options of a mirrored build whose cache is `cache` in the work folder.
    func media(cache: String = "cache", offline: Bool = false, refresh: Bool = false, allow: [IPNetwork] = allowed)
        -> MediaOptions
    {
        var options = MediaOptions(cache: work.path(cache), offline: offline, refresh: refresh)
        options.allow = allow
        return options
    }

    /// Builds into `output` with the built-in theme.
    @discardableResult
    func build(
        _ output: String, _ mode: MediaMode = .mirror, cache: String = "cache", offline: Bool = false,
        refresh: Bool = false, allow: [IPNetwork] = allowed
    ) throws -> BuildReport {
        try SiteBuild(
            BuildOptions(
                store: work.path("store"), output: work.path(output), config: SiteConfig(media: mode),
                media: media(cache: cache, offline: offline, refresh: refresh, allow: allow))
        ).run()
    }

    func text(_ output: String, _ page: String) -> String {
        String(decoding: work.files(output)[page] ?? Data(), as: UTF8.self)
    }

    /// Every HTML and XML file of `output`, as text.
    func pages(_ output: String) -> [String: String] {
        work.files(output).filter { $0.key.hasSuffix(".html") || $0.key.hasSuffix(".xml") }
            .mapValues { String(decoding: $0, as: UTF8.self) }
    }

    func mediaFiles(_ output: String) -> [String: Data] {
        work.files(output).filter { $0.key.hasPrefix("media/") }
    }

    /// `media/{sha256}.png` of bytes.
    static func path(of bytes: [UInt8]) -> String {
        "media/" + SHA256.hex(bytes) + ".png"
    }
}

@Suite("--media: mirrored, linked or no images in a built site")
struct MediaBuildTests {
    @Test func mirrorWritesEachImageOnceAndPagesPointAtTheCopies() throws {
        let site = try MediaSite()
        let report = try site.build("site")
        let one = MediaSite.path(of: TestImages.numbered(1))
        let two = MediaSite.path(of: TestImages.numbered(2))
        let three = MediaSite.path(of: TestImages.numbered(3))
        let changing = MediaSite.path(of: TestImages.png(width: 1, height: 2, seed: 1))
        let media = site.mediaFiles("site")
        #expect(Set(media.keys) == [one, two, three, changing])
        #expect(media[two] == Data(TestImages.numbered(2)), "the bytes as downloaded")
        #expect(report.mediaFiles == 4 && report.media?.downloaded == 4)

        let profile = site.text("site", "u/mina/index.html")
        #expect(profile.contains("src=\"\(one)\""), "the profile picture is the copy")
        #expect(profile.contains("<img src=\"\(three)\" alt=\"my studio\" loading=\"lazy\""), "so is the bio's image")
        let tweet = site.text("site", "t/t1/index.html")
        let size = "width=\"\(1 + 2 % 64)\" height=\"1\""
        #expect(
            tweet.contains(
                "<img src=\"\(two)\" alt=\"a cat &quot;Mo&quot;\" loading=\"lazy\" decoding=\"async\" \(size)>"),
            "a caption's image is an <img> of the copy, with its alt text and size")
        #expect(tweet.contains("<img src=\"static/picture.svg\" alt=\"\""), "a refused one is the placeholder")
        #expect(site.text("site", "u/joon/index.html").contains("src=\"static/avatar.svg\""))
        #expect(tweet.contains("img-src 'self' data:;"), "the CSP allows no other host")
        for (path, text) in site.pages("site") {
            #expect(!text.contains(site.server.base), "\(path) names the picture server")
        }

        let warnings = report.warnings.filter { $0.kind == .imageNotMirrored }.map(\.description).sorted()
        #expect(
            warnings == [
                "tweets/t1: field 'caption': \(site.url("/fake.png")): not a PNG, JPEG, GIF, WebP or AVIF image "
                    + "(it looks like HTML); the placeholder is shown",
                "users/u2: field 'profileImageUrl': \(site.url("/gone.png")): HTTP 404; the placeholder is shown",
            ])
    }

    @Test func aWarmCacheMakesNoRequestAndTheSameSite() throws {
        let site = try MediaSite()
        try site.build("a")
        let requests = site.server.log.requests.count
        let connections = site.server.log.connections
        let second = try site.build("b")
        #expect(site.server.log.requests.count == requests && site.server.log.connections == connections)
        #expect(second.media?.fromCache == 4 && second.media?.requests == 0)
        #expect(site.work.files("a") == site.work.files("b"), "byte-identical")
        #expect(second.warnings.count { $0.kind == .imageNotMirrored } == 2, "failures are remembered, not hidden")
    }

    @Test func offlineOpensNoConnection() throws {
        let site = try MediaSite()
        let report = try site.build("site", offline: true)
        #expect(site.server.log.connections == 0)
        #expect(site.mediaFiles("site").isEmpty)
        #expect(report.warnings.count { $0.description.contains("not in the media cache (offline)") } == 6)
        #expect(site.text("site", "u/mina/index.html").contains("src=\"static/avatar.svg\""))

        try site.build("warm")
        let connections = site.server.log.connections
        try site.build("again", offline: true)
        #expect(site.server.log.connections == connections)
        #expect(site.work.files("again") == site.work.files("warm"), "offline from a warm cache: the same site")
    }

    @Test func noneShowsThePlaceholderAndNoRemoteURL() throws {
        let site = try MediaSite()
        let report = try site.build("site", .none)
        #expect(site.server.log.connections == 0 && report.media == nil)
        #expect(site.mediaFiles("site").isEmpty)
        for (path, text) in site.pages("site") {
            #expect(!text.contains("127.0.0.1"), "\(path) has a remote URL")
        }
        let tweet = site.text("site", "t/t1/index.html")
        #expect(tweet.contains("<img src=\"static/picture.svg\" alt=\"a cat &quot;Mo&quot;\""))
        #expect(tweet.contains("img-src 'self' data:;"))
    }

    /// Pictures point at the remote URLs: a caption's image is a picture (its alt text kept),
    /// as a profile's is, not a text link to it.
    @Test func linkPointsAtTheRemoteURLs() throws {
        let site = try MediaSite()
        try site.build("site", .link)
        #expect(site.server.log.connections == 0)
        let tweet = site.text("site", "t/t1/index.html")
        #expect(tweet.contains("<img src=\"\(site.url("/png/2.png"))\" alt=\"a cat &quot;Mo&quot;\""), "\(tweet)")
        #expect(site.text("site", "u/mina/index.html").contains("src=\"\(site.url("/png/1.png"))\""))
        #expect(tweet.contains("img-src 'self' https: http: data:;"))
    }

    /// Fingerprints: a picture whose bytes changed changes every page that shows it, so the
    /// rebuild is what a clean build makes.
    @Test func aChangedPictureRewritesThePagesThatShowIt() throws {
        let site = try MediaSite()
        try site.build("site")
        site.version.value.withLock { $0 = 2 }
        let report = try site.build("site", refresh: true)
        #expect(report.media?.requests == 6, "a refresh asks again for every image, failed ones too")
        try site.build("clean", cache: "cache")
        #expect(site.work.files("site") == site.work.files("clean"))
        let new = MediaSite.path(of: TestImages.png(width: 2, height: 2, seed: 2))
        #expect(site.text("site", "u/sol/index.html").contains("src=\"\(new)\""))
        #expect(site.mediaFiles("site")[new] != nil)
        #expect(
            site.mediaFiles("site")[MediaSite.path(of: TestImages.png(width: 1, height: 2, seed: 1))] == nil,
            "the old copy is removed")
    }

    @Test func aFailedImageIsAskedForAgainByTheNextBuild() throws {
        let site = try MediaSite()
        try site.build("site", offline: true)
        let report = try site.build("site")
        #expect(report.summary != nil && report.media?.downloaded == 4, "not 'nothing changed'")
        #expect(site.text("site", "u/mina/index.html").contains(MediaSite.path(of: TestImages.numbered(1))))
    }

    @Test func shardsSplitTheImagesToo() throws {
        let site = try MediaSite()
        try site.build("full")
        var union: [String: Data] = [:]
        for k in 1...2 {
            try SiteBuild(
                BuildOptions(
                    store: site.work.path("store"), output: site.work.path("part\(k)"),
                    config: SiteConfig(media: .mirror), shard: Shard(index: k, count: 2),
                    media: site.media())
            ).run()
            union.merge(site.work.files("part\(k)")) { a, _ in a }
        }
        #expect(union == site.work.files("full"))
    }

    @Test func serveAnswersTheCopiesFromTheCache() throws {
        let site = try MediaSite()
        let live = LiveSite(
            store: site.work.path("store"), templates: nil, config: SiteConfig(media: .mirror),
            media: site.media())
        let update = live.loadAll()
        #expect(update.error == nil)
        #expect(update.summary.contains("2 images not mirrored"), "\(update.summary)")
        let one = MediaSite.path(of: TestImages.numbered(1))
        #expect(live.file(at: one) == TestImages.numbered(1))
        #expect(live.file(at: "media/" + String(repeating: "0", count: 64) + ".png") == nil)
        let profile = String(decoding: live.file(at: "u/mina/index.html") ?? [], as: UTF8.self)
        #expect(profile.contains("src=\"\(one)\""))
        try site.build("site")
        #expect(site.work.files("site")["u/mina/index.html"] == Data(live.file(at: "u/mina/index.html")!))
    }

    @Test func anUnusableCacheFolderIsAClearError() throws {
        let site = try MediaSite()
        try site.work.write("file", "not a folder")
        #expect {
            try site.build("site", cache: "file/cache")
        } throws: { error in
            "\(error)".contains("the media cache cannot be used") && !"\(error)".contains("--cache")
        }
        #expect(!FileManager.default.fileExists(atPath: site.work.path("site/index.html")))
    }
}
