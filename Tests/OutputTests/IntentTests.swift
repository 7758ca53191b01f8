import Foundation
import TestSupport
import Testing

@testable import Output

#if canImport(Glibc)
import Glibc
#endif

/// A commit's intent appended to the manifest it replaces (one manifest written per commit),
/// and the cases where it is written whole instead.
@Suite struct IntentTests {
    static let before = ["a.html": "a", "b/1.html": "b1", "b/2.html": "b2", "same.html": "same"]
    static let after = ["a.html": "A", "b/1.html": "b1", "b/3.html": "b3", "same.html": "same"]

    /// Stages `files` in `output` and writes the commit's intent only, as a build killed
    /// right after it leaves it; returns the manifest then.
    static func intentOnly(_ output: String, _ files: [String: String]) throws -> String? {
        let writer = try SiteWriter(outputDirectory: output)
        for (path, content) in files { _ = try writer.write(path, content) }
        var run = CommitRun(writer: writer, produced: writer.state.withLock { $0.produced }, inputs: nil)
        try run.writeIntent()
        let manifest = read(output + "/" + Manifest.fileName)
        writer.abandon()
        return manifest
    }

    @Test func theIntentIsAppendedToTheOldManifestInPlace() throws {
        let t = try TemporaryFolder()
        let writer = try SiteWriter(outputDirectory: t.output)
        for (path, content) in Self.before { _ = try writer.write(path, content) }
        _ = try writer.commit(inputs: "0123456789abcdef")
        let old = try #require(read(t.outputPath(Manifest.fileName)))
        let identity = FileIdentity(t.outputPath(Manifest.fileName))?.inode

        let intent = try #require(try Self.intentOnly(t.output, Self.after))
        #expect(FileIdentity(t.outputPath(Manifest.fileName))?.inode == identity)
        #expect(intent == old + "- 0 - a.html\n- 0 - b/3.html\n")
        // Read back: the moved files dirty, the rest as they were, and so not intact.
        let reread = try SiteWriter(outputDirectory: t.output)
        #expect(reread.previous["a.html"] == .dirty && reread.previous["b/3.html"] == .dirty)
        #expect(reread.previous["b/2.html"]?.known == true && reread.previous.paths == reread.previous.paths.sorted())
        #expect(!reread.previousOutputIsIntact())
        reread.abandon()

        // The next build leaves what a clean one does, and its manifest holds each path once.
        let clean = try TemporaryFolder()
        try build(clean.output, Self.after)
        try build(t.output, Self.after)
        #expect(listing(t.output) == listing(clean.output))
    }

    @Test func aManifestSharedByAHardLinkOrInTheOldFormatGetsTheIntentWrittenWhole() throws {
        let t = try TemporaryFolder()
        try build(t.output, Self.before)
        let old = try #require(read(t.outputPath(Manifest.fileName)))
        #expect(link(t.outputPath(Manifest.fileName), t.path("linked")) == 0)
        let intent = try #require(try Self.intentOnly(t.output, Self.after))
        #expect(read(t.path("linked")) == old, "the other link's manifest is left alone")
        #expect(!intent.hasPrefix(old) && intent.contains("- 0 - a.html\n"))

        let v1 = try TemporaryFolder()
        try build(v1.output, Self.before)
        put(v1.outputPath(Manifest.fileName), "# roost-manifest 1\n- 0 a.html\n")
        let whole = try #require(try Self.intentOnly(v1.output, Self.after))
        #expect(whole.hasPrefix(Manifest.header) && whole.contains("- 0 - b/3.html\n"))
    }

    /// A commit killed while appending its intent may leave a line cut short: its path may be
    /// another file's, so the line does not count.
    @Test func aLastLineWithoutItsNewlineIsIgnored() {
        let entries = Manifest.decode(Array("# roost-manifest 2\n- 0 - a.html\n- 0 - b/3.ht".utf8))
        #expect(entries == ["a.html": .dirty])
    }
}
