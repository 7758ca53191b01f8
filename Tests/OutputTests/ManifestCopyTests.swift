import Foundation
import TestSupport
import Testing

@testable import Output

/// A commit copies the previous manifest's lines of the files it did not change, where each is
/// the line that would be written for it: the manifest is byte for byte the one written whole.
@Suite("Manifest lines copied by a commit")
struct ManifestCopyTests {
    /// The manifest at `output` as it would be written from its own entries.
    func rewritten(_ output: String) throws -> String {
        let bytes = try #require(FileManager.default.contents(atPath: output + "/" + Manifest.fileName))
        let inputs = Manifest.inputs(of: Array(bytes))
        return String(decoding: Manifest.encode(Manifest.decode(Array(bytes)), inputs: inputs), as: UTF8.self)
    }

    func manifest(_ output: String) -> String? { read(output + "/" + Manifest.fileName) }

    /// Files kept by fingerprint, kept as unchanged, written anew, added and removed: every
    /// line not written anew was copied, and the whole is what a whole write gives.
    @Test func aRebuildsManifestIsTheOneWrittenWhole() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        for k in 0..<300 { _ = try first.write("p\(k)/index.html", Array("page \(k)".utf8), fingerprint: UInt64(k)) }
        _ = try first.write("style.css", Array("body{}".utf8))
        _ = try first.commit(inputs: "abc")
        let second = try SiteWriter(outputDirectory: t.output)
        for k in 0..<300 where k % 7 != 3 {
            if k % 5 == 0 {
                _ = try second.write("p\(k)/index.html", Array("page \(k) edited".utf8), fingerprint: UInt64(k + 1000))
            } else {
                #expect(try second.keep("p\(k)/index.html", fingerprint: UInt64(k)))
            }
        }
        _ = try second.write("added/index.html", Array("new".utf8))
        _ = try second.write("style.css", Array("body{}".utf8))
        let summary = try second.commit(inputs: "def")
        let edited = (0..<300).count { $0 % 7 != 3 && $0 % 5 == 0 }
        #expect(summary.removed == 43 && summary.written == edited + 1)
        let written = try #require(manifest(t.output))
        #expect(written == (try rewritten(t.output)))
        #expect(written.hasPrefix("# roost-manifest 2\n# inputs def\n"))
        #expect(written.contains(" added/index.html\n") && !written.contains(" p3/index.html\n"))
    }

    /// Lines another writer wrote otherwise (uppercase hex, a size with a leading zero, a
    /// dirty line with a size) are read as before, and written anew, not copied.
    @Test func linesWrittenOtherwiseAreWrittenAnew() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["a.html": "a", "b.html": "bb", "c.html": "ccc", "d.html": "dddd"])
        let lines = try #require(manifest(t.output)).split(separator: "\n").map(String.init)
        var edited = [lines[0]]
        for line in lines.dropFirst() {
            var fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            switch fields[3] {
            case "a.html": fields[0] = fields[0].uppercased()
            case "b.html": fields[1] = "0" + fields[1]
            case "c.html": fields = ["-", "7", "-", "c.html"]
            default: break
            }
            edited.append(fields.joined(separator: " "))
        }
        put(t.outputPath(Manifest.fileName), edited.joined(separator: "\n") + "\n")
        let summary = try build(t.output, ["a.html": "a", "b.html": "bb", "c.html": "ccc", "d.html": "dddd"])
        #expect(summary.unchanged == 3 && summary.written == 1, "the dirty one is written again")
        #expect(try #require(manifest(t.output)) == (try rewritten(t.output)))
        #expect(!(try #require(manifest(t.output))).contains("- 7 -"))
    }
}
