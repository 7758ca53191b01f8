import Foundation
import Support
import TestSupport
import Testing

@testable import Media

#if canImport(Glibc)
import Glibc
#endif

/// Two processes writing one cache at once, both killed with SIGKILL at an arbitrary moment:
/// every entry left is whole and names a whole blob with the bytes its hash says.
/// The writers are child processes: this test binary, running only `cacheWriterChild`.
@Suite struct CacheKillTests {
    static let childVariable = "ROOST_MEDIA_KILL_CHILD"
    static let urlCount = 150

    /// Image `u` of round `round`: two versions of every URL, of different sizes.
    static func image(_ u: Int, round: Int) -> [UInt8] {
        TestImages.png(width: 60 + round % 2 * 7, height: 40 + u % 20, seed: u * 2 + round % 2)
    }

    /// Not a test of its own: stores alternating versions (and a failure now and then) until killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func cacheWriterChild() throws {
        let folder = ProcessInfo.processInfo.environment[Self.childVariable]!
        let cache = try MediaCache(folder: folder)
        let offset = Int(getpid()) % Self.urlCount
        for round in 0... {
            for k in 0..<Self.urlCount {
                let u = (k + offset) % Self.urlCount
                let url = "http://example.com/\(u).png"
                if u % 10 == 9 && round % 3 == 2 {
                    try cache.remember(url: url, failure: .httpStatus(404))
                } else {
                    let bytes = Self.image(u, round: round)
                    try cache.store(url: url, bytes: bytes, info: ImageSniffer.identify(bytes)!, etag: "\"\(round)\"")
                }
            }
        }
    }

    @Test func killedWritersLeaveOnlyWholeEntries() throws {
        let t = try TemporaryFolder()
        let folder = t.path("cache")
        var seen = 0
        for delay in [250, 500, 800] {
            let children = try (0..<2).map { _ in
                try TestChild(filter: "cacheWriterChild", variable: Self.childVariable, value: folder)
            }
            usleep(UInt32(delay) * 1_000)
            for child in children { #expect(child.kill()) }

            let cache = try MediaCache(folder: folder)
            for u in 0..<Self.urlCount {
                let url = "http://example.com/\(u).png"
                let entryFile = cache.entryPath(url)
                guard FileManager.default.fileExists(atPath: entryFile) else { continue }
                seen += 1
                let entry = try #require(cache.entry(for: url), "entry \(u) is not whole")
                switch entry.content {
                case .image:
                    let image = try #require(cache.image(entry))
                    let bytes = try #require(cache.bytes(of: image), "the blob of \(u) is not whole")
                    #expect(bytes == Self.image(u, round: 0) || bytes == Self.image(u, round: 1))
                case .failure(let failure):
                    #expect(failure == .httpStatus(404))
                }
            }
        }
        #expect(seen > 0)
    }
}
