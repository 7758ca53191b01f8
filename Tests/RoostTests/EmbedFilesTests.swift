import Foundation
import TestSupport
import Testing

@testable import DefaultSite

/// The `embed-files` tool (what the EmbedDefaultSite plugin runs) and `DefaultSite`'s
/// unpacking, end to end, on files the repository's theme and store do not have: bytes that
/// are not UTF-8, characters a string literal must escape, names to skip.
@Suite("embed-files: any file, byte for byte")
struct EmbedFilesTests {
    /// The tool, built beside `roost`.
    static let tool = RoostProcess.binary.deletingLastPathComponent().appendingPathComponent("embed-files")

    /// The contents of `static let NAME: StaticString = "…"` in `source`, unescaped.
    static func literal(_ name: String, in source: String) -> [UInt8]? {
        guard let start = source.range(of: "static let \(name): StaticString = \"") else { return nil }
        var out = String.UnicodeScalarView()
        var scalars = source[start.upperBound...].unicodeScalars.makeIterator()
        while let c = scalars.next() {
            if c == "\"" { return Array(String(out).utf8) }
            guard c == "\\" else {
                out.append(c)
                continue
            }
            switch scalars.next() {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "u":
                _ = scalars.next()  // {
                var hex = ""
                while let h = scalars.next(), h != "}" { hex.unicodeScalars.append(h) }
                out.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
            case let other?: out.append(other)
            case nil: return nil
            }
        }
        return nil
    }

    @Test func everyFileComesBackWithItsBytes() throws {
        let work = try TemporaryFolder()
        let text =
            "quotes \" and \"\"\" and \\(interpolation) \\n\r\n\ttab\u{0}nul \u{202E}bidi\u{2028}sep \u{FEFF}"
            + " \u{301}combining 서울 🐦 \u{7F}\u{85}"
        let expected: [String: [UInt8]] = [
            "a.txt": Array(text.utf8),
            "binary.png": (0...255).map { UInt8($0) } + [0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE],
            "empty": [],
            "sub/dir/ü name.json": Array("{\"ok\": true}\n".utf8),
            "one-byte": [0xC3],
            "\u{301}starts with a mark.txt": Array("\u{301}".utf8),
        ]
        for (path, bytes) in expected { try work.write("in/" + path, bytes: bytes) }
        try work.write("in/.hidden", "skipped")
        try work.write("in/.folder/file.txt", "skipped")
        try FileManager.default.createSymbolicLink(atPath: work.path("in/link"), withDestinationPath: "a.txt")

        let run = try RoostProcess.run(
            [work.path("out.swift"), work.path("stamp"), "x=" + work.path("in"), "y=" + work.path("in/sub")],
            in: work.url, binary: Self.tool)
        #expect(run.status == 0, "\(run.stderr)")
        let source = try String(contentsOfFile: work.path("out.swift"), encoding: .utf8)
        let archive = try #require(Self.literal("embeddedX", in: source))
        let files = archive.withUnsafeBytes { DefaultSite.unpack($0) }
        #expect(files.map(\.path) == expected.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.bytes) }) == expected)
        #expect(source.contains("\\u{202e}") && source.contains("\\u{0}"), "invisible characters are escaped")
        #expect(!source.contains("\u{202E}") && !source.contains("\r"))

        let parse = try RoostProcess.run(
            ["swiftc", "-parse", work.path("out.swift")], in: work.url, binary: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(parse.status == 0 && parse.stderr.isEmpty, "the generated source parses: \(parse.stderr)")

        let sub = try #require(Self.literal("embeddedY", in: source))
        #expect(sub.withUnsafeBytes { DefaultSite.unpack($0) }.map(\.path) == ["dir/ü name.json"])
        #expect(FileManager.default.fileExists(atPath: work.path("stamp")))
    }

    @Test func base64RoundTrips() {
        for bytes: [UInt8] in [[], [0], [0xFF, 0], [1, 2, 3], Array(0...255)] {
            let encoded = Data(bytes).base64EncodedString()
            #expect(DefaultSite.base64Decoded(Array(encoded.utf8)) == bytes)
        }
    }
}
