import Foundation
import TestSupport
import Testing

@testable import Output

/// `ROOST_OUTPUT_BENCH=1 swift test -c release --filter OutputTests.Benchmark` prints timings
/// for a 40,000-file site: first build, unchanged rebuild, one-file change.
@Suite struct Benchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ROOST_OUTPUT_BENCH"] != nil))
    func fortyThousandSmallFiles() throws {
        let t = try TemporaryFolder()
        let count = 40_000
        let pages = (0..<count).map { i in
            ("u\(i % 400)/t\(i)/index.html", Array(String(repeating: "<p>tweet \(i)</p>", count: 1 + i % 40).utf8))
        }
        func run(_ label: String, change: Int? = nil) throws {
            let start = ContinuousClock.now
            let writer = try SiteWriter(outputDirectory: t.output)
            DispatchQueue.concurrentPerform(iterations: 2 * 8) { chunk in
                for i in stride(from: chunk, to: count, by: 16) {
                    var bytes = pages[i].1
                    if i == change { bytes.append(0x0A) }
                    _ = try? writer.write(pages[i].0, bytes)
                }
            }
            let wrote = ContinuousClock.now
            let summary = try writer.commit()
            let end = ContinuousClock.now
            print("\(label): write \(wrote - start), commit \(end - wrote), \(summary)")
        }
        try run("first build")
        try run("unchanged")
        try run("one change", change: 123)
    }
}
