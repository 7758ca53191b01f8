import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import Media

/// Against a local test server (`TestServer`, `Routes`): no test reaches the internet.
@Suite("MediaMirror: downloads like a well-behaved client, into a content-addressed cache")
struct MediaMirrorTests {
    @Test func goodImagesOfEachTypeLandInTheCache() throws {
        let f = try MirrorFixture()
        let references = f.references(Fixtures.images.map { "/img/\($0)" })
        let results = try f.mirror().fetch(references)
        #expect(results.warnings(for: references).isEmpty)
        for name in Fixtures.images {
            let bytes = try Fixtures.bytes(name)
            let image = try #require(results.image(f.url("/img/\(name)")), "\(name)")
            let info = ImageSniffer.identify(bytes)!
            #expect(image.format == info.format)
            #expect(image.width == info.width && image.height == info.height && image.width != nil)
            #expect(image.hash == SHA256.hex(bytes))
            #expect(image.outputPath == "media/\(SHA256.hex(bytes)).\(info.format.fileExtension)")
            #expect(image.blobPath == f.cachePath + "/" + image.outputPath)
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: image.blobPath))) == bytes)
        }
        #expect(f.blobs.count == Fixtures.images.count)
        #expect(results.images.count == Fixtures.images.count)
        #expect(results.statistics.downloaded == Fixtures.images.count)
        #expect(results.statistics.requests == Fixtures.images.count)
        // Well-behaved: names itself, says what it accepts.
        let request = try #require(f.server.log.requests.first)
        #expect(request.headers["user-agent"] == "Roost/test (media tests)")
        #expect(request.headers["accept"]?.hasPrefix("image/avif,image/webp") == true)
        #expect(request.headers["if-none-match"] == nil)
    }

    @Test func everyFailureHasItsReason() throws {
        let f = try MirrorFixture()
        let paths = [
            "/missing", "/error", "/stall", "/hop/6/red-3x2.png", "/hop/3/anim-7x5.gif", "/to-file", "/endless",
            "/big", "/big-unannounced", "/script.svg", "/fake.png", "/drop", "/cut",
            "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "not a url", "https://", "ftp://x/y.png",
        ]
        let references = f.references(paths)
        var results = MediaResults()
        let elapsed = try seconds { results = try f.mirror().fetch(references) }
        func outcome(_ path: String) -> Result<MediaImage, MediaFailure>? {
            results[path.hasPrefix("/") ? f.url(path) : path]
        }
        #expect(outcome("/missing") == .failure(.httpStatus(404)))
        #expect(outcome("/error") == .failure(.httpStatus(500)))
        #expect(outcome("/stall") == .failure(.timedOut(seconds: 1.5, connecting: false)))
        #expect(outcome("/hop/6/red-3x2.png") == .failure(.tooManyRedirects(limit: 5)))
        #expect(try outcome("/hop/3/anim-7x5.gif")?.get().format == .gif)
        #expect(outcome("/to-file") == .failure(.redirectRefused(to: "file:///etc/passwd")))
        #expect(outcome("/endless") == .failure(.tooLarge(limit: 10 * 1_048_576)))
        #expect(outcome("/big") == .failure(.tooLarge(limit: 10 * 1_048_576)))
        #expect(outcome("/big-unannounced") == .failure(.tooLarge(limit: 10 * 1_048_576)))
        #expect(outcome("/script.svg") == .failure(.notAnImage(looksLike: "SVG")))
        #expect(outcome("/fake.png") == .failure(.notAnImage(looksLike: "HTML")))
        guard case .failure(.connection)? = outcome("/drop"), case .failure(.connection)? = outcome("/cut") else {
            Issue.record(
                "a dropped or cut connection: \(String(describing: outcome("/drop"))), \(String(describing: outcome("/cut")))"
            )
            return
        }
        #expect(outcome("file:///etc/passwd") == .failure(.notHTTP(scheme: "file")))
        #expect(outcome("data:image/png;base64,iVBORw0KGgo=") == .failure(.notHTTP(scheme: "data")))
        #expect(outcome("not a url") == .failure(.invalidURL))
        #expect(outcome("https://") == .failure(.invalidURL))
        #expect(outcome("ftp://x/y.png") == .failure(.notHTTP(scheme: "ftp")))

        // Only the image that came through three redirects is in the cache.
        #expect(f.blobs == [SHA256.hex(try Fixtures.bytes("anim-7x5.gif")) + ".gif"])
        // The large bodies were stopped while streaming: the server saw the client go away.
        let log = f.server.log
        #expect(log.cutShort.isSuperset(of: ["/endless", "/big-unannounced"]))
        #expect(log.streamed["/big-unannounced"]! < 100_000_000)
        #expect(log.streamed["/big"] ?? 0 < 100_000_000)
        // Never a request for what is not http(s).
        #expect(!log.requests.contains { $0.path.contains("passwd") })
        // The stalled answer cost its timeout, not more.
        #expect(elapsed < 4)

        let warnings = results.warnings(for: references).map(\.description)
        #expect(warnings.count == paths.count - 1)
        #expect(warnings.first == "users/u0: field 'profileImageUrl': \(f.url("/missing")): HTTP 404")
        #expect(
            warnings.contains(
                "users/u9: field 'profileImageUrl': \(f.url("/script.svg")): not a PNG, JPEG, GIF, WebP or AVIF image (it looks like SVG)"
            ))
        #expect(warnings.contains("users/u2: field 'profileImageUrl': \(f.url("/stall")): not complete within 1.5 s"))
        #expect(
            warnings.contains(
                "users/u7: field 'profileImageUrl': \(f.url("/big")): larger than 10 MiB: download stopped"))
    }

    @Test func warmCacheMakesNoConnection() throws {
        let f = try MirrorFixture()
        let references = f.references((0..<20).map { "/png/\($0).png" } + ["/img/tiny-8x6.avif"])
        let cold = try f.mirror().fetch(references)
        #expect(cold.statistics.downloaded == 21)
        let connections = f.server.log.connections
        let requests = f.server.log.requests.count
        #expect(requests == 21)

        let warm = try f.mirror().fetch(references)
        #expect(f.server.log.connections == connections)
        #expect(f.server.log.requests.count == requests)
        #expect(warm.statistics.fromCache == 21 && warm.statistics.requests == 0)
        #expect(warm.outcomes == cold.outcomes)
    }

    @Test func offlineMakesNoConnection() throws {
        let f = try MirrorFixture()
        let references = f.references(["/img/red-3x2.png", "/img/photo-5x4.jpg"])
        let empty = try f.mirror(offline: true).fetch(references)
        #expect(empty.outcomes.values.allSatisfy { $0 == .failure(.notCached) })
        #expect(f.server.log.connections == 0)
        #expect(
            empty.warnings(for: references).first?.description
                == "users/u0: field 'profileImageUrl': \(f.url("/img/red-3x2.png")): not in the media cache (offline)")

        _ = try f.mirror().fetch(Array(references.prefix(1)))
        let connections = f.server.log.connections
        let partly = try f.mirror(offline: true, refresh: true).fetch(references)
        #expect(partly.image(references[0].url)?.format == .png)
        #expect(partly[references[1].url] == .failure(.notCached))
        #expect(f.server.log.connections == connections)
    }

    @Test func refreshRevalidatesWithTheValidators() throws {
        let f = try MirrorFixture()
        let references = f.references(["/etag/red-3x2.png", "/lastmod/photo-5x4.jpg", "/changing"])
        let first = try f.mirror().fetch(references)
        #expect(first.statistics.downloaded == 3)
        let entry = try #require(f.mirror().cache.entry(for: references[0].url))
        #expect(entry.etag == "\"e-red-3x2.png\"")
        #expect(try f.mirror().cache.entry(for: references[1].url)?.lastModified == Routes.lastModified)

        f.routes.version.withLock { $0 = 2 }
        let before = f.server.log.requests.count
        let refreshed = try f.mirror(refresh: true).fetch(references)
        let asked = f.server.log.requests[before...]
        #expect(asked.count == 3)
        #expect(asked.first { $0.path.hasPrefix("/etag") }?.headers["if-none-match"] == "\"e-red-3x2.png\"")
        #expect(asked.first { $0.path.hasPrefix("/lastmod") }?.headers["if-modified-since"] == Routes.lastModified)
        #expect(asked.first { $0.path == "/changing" }?.headers["if-none-match"] == "\"v1\"")
        #expect(refreshed.statistics.notModified == 2)
        #expect(refreshed.statistics.downloaded == 1)
        #expect(refreshed.image(references[0].url) == first.image(references[0].url))
        // The changed image has new bytes, so a new name; the old blob stays (others may use it).
        let changed = try #require(refreshed.image(references[2].url))
        #expect(changed != first.image(references[2].url))
        #expect(changed.width == 2)
        #expect(f.blobs.count == 4)
        #expect(try f.mirror().cache.entry(for: references[2].url)?.etag == "\"v2\"")

        // A refresh that fails keeps the cached copy, and says why.
        f.routes.failEverything.withLock { $0 = 503 }
        let failed = try f.mirror(refresh: true).fetch(references)
        #expect(failed.images.count == 3)
        #expect(failed.keptStale[references[0].url] == .httpStatus(503))
        #expect(failed.warnings(for: references).isEmpty)
    }

    @Test func lastingFailuresAreRememberedOthersAreNot() throws {
        let f = try MirrorFixture()
        let references = f.references(["/missing", "/script.svg", "/drop"])
        _ = try f.mirror().fetch(references)
        #expect(f.server.log.requests.count == 3)
        let again = try f.mirror().fetch(references)
        // The dropped connection is asked again; the 404 and the SVG are not.
        #expect(f.server.log.requests.map(\.path).suffix(1) == ["/drop"])
        guard case .failure(.remembered(.httpStatus(404), _))? = again[references[0].url],
            case .failure(.remembered(.notAnImage("SVG"), _))? = again[references[1].url]
        else {
            Issue.record("not remembered: \(again.outcomes)")
            return
        }
        #expect(again[references[0].url].map { "\($0)" }?.contains("a refresh tries again") == true)
        // A refresh asks again for everything.
        _ = try f.mirror(refresh: true).fetch(references)
        #expect(f.server.log.requests.count == 7)
        // Offline reports the remembered failure, without a connection.
        let connections = f.server.log.connections
        let offline = try f.mirror(offline: true).fetch(references)
        #expect(f.server.log.connections == connections)
        guard case .failure(.remembered(.httpStatus(404), _))? = offline[references[0].url] else {
            Issue.record("offline: \(offline.outcomes)")
            return
        }
    }

    /// Many images on a host that stalls: two are tried (the per-host limit), time out, and
    /// the rest fail at once; meanwhile another host's images all come through.
    @Test func aStalledHostCostsOneTimeout() throws {
        let f = try MirrorFixture()
        var options = f.options()
        options.limits.maxPerHost = 2
        let mirror = try MediaMirror(cache: f.cachePath, options: options)
        let stalled = (0..<30).map { f.url("/stall?\($0)") }
        // "localhost" is another host for the per-host limit: the same server.
        let good = (0..<30).map { "http://localhost:\(f.server.port)/png/\($0).png" }
        let references = zip(stalled, good).flatMap { [$0, $1] }.map {
            MediaReference(url: $0, path: "tweets/t", field: "caption")
        }
        var results = MediaResults()
        let elapsed = seconds { results = mirror.fetch(references) }
        #expect(elapsed < 4, "took \(elapsed) s")
        #expect(good.allSatisfy { results.image($0) != nil })
        let reasons = stalled.compactMap { url -> MediaFailure? in
            if case .failure(let failure)? = results[url] { return failure }
            return nil
        }
        #expect(reasons.count == 30)
        #expect(reasons.count { $0 == .timedOut(seconds: 1.5, connecting: false) } == 2)
        #expect(reasons.count { if case .hostUnavailable = $0 { true } else { false } } == 28)
        #expect(f.server.log.requests.count { $0.path.hasPrefix("/stall") } == 2)
    }

    @Test func aHostThatNeverConnectsTimesOutOnce() throws {
        let hole = try BlackHole()
        let f = try MirrorFixture()
        let references = (0..<10).map {
            MediaReference(url: "http://127.0.0.1:\(hole.port)/\($0).png", path: "users/u", field: "profileImageUrl")
        }
        var results = MediaResults()
        let elapsed = try seconds { results = try f.mirror().fetch(references) }
        #expect(elapsed < 2.5, "took \(elapsed) s")
        // Six tried at once (the per-host limit), all timing out; the four queued fail at once.
        let outcomes = results.outcomes.values
        #expect(outcomes.count { $0 == .failure(.timedOut(seconds: 0.5, connecting: true)) } == 6)
        #expect(outcomes.count { if case .failure(.hostUnavailable) = $0 { true } else { false } } == 4)
        #expect(results.statistics.failed == 10)
        let warning = results.warnings(for: references).last!.description
        #expect(warning.contains("no connection within 0.5 s"), "\(warning)")
    }

    @Test func parallelismIsBounded() throws {
        let f = try MirrorFixture()
        var options = f.options()
        options.limits.maxPerHost = 3
        options.limits.totalTimeout = 0.5
        let mirror = try MediaMirror(cache: f.cachePath, options: options)
        // Stalls are not timeouts of a host until the first one ends: three at once, no more.
        _ = mirror.fetch((0..<8).map { MediaReference(url: f.url("/stall?\($0)"), path: "p", field: "f") })
        #expect(f.server.log.maxInFlight == 3)

        let g = try MirrorFixture()
        var few = g.options()
        few.limits.maxParallel = 2
        let many = (0..<40).map { MediaReference(url: g.url("/png/\($0).png"), path: "p", field: "f") }
        let results = try MediaMirror(cache: g.cachePath, options: few).fetch(many)
        #expect(results.statistics.downloaded == 40)
        #expect(g.server.log.maxInFlight <= 2)
    }

    @Test func progressCountsUpToTheTotal() throws {
        let f = try MirrorFixture()
        let references = f.references((0..<10).map { "/png/\($0).png" } + ["/missing"])
        _ = try f.mirror().fetch(Array(references.prefix(4)))
        let seen = Mutex<[Int]>([])
        var totals = Set<Int>()
        _ = try f.mirror().fetch(references + references) { done, total in
            seen.withLock { $0.append(done) }
            totals.insert(total)
        }
        let dones = seen.withLock { $0 }
        #expect(totals == [11])
        #expect(dones.first == 4)  // the cached ones at once
        #expect(dones.last == 11)
        #expect(dones == dones.sorted())
    }

    /// Two processes (here two threads with their own `MediaMirror`) filling one cache at
    /// once: every entry afterwards is whole and names a whole blob.
    @Test func concurrentWritersShareTheCache() throws {
        let f = try MirrorFixture()
        let references = f.references((0..<60).map { "/png/\($0 % 30).png" })
        let a = try f.mirror()
        let b = try f.mirror()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            _ = (i % 2 == 0 ? a : b).fetch(i < 2 ? references : references.reversed())
        }
        let cache = try MediaCache(folder: f.cachePath)
        for n in 0..<30 {
            let entry = try #require(cache.entry(for: f.url("/png/\(n).png")))
            let image = try #require(cache.image(entry))
            #expect(cache.bytes(of: image) == TestImages.numbered(n))
        }
        #expect(f.blobs.count == 30)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.cachePath + "/tmp")
        #expect(leftovers.isEmpty)
    }
}
