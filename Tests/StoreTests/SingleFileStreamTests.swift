import Foundation
import JSON
import TestSupport
import Testing

@testable import Store

/// node-firestore-import-export files decoded while they are parsed
/// (`SingleFileStore.readStreaming`) against the same files parsed whole (`readWhole`).
@Suite struct SingleFileStreamTests {
    /// What reading a file gave: the store, or the error's message.
    enum Outcome: Equatable, CustomStringConvertible {
        case store(StoreFormat, [Document], [DocumentPath])
        case error(String)

        var description: String {
            switch self {
            case .store(let format, let documents, let missing):
                return "\(format): \(documents.map(\.path)) missing \(missing)"
            case .error(let message):
                return message
            }
        }
    }

    static func outcome(_ read: () throws(StoreError) -> (StoreFormat, [Document], [DocumentPath])) -> Outcome {
        do throws(StoreError) {
            let (format, documents, missing) = try read()
            return .store(format, documents, missing)
        } catch {
            return .error(error.description)
        }
    }

    /// The file read as `roost check` reads it, and parsed whole.
    static func both(_ file: String) -> (read: Outcome, whole: Outcome) {
        let read = outcome { () throws(StoreError) in
            let r = try SingleFileStore.read(file: file, transform: { $0 })
            return (r.format, r.values, r.missingParents)
        }
        return (read, outcome { () throws(StoreError) in try SingleFileStore.readWhole(file: file) })
    }

    /// Whether the file is read by the streaming path (nil: parsed whole).
    static func streams(_ file: String) throws -> Bool {
        try SingleFileStore.readStreaming(file: file, transform: { $0 }) != nil
    }

    /// Holders at the top and below, non-ASCII IDs (canonically equal ones below the top
    /// level), IDs that sort differently joined and by segment,
    /// an empty subcollection, and a key after `__collections__`.
    static let varied = """
        {"__collections__": {
          "users": {
            "u2": {"username": "bob", "__collections__": {"user-likes": {"t2": {}, "t1": {"x": 1}}}},
            "u1": {"username": "alice", "__collections__": {
              "user-likes": {"t1": {"timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 5, "_nanoseconds": 0}}},
                             "a\\u0308": {}, "ä": {}},
              "deep": {"d1": {"__collections__": {"deeper": {"e1": {"v": 1}}}}}
            }},
            "u1x": {"__collections__": {}},
            "Å": {"n": 1, "__collections__": {"c": {"Å": {"n": 2}, "Å": {"n": 3}, "B": {}}}},
            "a-b": {}, "a": {"__collections__": {"b": {"c": {}}}}
          },
          "favorites": {"u1": {"__collections__": {"favorites": {"p2": {"placeName": "B"}, "p1": {"placeName": "A"}}}},
                        "u9": {"__collections__": {"favorites": {}}},
                        "u8": {"__collections__": {"favorites": {"p": {}}, "other": {}}}},
          "tweets": {"t2": {"caption": "two"}, "t1": {"caption": "one", "list": [1, {"a": null}]}}
        },
        "meta": {"exported": "today"}}
        """

    @Test func streamsTheSameDocumentsAsTheWholeFile() throws {
        let t = try TemporaryFolder()
        for (k, text) in [SingleFileStoreTests.node, Self.varied, #"{"__collections__": {}}"#].enumerated() {
            let file = try t.write("s\(k).json", text)
            #expect(try Self.streams(file), "\(k)")
            let (read, whole) = Self.both(file)
            #expect(read == whole, "\(k)")
            // Read in chunks of 16 bytes, the buffer growing for a large document.
            let small = Self.outcome { () throws(StoreError) in
                guard let r = try SingleFileStore.readStreaming(file: file, chunk: 16, transform: { $0 }) else {
                    throw .malformed(file: file, location: "", detail: "not streamed")
                }
                return (r.format, r.values, r.missingParents)
            }
            #expect(small == whole, "\(k)")
            guard case .store(_, let documents, _) = read, k < 2 else { continue }
            #expect(!documents.isEmpty)
        }
    }

