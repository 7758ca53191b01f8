import Foundation
import Support
import TestSupport
import Testing

@testable import Media

@Suite("MediaCache: content-addressed, whole files only")
struct MediaCacheTests {
    let png = TestImages.png(width: 3, height: 2, seed: 7)
    var info: ImageInfo { ImageSniffer.identify(png)! }

    @Test func layout() throws {
        let folder = try TemporaryFolder()
        let cache = try MediaCache(folder: folder.path("a/b/cache/"))
        #expect(cache.folder == folder.path("a/b/cache"))
        let url = "https://example.com/avatars/1.png?token=x"
        let entry = try cache.store(url: url, bytes: png, info: info, etag: "\"abc\"", lastModified: nil, now: 1000)
        let hash = SHA256.hex(png)
        #expect(FileManager.default.fileExists(atPath: cache.folder + "/media/\(hash).png"))
        let key = SHA256.hex(url)
        let entryFile = cache.folder + "/urls/\(key.prefix(2))/\(key).json"
        let text = try String(contentsOfFile: entryFile, encoding: .utf8)
        #expect(
            text == """
                {"url":"https://example.com/avatars/1.png?token=x","hash":"\(hash)","ext":"png","size":\(png.count),\
                "width":3,"height":2,"etag":"\\"abc\\"","fetchedAt":1000}

                """)
        #expect(cache.entry(for: url) == entry)
        #expect(cache.image(entry)?.outputPath == "media/\(hash).png")
        #expect(folder.files("a/b/cache/tmp").isEmpty)
    }

    @Test func entriesRoundTrip() {
        let entries = [
            MediaCacheEntry(
                url: "http://a/ü \"q\"",
                content: .image(hash: SHA256.hex("x"), format: .avif, width: nil, height: nil, byteCount: 9),
                etag: nil, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", fetchedAt: 5),
            MediaCacheEntry(url: "u", content: .failure(.httpStatus(410)), etag: nil, lastModified: nil, fetchedAt: 6),
            MediaCacheEntry(
                url: "u", content: .failure(.notAnImage(looksLike: nil)), etag: nil, lastModified: nil, fetchedAt: 7),
            MediaCacheEntry(
                url: "u", content: .failure(.redirectRefused(to: "file:///x")), etag: nil, lastModified: nil,
                fetchedAt: 8),
            MediaCacheEntry(
                url: "u", content: .failure(.tooManyRedirects(limit: 5)), etag: nil, lastModified: nil, fetchedAt: 9),
            MediaCacheEntry(
                url: "u", content: .failure(.tooLarge(limit: 10)), etag: nil, lastModified: nil, fetchedAt: 9),
            MediaCacheEntry(
                url: "u", content: .failure(.notHTTP(scheme: "ftp")), etag: nil, lastModified: nil, fetchedAt: 9),
        ]
        for entry in entries {
            #expect(MediaCache.decode(MediaCache.encode(entry)) == entry)
        }
    }

    /// What a crash, a bad disk or a hand could leave: never used.
    @Test func damagedFilesAreNotUsed() throws {
        let folder = try TemporaryFolder()
        let cache = try MediaCache(folder: folder.path("cache"))
        let url = "http://example.com/a.png"
        let entry = try cache.store(url: url, bytes: png, info: info)
        let image = cache.image(entry)!
        let entryFile = cache.entryPath(url)

        // A cut entry.
        let whole = try Data(contentsOf: URL(fileURLWithPath: entryFile))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: entryFile))
        #expect(cache.entry(for: url) == nil)
        try cache.write(entry)
        #expect(cache.entry(for: url) == entry)

        // An entry for another URL in this URL's file.
        var other = entry
        other.url = "http://example.com/b.png"
        try Data(MediaCache.encode(other)).write(to: URL(fileURLWithPath: entryFile))
        #expect(cache.entry(for: url) == nil)
        try cache.write(entry)

        // A blob of the wrong size: no entry. Of the right size but other bytes: no bytes.
        try Data(png.prefix(10)).write(to: URL(fileURLWithPath: image.blobPath))
        #expect(cache.entry(for: url) == nil)
        var changed = png
        changed[changed.count - 1] ^= 0xFF
        try Data(changed).write(to: URL(fileURLWithPath: image.blobPath))
        #expect(cache.entry(for: url) == entry)
        #expect(cache.bytes(of: image) == nil)
        #expect(cache.bytes(of: image, verify: false) == changed)
        // Stored again, the blob is whole again.
        try FileManager.default.removeItem(atPath: image.blobPath)
        try cache.store(url: url, bytes: png, info: info)
        #expect(cache.bytes(of: image) == png)
    }

    /// A process killed while writing leaves a file in `tmp/`, never under a blob's or an
    /// entry's name; an hour later the next cache opened removes it.
    @Test func leftoversOfAKilledWriter() throws {
        let folder = try TemporaryFolder()
        let cache = try MediaCache(folder: folder.path("cache"))
        let fresh = try folder.write("cache/tmp/4242-1-99", bytes: Array(png.prefix(20)))
        let old = try folder.write("cache/tmp/4242-2-99", bytes: Array(png.prefix(20)))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
        #expect(cache.entry(for: "http://example.com/a.png") == nil)
        _ = try MediaCache(folder: folder.path("cache"))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(!FileManager.default.fileExists(atPath: old))
    }

    @Test func blobsByNameAndCopiedOut() throws {
        let folder = try TemporaryFolder()
        let cache = try MediaCache(folder: folder.path("cache"))
        let image = cache.image(try cache.store(url: "http://example.com/a.png", bytes: png, info: info))!
        #expect(cache.blobPath(fileName: image.fileName) == image.blobPath)
        for name in [
            "../\(image.fileName)", image.hash + ".svg", image.hash + ".png.png", image.hash.uppercased() + ".png",
            String(image.hash.dropLast()) + ".png", "", ".png", SHA256.hex("other") + ".png",
        ] {
            #expect(cache.blobPath(fileName: name) == nil, "\(name)")
        }
        try cache.copy(image, toOutput: folder.path("site"))
        try cache.copy(image, toOutput: folder.path("site"))
        #expect(folder.files("site") == ["media/\(image.fileName)": Data(png)])
        try Data(png.reversed()).write(to: URL(fileURLWithPath: image.blobPath))
        #expect(throws: MediaCacheError.self) { try cache.copy(image, toOutput: folder.path("other")) }
    }

    @Test func aFileInTheWayIsAnError() throws {
        let folder = try TemporaryFolder()
        try folder.write("cache", "not a folder")
        #expect(throws: MediaCacheError.self) { try MediaCache(folder: folder.path("cache")) }
        try folder.write("other/media", "not a folder")
        #expect(throws: MediaCacheError.self) { try MediaCache(folder: folder.path("other")) }
    }

    @Test func failureWords() {
        #expect(MediaFailure.date(0) == "1970-01-01")
        #expect(MediaFailure.date(1_795_996_800) == "2026-11-30")
        #expect(MediaFailure.date(951_782_400) == "2000-02-29")
        #expect(MediaFailure.timedOut(seconds: 10, connecting: true).description == "no connection within 10 s")
        #expect(MediaFailure.tooLarge(limit: 1536).description == "larger than 1536 bytes: download stopped")
        #expect(MediaFailure.tooLarge(limit: 2048).description == "larger than 2 KiB: download stopped")
        #expect(
            MediaFailure.remembered(.httpStatus(404), since: 0).description
                == "HTTP 404 (remembered from 1970-01-01; a refresh tries again)")
        #expect(MediaFailure.httpStatus(404).isLasting && !MediaFailure.httpStatus(503).isLasting)
        #expect(!MediaFailure.httpStatus(429).isLasting && !MediaFailure.connection("x").isLasting)
        #expect(MediaFetcher.displayHost("example.com:443") == "example.com")
        #expect(MediaFetcher.displayHost("127.0.0.1:8080") == "127.0.0.1:8080")
    }

    @Test func urlsAreCheckedByCurl() throws {
        func host(_ url: String) throws -> String { try MediaFetcher.parse(url).get().host }
        func request(_ url: String) throws -> String { try MediaFetcher.parse(url).get().request }
        func failure(_ url: String) -> MediaFailure? {
            if case .failure(let failure) = MediaFetcher.parse(url) { return failure }
            return nil
        }
        #expect(try host("https://Example.COM/a.png") == "example.com:443")
        #expect(try host("http://example.com:8080/a.png") == "example.com:8080")
        #expect(try host("HTTP://example.com/") == "example.com:80")
        #expect(try host("http://[::1]:8080/a.png") == "[::1]:8080")
        #expect(failure("javascript:alert(1)") == .notHTTP(scheme: "javascript"))
        #expect(failure("//example.com/a.png") == .invalidURL)
        #expect(failure("") == .invalidURL)
        #expect(failure("https://example.com:99999/a.png") == .invalidURL)
        // As a browser would: white space around dropped, spaces and 8-bit bytes encoded.
        #expect(try request(" https://example.com/a.png\n") == "https://example.com/a.png")
        #expect(try request("https://example.com/a b.png") == "https://example.com/a%20b.png")
        #expect(try request("https://example.com/a%20b.png") == "https://example.com/a%20b.png")
        #expect(try request("https://example.com/ä.png") == "https://example.com/%c3%a4.png")
    }
}
