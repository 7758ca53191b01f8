import Dispatch
import JSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory store (SPEC 2.1): one JSON file per document, the path mirroring the
/// Firestore path; a folder beside a document file holds its subcollections.
///
/// Enumeration uses opendir/readdir and never follows symbolic links (they are skipped and
/// noted in `ignored`); files are read and parsed in parallel on all cores.
public enum DirectoryStore {
    /// One document file found while walking the store.
    struct Entry {
        var path: DocumentPath
        /// Relative to the root: `users/u1.json`.
        var relative: String
        /// The segments joined by NUL: sorts exactly like `path` (NUL is below every
        /// scalar and composes with nothing), but compares as one string, much faster.
        var sortKey: String
    }

    public static func read(root: String) throws(StoreError) -> DocumentStore {
        var entries: [Entry] = []
        var missing: [DocumentPath] = []
        var ignored: [StoreNote] = []
        try walk(root: root, entries: &entries, missing: &missing, ignored: &ignored)
        entries.sort { $0.sortKey < $1.sortKey }
        let documents = try readAll(entries, root: root)
        missing.sort()
        ignored.sort { $0.path < $1.path }
        return DocumentStore(documents: documents, format: .directory, path: root,
                             missingParents: missing, ignored: ignored)
    }

    /// Reads one document file of the store at `root` (for live reloading). `file` is a
    /// path relative to `root` or one starting with `root`. Nil when the file is not a
    /// document of the store: not ending in `.json`, a dot-name, at a collection position,
    /// outside the root, or reached through a symbolic link.
    public static func readDocument(file: String, root: String) throws(StoreError) -> Document? {
        var relative = file
        let prefix = root.hasSuffix("/") ? root : root + "/"
        if file.hasPrefix(prefix) {
            relative = String(file.dropFirst(prefix.count))
        } else if file.hasPrefix("/") {
            return nil
        }
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        guard let path = documentPath(forRelativeFile: relative) else { return nil }
        // No symbolic links on the way (the walker does not follow them either).
        var dir = root
        for segment in path.segments.dropLast() {
            dir = joinPath(dir, segment)
            let (kind, _) = fileKind(dir, follow: false)
            guard kind == .directory else { return nil }
        }
        let full = joinPath(root, relative)
        if fileKind(full, follow: false).0 == .symlink { return nil }
        let buffer = ReadBuffer()
        return try readOne(Entry(path: path, relative: relative, sortKey: ""), full: full, buffer: buffer)
    }

    /// `users/u1.json` → `users/u1`; nil for anything that is not a document file position.
    public static func documentPath(forRelativeFile relative: String) -> DocumentPath? {
        var segments = splitSlashes(relative).filter { !$0.isEmpty }
        guard var last = segments.last, last.hasSuffix(".json"), segments.count % 2 == 0 else { return nil }
        last.removeLast(5)
        guard !last.isEmpty else { return nil }
        segments[segments.count - 1] = last
        guard !segments.contains(where: { $0.hasPrefix(".") }) else { return nil }
        return DocumentPath(segments)
    }

    // MARK: walking

