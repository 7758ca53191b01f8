import Foundation
import Testing
@testable import Store

/// A fresh temporary folder, removed when the value is deinitialised.
final class TempDir {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.path + "/roost-store-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func url(_ rel: String) -> String { path + "/" + rel }

    /// Writes `text` (UTF-8) at `rel`, creating folders.
    @discardableResult
    func write(_ rel: String, _ text: String) -> String {
        write(rel, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ rel: String, bytes: [UInt8]) -> String {
        let full = url(rel)
        let dir = (full as NSString).deletingLastPathComponent
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: full, contents: Data(bytes))
        return full
    }

    func mkdir(_ rel: String) {
        try! FileManager.default.createDirectory(atPath: url(rel), withIntermediateDirectories: true)
    }

    func exists(_ rel: String) -> Bool { FileManager.default.fileExists(atPath: url(rel)) }

    func read(_ rel: String) -> String { try! String(contentsOfFile: url(rel), encoding: .utf8) }
}

/// The error `body` throws, if any.
func storeError<T>(_ body: () throws -> T) -> StoreError? {
    do {
        _ = try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("not a StoreError: \(error)")
        return nil
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
