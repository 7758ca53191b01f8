import Foundation
import TestSupport
import Testing

@testable import Output

#if canImport(Glibc)
import Glibc
#endif

/// A build killed with SIGKILL at an arbitrary moment leaves every file whole (old or new
/// version), and the next build cleans up and produces the right site.
/// The builds run in a child process: this test binary, running only `killedChild`.
@Suite struct KillTests {
    static let childVariable = "ROOST_OUTPUT_KILL_CHILD"
    static let pageCount = 1_500

    static func version(_ round: Int, _ page: Int) -> String {
        round % 2 == 0 ? String(repeating: "even \(page) ", count: 20) : String(repeating: "odd \(page)! ", count: 33)
    }

    /// Not a test of its own: builds alternating versions until killed, each with 50 files
    /// in a folder of its own (so every commit also adds and removes files and a folder).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func killedChild() throws {
        let output = ProcessInfo.processInfo.environment[Self.childVariable]!
        for round in 0... {
            let writer = try SiteWriter(outputDirectory: output)
            for page in 0..<Self.pageCount {
                _ = try writer.write("p\(page % 50)/\(page).html", Self.version(round, page))
            }
            for extra in 0..<50 { _ = try writer.write("extra/r\(round % 2)/\(extra).html", "extra \(round)") }
            _ = try writer.commit()
        }
    }

    @Test func aKilledBuildLeavesWholeFilesAndTheNextBuildRecovers() throws {
        let t = try TemporaryFolder()
        for delay in [150, 400, 700, 1_100] {
            let child = try TestChild(filter: "killedChild", variable: Self.childVariable, value: t.output)
            usleep(UInt32(delay) * 1_000)
            #expect(child.kill())

            for page in 0..<Self.pageCount {
                guard let content = read(t.outputPath("p\(page % 50)/\(page).html")) else { continue }
                #expect(
                    content == Self.version(0, page) || content == Self.version(1, page), "page \(page) is not whole")
            }
        }
        // The next build: removes the dead child's staging folder, and ends with exactly the site.
        let writer = try SiteWriter(outputDirectory: t.output)
        #expect(!listing(t.output).keys.contains { $0.hasPrefix(".roost-staging-") && !$0.hasSuffix("-\(getpid())") })
        for page in 0..<Self.pageCount { _ = try writer.write("p\(page % 50)/\(page).html", Self.version(0, page)) }
        _ = try writer.commit()
        for page in 0..<Self.pageCount {
            #expect(read(t.outputPath("p\(page % 50)/\(page).html")) == Self.version(0, page))
        }
        // Exactly what a clean build leaves: no file or folder of the killed builds, the same manifest.
        let clean = try TemporaryFolder()
        try build(
            clean.output,
            Dictionary(
                uniqueKeysWithValues: (0..<Self.pageCount).map { ("p\($0 % 50)/\($0).html", Self.version(0, $0)) }))
        #expect(listing(t.output) == listing(clean.output))
        #expect(try build(t.output, [:]).removed == Self.pageCount)
        #expect(Set(listing(t.output).keys) == [".roost-manifest"])
    }

    /// Every point where a SIGKILL can stop a commit (after its intent manifest, after each
    /// move, after each stale file removed), stopped at in turn: the writer is dropped there,
    /// its staging folder and lock removed as the next build would find them. The next build
    /// then leaves exactly what a clean build of the same site leaves, manifest included.
    @Test func aRebuildAfterACommitStoppedAnywhereEqualsACleanBuild() throws {
        let before = [
            "a.html": "a", "b/1.html": "b1", "b/2.html": "b2", "c/x.html": "x", "gone/1.html": "g1",
            "gone/2.html": "g2", "same.html": "same",
        ]
        let after = [
            "a.html": "A", "b/1.html": "b1", "b/3.html": "b3", "c/x.html": "X!", "new/1.html": "n1",
            "new/2.html": "n2", "same.html": "same",
        ]
        let clean = try TemporaryFolder()
        try build(clean.output, after)
        var stop = 0
        while true {
            let t = try TemporaryFolder()
            try build(t.output, before)
            let writer = try SiteWriter(outputDirectory: t.output)
            for (path, content) in after { _ = try writer.write(path, content) }
            var run = CommitRun(writer: writer, produced: writer.state.withLock { $0.produced }, inputs: nil)
            try run.writeIntent()
            var steps = 0
            while steps < stop, run.moved < run.moves.count {
                try run.moveNext()
                steps += 1
            }
            for position in run.fates.indices where steps < stop && run.fates[position] == .stale {
                if let path = run.staleFileToRemove(at: position) {
                    run.removedStale(at: position, path: path, error: unlinkat(run.dirFD, path, 0) == 0 ? 0 : errno)
                }
                steps += 1
            }
            writer.abandon()
            try build(t.output, after)
            #expect(listing(t.output) == listing(clean.output), "stopped after \(stop) steps")
            if steps < stop { break }  // the commit was done
            stop += 1
        }
        #expect(stop == 8, "7 steps: 4 moves (one a whole folder), 3 stale files")
    }
}