    /// What the stream cannot order or recognise alone is read whole, with the same result.
    @Test func fallsBackToTheWholeFile() throws {
        let t = try TemporaryFolder()
        let cases: [(text: String, streams: Bool)] = [
            (#"{"meta": 1, "__collections__": {"users": {"u1": {}}}}"#, false),
            (#"{"__collections__": {"users": {"u1": {}}}, "__collections__": {"users": {"u2": {}}}}"#, false),
            (#"{"__collections__": {"users": {"u1": {"a": 1}, "u1": {"__collections__": {"x": {"y": {}}}}}}}"#, false),
            (#"{"__collections__": {"users": {"K": {}, "\u212A": {"__collections__": {"x": {"y": {}}}}}}}"#, false),
            (#"{"__collections__": {"users": {"a\u0000b": {}, "a": {"__collections__": {"x": {"y": {}}}}}}}"#, false),
            (#"{"__collections__": {"users": {"a": {"__collections__": {"x": {"y\u0000z": {}, "y": {}}}}}}}"#, true),
            (#"{"__collections__": {"users": {"u1": {}}, "users": {"u0": {}}}}"#, true),
            (#"{"__collections__": []}"#, false),
            (#"{"users": {"u1": {"a": 1}}}"#, false),
            (#"{"documents": []}"#, false),
            (#"[{"name": "projects/p/databases/d/documents/users/u1"}]"#, false),
            ("{}", false),
            ("[]", false),
            ("\"text\"", false),
        ]
        for (k, c) in cases.enumerated() {
            let file = try t.write("f\(k).json", c.text)
            let (read, whole) = Self.both(file)
            #expect(read == whole, "\(c.text)")
            let streamed = (try? Self.streams(file)) ?? true
            #expect(streamed == c.streams, "\(c.text)")
        }
    }

    /// Errors: the same message as the whole file's, the first invalid JSON winning over a
    /// decoding error before it, positions counted in the whole file.
    @Test func reportsTheWholeFilesErrors() throws {
        let t = try TemporaryFolder()
        let cases = [
            #"{"__collections__": {"users": {"u1": [1]}, "tweets": {"t1": {}}}}"#,
            #"{"__collections__": {"users": 5, "tweets": {"t1": [}}}"#,
            #"{"__collections__": {"users": {"u1": {"__collections__": {"l": {"t1": 3}}}}, "x": "#,
            #"{"__collections__": {"users": {"u1": 1}}}, "#,
            "{\"__collections__\": {\"users\": {\"u1\": {\"n\": \"\u{1}\"}}}}",
            "{\"__collections__\": {\n\"users\": {\n\"u1\": {}},\n\"tweets\": 7,\n\"x\": {\"t\": {}}}}",
        ]
        for (k, text) in cases.enumerated() {
            let file = try t.write("e\(k).json", text)
            let (read, whole) = Self.both(file)
            #expect(read == whole, "\(text)")
            guard case .error = read else {
                Issue.record("no error for \(text)")
                continue
            }
        }
        let bad = try t.write(
            "bad.json",
            bytes: Array(#"{"__collections__": {"users": {"u1": {"n": ""#.utf8) + [0xFF, 0x22, 0x7D, 0x7D, 0x7D, 0x7D])
        #expect(Self.both(bad).read.description.hasPrefix("\(bad):1:45: invalid UTF-8"))
    }

    /// Every truncation and many one-byte changes of a varied file: the same store or error.
    @Test func damagedFilesReadAsWhole() throws {
        let t = try TemporaryFolder()
        let text = Array(Self.varied.utf8)
        let replacements: [UInt8] = [
            0x2C, 0x7D, 0x5D, 0x22, 0x5C, 0x00, 0xFF, 0x0A, 0x20, 0x31, 0x3A, 0x7B, 0x5B, 0x41,
        ]
        var inputs: [[UInt8]] = []
        for end in stride(from: 0, to: text.count, by: 5) { inputs.append(Array(text[..<end])) }
        for position in stride(from: 0, to: text.count, by: 3) {
            var bytes = text
            bytes[position] = replacements[position % replacements.count]
            inputs.append(bytes)
        }
        let file = t.path("damaged.json")
        for input in inputs {
            try Data(input).write(to: URL(fileURLWithPath: file))
            let (read, whole) = Self.both(file)
            #expect(read == whole, "\(String(decoding: input, as: UTF8.self))")
        }
    }
}