    private static func walk(root: String, entries: inout [Entry], missing: inout [DocumentPath],
                             ignored: inout [StoreNote]) throws(StoreError) {
        // Explicit stack: hostile stores may nest folders deeply.
        var stack: [(relative: String, segments: [String], key: String)] = [("", [], "")]
        var names: [(name: String, kind: FileKind, id: String?)] = []
        var documentFiles = Set<String>()
        let suffix: [UInt8] = Array(".json".utf8)
        while let (relative, segments, key) = stack.popLast() {
            let dirPath = relative.isEmpty ? root : joinPath(root, relative)
            guard let dir = opendir(dirPath) else {
                throw .unreadable(path: dirPath, reason: errnoText())
            }
            let rel = relative.isEmpty ? "" : relative + "/"
            names.removeAll(keepingCapacity: true)
            while let ent = readdir(dir) {
                // (name, id if it ends in .json) or (nil, lossy name) when not UTF-8; nil for dot-names.
                let decoded = withUnsafeBytes(of: &ent.pointee.d_name) { raw -> (String?, String?)? in
                    let n = raw.firstIndex(of: 0) ?? raw.count
                    guard n > 0, raw[0] != UInt8(ascii: ".") else { return nil }
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                    guard let name = String(validating: bytes, as: UTF8.self) else {
                        return (nil, String(decoding: bytes, as: UTF8.self))
                    }
                    if n > 5 && bytes[(n - 5)...].elementsEqual(suffix) {
                        return (name, String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<(n - 5)]), as: UTF8.self))
                    }
                    return (name, nil)
                }
                guard let decoded else { continue }
                guard let name = decoded.0 else {
                    ignored.append(StoreNote(path: rel + (decoded.1 ?? ""), reason: "name is not valid UTF-8; skipped"))
                    continue
                }
                var kind: FileKind
                switch Int32(ent.pointee.d_type) {
                case Int32(DT_DIR): kind = .directory
                case Int32(DT_REG): kind = .regular
                case Int32(DT_LNK): kind = .symlink
                case Int32(DT_UNKNOWN): kind = fileKind(joinPath(dirPath, name), follow: false).0
                default: kind = .other
                }
                names.append((name, kind, decoded.1))
            }
            closedir(dir)

            let depth = segments.count + 1 // the depth of this folder's entries
            let atDocumentPosition = depth % 2 == 0
            documentFiles.removeAll(keepingCapacity: true)
            if atDocumentPosition {
                for (_, kind, id) in names where kind == .regular {
                    if let id { documentFiles.insert(id) }
                }
            }
            for (name, kind, id) in names {
                switch kind {
                case .regular:
                    guard let id else { continue } // not .json: ignored silently
                    if atDocumentPosition {
                        entries.append(Entry(path: DocumentPath(segments + [id]), relative: rel + name,
                                             sortKey: key.isEmpty ? id : key + "\u{0}" + id))
                    } else {
                        ignored.append(StoreNote(path: rel + name,
                                                 reason: "a .json file where a collection folder is expected; skipped"))
                    }
                case .directory:
                    if atDocumentPosition && !documentFiles.contains(name) {
                        missing.append(DocumentPath(segments + [name]))
                    }
                    stack.append((rel + name, segments + [name], key.isEmpty ? name : key + "\u{0}" + name))
                case .symlink:
                    ignored.append(StoreNote(path: rel + name, reason: "symbolic link; not followed"))
                case .other, .missing:
                    continue
                }
            }
        }
    }

    // MARK: reading

    /// Results of the parallel read; each index is written by exactly one chunk.
    private final class Slots: @unchecked Sendable {
        let documents: UnsafeMutableBufferPointer<Document?>
        let errors: UnsafeMutableBufferPointer<StoreError?>

        init(count: Int, chunks: Int) {
            documents = .allocate(capacity: count)
            documents.initialize(repeating: nil)
            errors = .allocate(capacity: chunks)
            errors.initialize(repeating: nil)
        }

        deinit {
            documents.deinitialize()
            documents.deallocate()
            errors.deinitialize()
            errors.deallocate()
        }
    }

    private struct Shared: @unchecked Sendable {
        let entries: [Entry]
        let root: String
    }

    private static func readAll(_ entries: [Entry], root: String) throws(StoreError) -> [Document] {
        let n = entries.count
        if n == 0 { return [] }
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let chunks = min(n, cores * 8)
        let slots = Slots(count: n, chunks: chunks)
        let shared = Shared(entries: entries, root: root)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let lo = chunk * n / chunks
            let hi = (chunk + 1) * n / chunks
            let buffer = ReadBuffer()
            for k in lo..<hi {
                let entry = shared.entries[k]
                do throws(StoreError) {
                    slots.documents[k] = try readOne(entry, full: joinPath(shared.root, entry.relative), buffer: buffer)
                } catch {
                    slots.errors[chunk] = error
                    return
                }
            }
        }
        // The first error in path order, so the message does not depend on scheduling.
        for chunk in 0..<chunks {
            if let e = slots.errors[chunk] { throw e }
        }
        var documents: [Document] = []
        documents.reserveCapacity(n)
        for k in 0..<n {
            if let d = slots.documents[k] { documents.append(d) }
        }
        return documents
    }

    private static func readOne(_ entry: Entry, full: String, buffer: ReadBuffer) throws(StoreError) -> Document {
        let count: Int
        switch buffer.readFile(full, noFollow: true) {
        case .success(let c): count = c
        case .failure(let e):
            if e.code == ENOENT { throw .notFound(path: full) }
            throw .unreadable(path: full, reason: e.text)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(buffer.bytes(count: count))
        } catch {
            throw .invalidJSON(file: full, error: error)
        }
        guard case .object(let pairs) = json else {
            throw .notAnObject(file: full, document: entry.path.description, found: json.kindDescription)
        }
        return Document(path: entry.path, fields: Fields(json: pairs), source: entry.relative)
    }
}
