import Foundation
import TestSupport
import Testing

@testable import Store

// Files of a store in a `TemporaryFolder`, by path inside it.
extension TemporaryFolder {
    func mkdir(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: self.path(relative), withIntermediateDirectories: true)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: self.path(relative)) }

    /// The file's text, or nil when it cannot be read or is not UTF-8.
    func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: self.path(relative)).flatMap { String(data: $0, encoding: .utf8) }
    }
}

func path(_ s: String) -> DocumentPath { DocumentPath(string: s)! }

/// What a typed value becomes once written to a directory store and read back.
func plain(_ v: Value) -> Value {
    switch v {
    case .timestamp, .geoPoint, .reference, .bytes:
        return Value(json: DirectoryStoreWriter.json(for: v))
    case .double(let d) where !d.isFinite:
        return .null
    case .array(let a): return .array(a.map(plain))
    case .map(let f): return .map(Fields(f.pairs.map { ($0.key, plain($0.value)) }))
    default: return v
    }
}

func plain(_ f: Fields) -> Fields { Fields(f.pairs.map { ($0.key, plain($0.value)) }) }
