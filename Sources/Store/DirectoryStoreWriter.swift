import Foundation
import JSON
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes documents as a directory store (for `roost import`): one pretty-printed JSON
/// file per document at `DIR/collection/id.json`, subcollections in folders beside.
///
/// Typed values are written in forms the directory reader and the model (SPEC 2.4) accept:
/// - timestamp → RFC 3339 UTC string, `2021-11-05T09:30:00Z`, with `.123456789` (nine
///   digits) when the nanoseconds are not zero; years outside 0000–9999 as
///   `{"_seconds": s, "_nanoseconds": n}`;
/// - geopoint → `{"_latitude": …, "_longitude": …}`;
/// - reference → its path string; bytes → the base64 string;
/// - a non-finite double (REST `"NaN"`, `"Infinity"`) → `null`.
package enum DirectoryStoreWriter {
    /// Writes `documents` under `dir`. Refuses, before writing anything, any path segment
    /// that is unsafe as a file name. `dir` must be missing or empty unless `force`, which
    /// replaces its contents (symbolic links inside are removed, never followed).
    /// Of documents with the same path, the last is written. Each of `missingParents` (a
    /// store's missing parents) gets its folder, without a file, so the store written reports
    /// it too, even with no document below it.
    ///
    /// Whole or not at all: the store is written in a folder beside `dir` and renamed into
    /// place once every file is written, so a failure leaves `dir` as it was.
    package static func write(
        _ documents: [Document], to dir: String, force: Bool,
        missingParents: [DocumentPath] = []
    ) throws(StoreError) {
        // The last of documents with the same path wins (and no file is written twice at once).
        // The same path is the same bytes: IDs in two Unicode forms are two documents, and two
        // files, as in Firestore.
        func key(_ path: DocumentPath) -> ExactText { ExactText(path.segments.joined(separator: "\u{0}")) }
        var last: [ExactText: Int] = [:]
        for (k, d) in documents.enumerated() { last[key(d.path)] = k }
        let documents =
            last.count == documents.count
            ? documents
            : documents.enumerated().filter { last[key($0.element.path)] == $0.offset }.map(\.element)
        for document in documents {
            let segments = document.path.segments
            for (k, segment) in segments.enumerated() {
                if let reason = unsafeReason(segment, isFileName: k == segments.count - 1) {
                    throw .unsafeDocumentPath(document: document.path.description, segment: segment, reason: reason)
                }
            }
        }
        for parent in missingParents {
            for segment in parent.segments {
                if let reason = unsafeReason(segment, isFileName: false) {
                    throw .unsafeDocumentPath(document: parent.description, segment: segment, reason: reason)
                }
            }
        }
        let target = try prepare(dir, force: force)
        let staging = try makeStaging(beside: target)
        do throws(StoreError) {
            try write(documents, missingParents: missingParents, in: staging)
            try replace(target, with: staging)
        } catch {
            removeTree(AT_FDCWD, staging)
            throw error
        }
    }

    /// Writes the folders and files of `documents` and `missingParents` in the empty folder `dir`.
    private static func write(_ documents: [Document], missingParents: [DocumentPath], in dir: String)
        throws(StoreError)
    {
        // Folders first (one thread), then files in parallel. Names compared as bytes: two
        // IDs in two Unicode forms are two folders.
        var made = Set<ExactText>()
        for k in 0..<(documents.count + missingParents.count) {
            let segments =
                k < documents.count
                ? documents[k].path.segments.dropLast(1)
                : missingParents[k - documents.count].segments[...]
            var rel = ""
            for segment in segments {
                rel = rel.isEmpty ? segment : rel + "/" + segment
                if made.insert(ExactText(rel)).inserted {
                    let full = joinPath(dir, rel)
                    if mkdir(full, 0o755) != 0 && errno != EEXIST {
                        throw .writeFailed(path: full, reason: errnoText())
                    }
                    let (kind, _) = fileKind(full, follow: false)
                    if kind != .directory { throw .writeFailed(path: full, reason: "exists and is not a folder") }
                }
            }
        }

        let n = documents.count
        if n == 0 { return }
        let chunks = min(n, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) * Self.chunksPerCore)
        try parallelForEach(count: n, chunk: (n + chunks - 1) / chunks) { k throws(StoreError) in
            let document = documents[k]
            var bytes: [UInt8] = []
            JSONWriter.append(jsonObject(document.fields), to: &bytes)
            bytes.append(0x0A)
            let path = joinPath(dir, document.path.description + ".json")
            if let reason = writeFile(path, bytes) { throw .writeFailed(path: path, reason: reason) }
        }
    }

    /// Why `segment` cannot be a file or folder name in a store, or nil if it can.
    /// `isFileName`: the document ID, written as `ID.json`.
    package static func unsafeReason(_ segment: String, isFileName: Bool) -> String? {
        if segment.isEmpty { return "is empty" }
        if segment == "." || segment == ".." { return "is not allowed as a file name" }
        if segment.utf8.contains(UInt8(ascii: "/")) { return "contains '/'" }
        if segment.utf8.contains(0) { return "contains a NUL character" }
        if segment.hasPrefix(".") { return "starts with '.', which the directory store ignores" }
        let limit = isFileName ? 250 : 255
        if segment.utf8.count > limit {
            return "is longer than \(limit) bytes" + (isFileName ? " (with .json the file name would exceed 255)" : "")
        }
        return nil
    }

    /// The JSON a document's fields are written as.
    package static func jsonObject(_ fields: Fields) -> JSONValue {
        .object(fields.pairs.map { ($0.key, json(for: $0.value)) })
    }

    /// The JSON a value is written as (see the type's documentation).
    package static func json(for value: Value) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .double(let d): return d.isFinite ? .double(d) : .null
        case .string(let s): return .string(s)
        case .timestamp(let t):
            if let s = RFC3339.format(t) { return .string(s) }
            return .object([("_seconds", .integer(t.seconds)), ("_nanoseconds", .integer(Int64(t.nanoseconds)))])
        case .geoPoint(let lat, let lon):
            return .object([("_latitude", .double(lat)), ("_longitude", .double(lon))])
        case .reference(let s): return .string(s)
        case .bytes(let s): return .string(s)
        case .array(let values): return .array(values.map(json(for:)))
        case .map(let fields): return jsonObject(fields)
        }
    }

    /// Checks that `dir` can take the store: missing, an empty folder, or with `force` a
    /// folder with things in it. Returns the folder to replace: `dir`, or where a link at
    /// `dir` points (the store goes there, as it went through the link before).
    private static func prepare(_ dir: String, force: Bool) throws(StoreError) -> String {
        let (kind, code) = fileKind(dir, follow: true)
        switch kind {
        case .missing:
            guard code == ENOENT else { throw .writeFailed(path: dir, reason: errnoText(code)) }
            return dir
        case .directory:
            guard let folder = FileDescriptor(open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
                throw .unreadable(path: dir, reason: errnoText())
            }
            switch DirectoryListing.names(in: folder.raw, dotNames: true) {
            case .success(let names): if !names.isEmpty && !force { throw .destinationNotEmpty(path: dir) }
            case .failure(let error): throw .unreadable(path: dir, reason: error.text)
            }
            // (Through a link, the store goes where it points, as it did before.)
            guard let resolved = realpath(dir, nil) else { return dir }
            defer { free(resolved) }
            return String(cString: resolved)
        default:
            throw .notADirectory(path: dir)
        }
    }

    /// A new empty folder beside `dir` (in its parent, made if missing), to write the store in;
    /// inside `dir` when it is there and its parent may not be written.
    private static func makeStaging(beside dir: String) throws(StoreError) -> String {
        var trimmed = dir
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let slash = trimmed.lastIndex(of: "/")
        let parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        let code = makeDirectories(parent)
        if code != 0 { throw .writeFailed(path: parent, reason: "cannot create the folder (\(errnoText(code)))") }
        let staging = joinPath(parent, ".\(name).roost-import-\(getpid())")
        removeTree(AT_FDCWD, staging)  // left by a run killed before it finished
        if mkdir(staging, 0o755) == 0 { return staging }
        let error = errno
        // A folder the user may write in, in one they may not: the store is written inside it.
        let inside = joinPath(dir, ".roost-import-\(getpid())")
        guard error == EACCES || error == EPERM || error == EROFS, fileKind(dir, follow: false).0 == .directory else {
            throw .writeFailed(path: staging, reason: errnoText(error))
        }
        removeTree(AT_FDCWD, inside)
        if mkdir(inside, 0o755) != 0 { throw .writeFailed(path: inside, reason: errnoText()) }
        return inside
    }

    /// Puts the written store `staging` in place at `dir`: renamed to it when it is missing;
    /// else its few top-level entries (the collections) are moved into `dir`, the old ones
    /// that `force` replaces moved aside first and removed after. (The folder itself stays:
    /// it may be where the user's shell is.)
    private static func replace(_ dir: String, with staging: String) throws(StoreError) {
        if fileKind(dir, follow: false).0 == .missing {
            if rename(staging, dir) == 0 { return }
            throw .writeFailed(path: dir, reason: errnoText())
        }
        let aside = staging + "-old"
        // (Written inside `dir`, when its parent could not take it: not one of its entries.)
        let old = entries(of: dir).filter { joinPath(dir, $0) != staging && joinPath(dir, $0) != aside }
        if !old.isEmpty, mkdir(aside, 0o755) != 0 { throw .writeFailed(path: aside, reason: errnoText()) }
        var moved: [(from: String, to: String)] = []
        func undo() {
            for move in moved.reversed() { rename(move.to, move.from) }
            rmdir(aside)
        }
        for (from, to) in old.map({ (joinPath(dir, $0), joinPath(aside, $0)) })
            + entries(of: staging).map({ (joinPath(staging, $0), joinPath(dir, $0)) })
        {
            guard rename(from, to) == 0 else {
                let reason = errnoText()
                undo()
                throw .writeFailed(path: to, reason: reason)
            }
            moved.append((from, to))
        }
        rmdir(staging)
        // The old store is out of the way: a file of it that cannot be removed (one of the
        // user's) stays beside, not lost.
        if !old.isEmpty { removeTree(AT_FDCWD, aside) }
    }

    /// The names in the folder `dir` (dot-names too); none when it cannot be listed.
    private static func entries(of dir: String) -> [String] {
        guard let folder = FileDescriptor(open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else { return [] }
        return (try? DirectoryListing.names(in: folder.raw, dotNames: true).get()) ?? []
    }

    /// Writes `bytes` to a new file at `path` (never through a symbolic link); the error text or nil.
    private static func writeFile(_ path: String, _ bytes: [UInt8]) -> String? {
        guard let file = FileDescriptor(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)) else {
            return errnoText()
        }
        let code = bytes.withUnsafeBytes { writeAll(file.raw, $0) }
        return code == 0 ? nil : errnoText(code)
    }

    /// Parts of the documents per core: more parts than cores, so that a core done early
    /// takes another part while one with big documents is still writing.
    private static let chunksPerCore = 4
}
