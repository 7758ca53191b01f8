import Foundation
import Support
import TestSupport
import Testing

@testable import Output

#if canImport(Glibc)
import Glibc
#endif

/// The commit works on the previous manifest in its order and merges the staged files into
/// it: whatever the order of the manifest on disk and the mix of kept, rewritten, added and
/// removed files, the manifest it writes is the one a dictionary of everything would give.
@Suite("SiteWriter: the commit's manifests")
struct CommitOrderTests {
    @Test func aManifestOutOfByteOrderIsReadAndRewrittenInOrder() throws {
        let t = try TemporaryFolder()
        try build(t.output, ["a.html": "a", "b/c.html": "c", "é.html": "e"])
        // Lines out of order, `b/c.html` twice (the last line counts), as an older writer or a
        // hand could leave them.
        let lines = try #require(read(t.outputPath(".roost-manifest"))).split(separator: "\n").map(String.init)
        let entries = lines.dropFirst()
        let stale = entries.first { $0.hasSuffix(" b/c.html") }!.replacingOccurrences(of: " 1 -", with: " 9 -")
        put(
            t.outputPath(".roost-manifest"),
            ([lines[0], stale] + entries.reversed()).joined(separator: "\n") + "\n")

        let writer = try SiteWriter(outputDirectory: t.output)
        #expect(writer.previous.paths == ["a.html", "b/c.html", "é.html"])
        #expect(writer.previous["b/c.html"]?.size == 1)
        #expect(try writer.write("é.html", "e") == .unchanged)
        #expect(try writer.write("b/c.html", "c") == .unchanged)
        _ = try writer.write("0.html", "zero")
        #expect(try writer.commit() == WriteSummary(written: 1, unchanged: 2, removed: 1, bytesWritten: 4))
        #expect(
            read(t.outputPath(".roost-manifest"))
                == String(
                    decoding: Manifest.encode(
                        ["0.html": entry("zero"), "b/c.html": entry("c"), "é.html": entry("e")]), as: UTF8.self))
        #expect(!exists(t.outputPath("a.html")))
    }

    @Test func theIntentMarksEveryMoveDirtyAndListsTheRestAsBefore() throws {
        let t = try TemporaryFolder()
        let first = try SiteWriter(outputDirectory: t.output)
        for path in ["a.html", "k/1.html", "k/2.html", "m.html", "z.html"] {
            _ = try first.write(path, Array(path.utf8), fingerprint: 1)
        }
        _ = try first.commit()

        let writer = try SiteWriter(outputDirectory: t.output)
        #expect(try writer.keep("a.html", fingerprint: 1))
        _ = try writer.write("k/1.html", Array("k/1.html".utf8), fingerprint: 2)  // same bytes, new inputs
        _ = try writer.write("k/2.html", Array("new".utf8), fingerprint: 2)
        _ = try writer.write("k/15.html", Array("new".utf8))
        _ = try writer.write("zz/new.html", Array("new".utf8))
        // (`m.html` and `z.html` are stale.)
        let produced = writer.state.withLock { $0.produced }
        let run = CommitRun(writer: writer, produced: produced, inputs: nil)
        #expect(run.moves.map(\.path) == ["k/15.html", "k/2.html", "zz/new.html"])

        let fd = open(t.path("intent"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var stream = ManifestStream(to: fd, inputs: nil)
        run.writeLines(to: &stream, intent: true)
        #expect(stream.finish() == 0)
        close(fd)
        var known = ManifestEntry(hash: ContentHash.hash("k/1.html"), size: 8, fingerprint: 2)
        #expect(
            read(t.path("intent"))
                == String(
                    decoding: Manifest.encode([
                        "a.html": entry("a.html", fingerprint: 1), "k/1.html": known, "k/15.html": .dirty,
                        "k/2.html": .dirty, "m.html": entry("m.html", fingerprint: 1),
                        "z.html": entry("z.html", fingerprint: 1), "zz/new.html": .dirty,
                    ]), as: UTF8.self))
        writer.abandon()
        known.fingerprint = 1
        #expect(try SiteWriter(outputDirectory: t.output).previous["k/1.html"] == known, "abandoned: as it was")
    }

    /// Builds that keep, rewrite, add and drop files at random, in folders that come and go:
    /// after each commit the manifest is exactly that of the site produced, and the files too.
    @Test func randomBuildsLeaveTheManifestOfWhatWasProduced() throws {
        let t = try TemporaryFolder()
        var random = SeededGenerator(seed: 7)
        var last: [String: (content: String, fingerprint: UInt64)] = [:]
        for round in 0..<25 {
            var site: [String: (content: String, fingerprint: UInt64)] = [:]
            for i in 0..<120 where random.next() % 4 != 0 {
                let path = i % 3 == 0 ? "p\(i).html" : "d\(i % 5 + round % 3)/p\(i).html"
                let old = last[path]
                switch random.next() % 4 {
                case 0: site[path] = ("page \(i) round \(round)", UInt64(round))  // new content
                case 1: site[path] = (old?.content ?? "page \(i)", UInt64(round))  // same bytes, new inputs
                default: site[path] = old ?? ("page \(i)", 0)  // as before: kept when it can be
                }
            }
            let writer = try SiteWriter(outputDirectory: t.output)
            for (path, page) in site {
                if let old = last[path], old == page, try writer.keep(path, fingerprint: page.fingerprint) {
                    continue
                }
                _ = try writer.write(path, Array(page.content.utf8), fingerprint: page.fingerprint)
            }
            _ = try writer.commit(inputs: "round \(round)")
            let expected = site.mapValues { entry($0.content, fingerprint: $0.fingerprint) }
            #expect(
                read(t.outputPath(".roost-manifest"))
                    == String(decoding: Manifest.encode(expected, inputs: "round \(round)"), as: UTF8.self),
                "round \(round)")
            let files = listing(t.output).filter { $0.value.hasPrefix("f:") && $0.key != ".roost-manifest" }
            #expect(files == site.mapValues { "f:" + $0.content }, "round \(round)")
            last = site
        }
    }

    @Test func insertionPointsAndPrefixesFollowTheBytes() {
        let entries: [String: ManifestEntry] = ["a/b": .dirty, "a/c": .dirty, "a0": .dirty, "b": .dirty, "é": .dirty]
        let manifest = PreviousManifest(decoding: Manifest.encode(entries))
        #expect(manifest.paths == ["a/b", "a/c", "a0", "b", "é"])
        #expect(manifest.insertionPoint(of: "a/bb") == 1)
        #expect(manifest.insertionPoint(of: "Z") == 0 && manifest.insertionPoint(of: "z") == 4)
        #expect(manifest.insertionPoint(of: "ü") == 5)
        #expect(manifest.positions(withPrefix: "a/") == 0..<2)
        #expect(manifest.positions(withPrefix: "c/").isEmpty)
    }

    /// A path that is not UTF-8 (a manifest edited by hand) is read as a `String` has it
    /// (U+FFFD for the bad byte), found by that text, and its line written anew, not copied;
    /// the paths around it keep their lines.
    @Test func aPathThatIsNotUTF8IsReadAsText() {
        var bytes = Manifest.encode(["a.html": entry("a", fingerprint: 1), "z.html": entry("z", fingerprint: 2)])
        let line = Array("\(StableHash.hex(7)) 1 - m".utf8) + [0xFF] + Array(".html\n".utf8)
        bytes += line
        let manifest = PreviousManifest(decoding: bytes)
        #expect(manifest.paths == ["a.html", "m\u{FFFD}.html", "z.html"], "sorted, the repaired path in its place")
        let repaired = manifest.position(of: "m\u{FFFD}.html")
        #expect(repaired == 1)
        #expect(manifest.entries[1] == ManifestEntry(hash: 7, size: 1))
        #expect(manifest.line(at: 1) == nil, "its line is written anew")
        #expect(manifest.line(at: 0) != nil && manifest.position(of: "z.html") == 2)
    }

    /// A manifest long enough to be read in parts: in order, with a commit's intent appended
    /// (paths again, the last line counting), or in no order at all, it is read as one would
    /// read it line by line.
    @Test func aLongManifestReadInPartsIsReadAsAWhole() {
        var entries: [String: ManifestEntry] = [:]
        for k in 0..<4000 {
            entries["t/\(String(k * 7919 % 4000, radix: 36))/index.html"] = entry("page \(k)", fingerprint: UInt64(k))
        }
        let sorted = entries.keys.sorted(by: codePointOrder)
        func expectRead(_ bytes: [UInt8], as expected: [String: ManifestEntry], _ comment: Comment) {
            let manifest = PreviousManifest(decoding: bytes)
            let paths = expected.keys.sorted(by: codePointOrder)
            #expect(manifest.paths == paths, comment)
            #expect(manifest.entries == paths.map { expected[$0]! }, comment)
            #expect(paths.indices.allSatisfy { manifest.position(of: paths[$0]) == $0 }, comment)
        }
        let whole = Manifest.encode(entries, inputs: "token")
        #expect(whole.count > 1 << 17, "long enough for several parts")
        expectRead(whole, as: entries, "in order")

        var appended = whole
        var intent = entries
        for path in sorted.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) + ["a.html", sorted[0]] {
            Manifest.appendLine(path, .dirty, to: &appended)
            intent[path] = .dirty
        }
        expectRead(appended, as: intent, "an intent appended")

        var shuffled = Array(Manifest.header.utf8)
        for path in sorted.reversed() { Manifest.appendLine(path, entries[path]!, to: &shuffled) }
        expectRead(shuffled, as: entries, "in reverse order")
    }

    func entry(_ content: String, fingerprint: UInt64? = nil) -> ManifestEntry {
        ManifestEntry(hash: ContentHash.hash(content), size: content.utf8.count, fingerprint: fingerprint)
    }
}
