import Foundation
import Testing

@testable import Media

/// Many small images from the local server, cold then warm: the numbers the build's
/// benchmark will build on. `ROOST_MEDIA_IMAGES=N` sets how many (default 300, to keep
/// `swift test` fast); the times are printed:
///
///     ROOST_MEDIA_IMAGES=1000 swift test -c release -Xswiftc -enable-testing --filter MediaBenchmark
@Suite("MediaBenchmark: many images, cold and warm")
struct MediaBenchmark {
    @Test func coldThenWarm() throws {
        let count = ProcessInfo.processInfo.environment["ROOST_MEDIA_IMAGES"].flatMap(Int.init) ?? 300
        let f = try MirrorFixture()
        let references = (0..<count).map {
            MediaReference(url: f.url("/png/\($0).png"), path: "users/u\($0)", field: "profileImageUrl")
        }
        let cold = try f.mirror().fetch(references)
        #expect(cold.statistics.downloaded == count)
        #expect(f.server.log.requests.count == count)
        let connections = f.server.log.connections
        let warm = try f.mirror().fetch(references)
        #expect(warm.statistics.fromCache == count)
        #expect(f.server.log.connections == connections)
        let offline = try f.mirror(offline: true).fetch(references)
        #expect(offline.statistics.fromCache == count)
        print(
            "media: \(count) images, \(cold.statistics.downloadedBytes) bytes over \(connections) connections: "
                + "cold \(ms(cold.statistics.seconds)), warm \(ms(warm.statistics.seconds)), "
                + "offline \(ms(offline.statistics.seconds))")
    }

    private func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
}
