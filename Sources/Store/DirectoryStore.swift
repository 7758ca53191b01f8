import JSON
import Support

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
/// Enumeration uses readdir and never follows symbolic links below the root (they are
/// skipped and noted in `ignored`); files are read and parsed in parallel on all cores.
package enum DirectoryStore {
    /// Folders this many path segments deep are skipped (Firestore allows 100 levels of
    /// nesting); a hostile store cannot make paths too long to open.
    package static let maxDepth = 200
    /// One document file found while walking the store.
    struct Entry {
        var path: DocumentPath
        /// Relative to the root: `users/u1.json`.
        var relative: String
        /// The segments joined by NUL: sorts exactly like `path` (NUL is below every
        /// scalar and composes with nothing), but compares as one string, much faster.
        /// Made when needed (an unordered read needs it only for errors).
        var sortKey: String { path.segments.joined(separator: "\u{0}") }
    }

    /// A folder to scan: relative path, its segments, and its sort key (see `Entry`).
    struct Folder {
        var relative: String
        var segments: [String]
        var key: String

        /// What its entries' relative paths start with: `""` for the root, else `relative/`.
        var prefix: String { relative.isEmpty ? "" : relative + "/" }

        /// The sort key of the entry `segment` in it.
        func key(appending segment: String) -> String { key.isEmpty ? segment : key + "\u{0}" + segment }
    }

    /// What one unit of work found: each document as the caller's `T`.
    struct Partial<T> {
        /// Each document's sort key and value, apart: sorting compares keys alone.
        var keys: [String] = []
        var documents: [T] = []

        /// `key`: empty in a read that does not sort (then no key is kept).
        mutating func append(_ key: String, _ document: T) {
            if !key.isEmpty { keys.append(key) }
            documents.append(document)
        }
        var missing: [DocumentPath] = []
        var ignored: [StoreNote] = []
        /// Each folder listed, with its layout (see `FolderLayouts`).
        var folders: [FolderLayouts.Folder] = []
        /// Errors with the sort key of the file or folder, so the first in path order is reported.
        var errors: [(key: String, error: StoreError)] = []
    }

    enum Unit {
        /// Document files directly in a top-level collection, read by path.
        case files(ArraySlice<Entry>)
        /// A document's folder of subcollections: walked and read by one thread.
        case subtree(Folder)
    }

    /// Reads every document of the directory store at `root`, sorted by path.
    package static func read(root: String) throws(StoreError) -> DocumentStore {
        let (documents, missing, ignored) = try read(root: root, transform: { $0 })
        return DocumentStore(
            documents: documents, format: .directory, path: root,
            missingParents: missing, ignored: ignored)
    }

    /// Reads every document of the directory store at `root` and turns each into a `T` on
    /// the thread that parsed it, so a large store's documents never sit in memory all at
    /// once; the results come sorted by document path, or with `ordered: false` in no
    /// particular order (without the sort, and the sort key of every document it holds).
    ///
    /// The root and the top-level collection folders are listed on the calling thread;
    /// the files found there and every document folder below (a subtree each) are then
    /// read on all cores, files opened relative to their open folder. When files cannot be
    /// read, the error is the first in path order either way.
    package static func read<T>(
        root: String, ordered: Bool = true, transform: @escaping @Sendable (Document) -> T
    ) throws(StoreError) -> (values: [T], missingParents: [DocumentPath], ignored: [StoreNote]) {
        let read = try read(
            root: root,
            reading: Reading(
                ordered: ordered, reuse: nil, known: nil, transform: { document, _ in transform(document) }))
        return (read.values, read.missingParents, read.ignored)
    }

    /// Like `read(root:transform:)`, but each document file is stamped first (`FileStamp`,
    /// one `fstatat`) and `reusing` is asked for a value already made from that file as it
    /// is now (a cache keyed by the path relative to `root` and the stamp); only the files it
    /// has none for are read, and `transform` gets their stamp as it was before reading.
    /// A file in `stamps` (from a `StoreStamp` walk just before, by relative path) is not
    /// stat-ed again. `folders` is what the listings showed (nil if two folders' paths share
    /// a hash).
    package static func read<T>(
        root: String, stamps: StoreFileStamps.Index? = nil, ordered: Bool = true,
        reusing: @escaping @Sendable (_ file: String, FileStamp) -> T?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> (
        values: [T], missingParents: [DocumentPath], ignored: [StoreNote], folders: FolderLayouts?
    ) {
        try read(root: root, reading: Reading(ordered: ordered, reuse: reusing, known: stamps, transform: transform))
    }

    /// How the walk turns a document file into a caller's value.
    struct Reading<T>: @unchecked Sendable {  // (the closures are @Sendable; only T is generic)
        /// False: the values come in no particular order (no sort keys are kept).
        var ordered = true
        let reuse: (@Sendable (String, FileStamp) -> T?)?
        /// Stamps already taken, by relative path.
        let known: StoreFileStamps.Index?
        let transform: @Sendable (Document, FileStamp?) -> T
    }

    private static func read<T>(root: String, reading: Reading<T>) throws(StoreError)
        -> (values: [T], missingParents: [DocumentPath], ignored: [StoreNote], folders: FolderLayouts?)
    {
        var top = Partial<T>()
        var deferred: [Entry] = []
        var units: [Unit] = []
        let collections = scan(
            Folder(relative: "", segments: [], key: ""), root: root, buffer: nil,
            deferred: &deferred, into: &top, reading: reading)
        for collection in collections {
            let documentFolders = scan(
                collection, root: root, buffer: nil, deferred: &deferred, into: &top,
                reading: reading)
            units.append(contentsOf: documentFolders.map(Unit.subtree))
        }
        // Files per unit: enough that a unit is worth a core's turn, few enough to balance.
        let chunk = 256
        for lo in stride(from: 0, to: deferred.count, by: chunk) {
            units.append(.files(deferred[lo..<min(lo + chunk, deferred.count)]))
        }

        let work = units
        var results = [Partial<T>](parallelCount: work.count) { k in
            var partial = Partial<T>()
            let buffer = ReadBuffer()
            switch work[k] {
            case .files(let entries):
                // Entries of one or two collection folders: each opened once, files read and
                // stamped relative to it (no path lookup from the root per file).
                var folder = (name: "", fd: Int32(-1))
                defer { if folder.fd >= 0 { close(folder.fd) } }
                for entry in entries {
                    let slash = entry.relative.utf8.lastIndex(of: UInt8(ascii: "/"))!
                    let dir = String(entry.relative[..<slash])
                    let name = String(entry.relative[entry.relative.utf8.index(after: slash)...])
                    if dir != folder.name || folder.fd < 0 {
                        if folder.fd >= 0 { close(folder.fd) }
                        folder = (dir, open(joinPath(root, dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW))
                        if folder.fd < 0 {
                            partial.errors.append(
                                (entry.sortKey, .unreadable(path: joinPath(root, dir), reason: errnoText())))
                            continue
                        }
                    }
                    read(entry, name: name, in: folder.fd, root: root, buffer: buffer, into: &partial, reading: reading)
                }
            case .subtree(let folder):
                var stack = [folder]
                var none: [Entry] = []
                while let next = stack.popLast() {
                    stack.append(
                        contentsOf: scan(
                            next, root: root, buffer: buffer, deferred: &none, into: &partial,
                            reading: reading))
                }
            }
            return partial
        }

        var all = top
        // Made its full size at once: growing by doubling would copy them all, and hold the
        // old and new storage together, at the read's peak.
        let total = top.documents.count + results.reduce(0) { $0 + $1.documents.count }
        all.keys.reserveCapacity(total)
        all.documents.reserveCapacity(total)
        for k in results.indices {
            var p = Partial<T>()
            swap(&p, &results[k])  // frees each part as it is merged
            all.keys.append(contentsOf: p.keys)
            all.documents.append(contentsOf: p.documents)
            all.missing.append(contentsOf: p.missing)
            all.ignored.append(contentsOf: p.ignored)
            all.errors.append(contentsOf: p.errors)
            all.folders.append(contentsOf: p.folders)
        }
        if let first = all.errors.min(by: { $0.key < $1.key }) {
            throw first.error
        }
        all.missing.sort()
        all.ignored.sort { $0.path < $1.path }
        guard reading.ordered else { return (all.documents, all.missing, all.ignored, FolderLayouts(all.folders)) }
        // Sorted by position, then put in that order in place: moving the documents themselves
        // while sorting would copy each (and retain every string in it) many times over, and
        // a sorted copy would hold them all twice.
        var keys = all.keys
        all.keys = []
        var order = Array(keys.indices)
        order.sort { keys[$0] < keys[$1] }
        keys = []
        var values = all.documents
        all.documents = []
        values.rearrange(takingFrom: &order)
        return (values, all.missing, all.ignored, FolderLayouts(all.folders))
    }

    /// Reads one document file of the store at `root` (for live reloading). `file` is a
    /// path relative to `root` or one starting with `root`. Nil when the file is not a
    /// document of the store: not ending in `.json`, a dot-name, at a collection position,
    /// outside the root, or reached through a symbolic link.
    package static func readDocument(file: String, root: String) throws(StoreError) -> Document? {
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
        switch fileKind(full, follow: false) {
        case (.regular, _): break
        case (.missing, let code):
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: full) }
            throw .unreadable(path: full, reason: errnoText(code))
        default: return nil  // symbolic links, folders, FIFOs, devices
        }
        let buffer = ReadBuffer()
        return try readOne(Entry(path: path, relative: relative), full: full, buffer: buffer)
    }

    /// The document files directly in the folder `relative` of the store at `root` (none
    /// below it), as a read of the whole store finds them there, and the folder's layout as
    /// this listing saw it (see `FolderLayouts`): a build cache lists again only the folders
    /// whose layout moved. Nil when a read of the whole store would not list this folder
    /// (nested too deep).
    package static func documentFiles(inFolder relative: String, root: String) throws(StoreError)
        -> (files: [String], folder: FolderLayouts.Folder)?
    {
        let segments = splitSlashes(relative).filter { !$0.isEmpty }
        guard segments.count < maxDepth else { return nil }
        let folder = Folder(
            relative: segments.joined(separator: "/"), segments: segments, key: segments.joined(separator: "\u{0}"))
        var partial = Partial<Document>()
        var entries: [Entry] = []
        _ = scan(
            folder, root: root, buffer: nil, deferred: &entries, into: &partial,
            reading: Reading(reuse: nil, known: nil, transform: { document, _ in document }))
        if let first = partial.errors.min(by: { $0.key < $1.key }) { throw first.error }
        guard let listed = partial.folders.first else { return nil }
        entries.sort { $0.sortKey < $1.sortKey }
        return (entries.map(\.relative), listed)
    }

    /// `users/u1.json` → `users/u1`; nil for anything that is not a document file position.
    package static func documentPath(forRelativeFile relative: String) -> DocumentPath? {
        var segments = splitSlashes(relative).filter { !$0.isEmpty }
        guard var last = segments.last, last.hasSuffix(".json"), segments.count % 2 == 0 else { return nil }
        last.removeLast(5)
        guard !last.isEmpty else { return nil }
        segments[segments.count - 1] = last
        guard !segments.contains(where: { $0.hasPrefix(".") }) else { return nil }
        return DocumentPath(segments)
    }

    // MARK: walking

    /// Lists `folder`: notes what is skipped, records a missing parent for a document
    /// folder without its file, reads each document file (with `buffer`, relative to the open
    /// folder) or defers it (without), and returns the subfolders to scan.
    private static func scan<T>(
        _ folder: Folder, root: String, buffer: ReadBuffer?,
        deferred: inout [Entry], into partial: inout Partial<T>,
        reading: Reading<T>
    ) -> [Folder] {
        let dirPath = folder.relative.isEmpty ? root : joinPath(root, folder.relative)
        // The root may be a symbolic link the user named; nothing below it is followed.
        guard
            let opened = FileDescriptor(
                open(dirPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (folder.relative.isEmpty ? 0 : O_NOFOLLOW)))
        else {
            partial.errors.append((folder.key, .unreadable(path: dirPath, reason: errnoText())))
            return []
        }
        guard let names = list(opened.raw, of: folder, at: dirPath, into: &partial) else { return [] }

        let atDocumentPosition = (folder.segments.count + 1) % 2 == 0
        let documentFiles = atDocumentPosition ? Set(names.lazy.filter { $0.kind == .regular }.compactMap(\.id)) : []
        let prefix = folder.prefix
        var subfolders: [Folder] = []
        for listed in names {
            let relative = prefix + listed.name
            switch listed.kind {
            case .regular:
                guard let id = listed.id else { continue }  // not .json: ignored silently
                guard atDocumentPosition else {
                    partial.ignored.append(
                        StoreNote(
                            path: relative,
                            reason: "a .json file where a collection folder is expected; skipped"))
                    continue
                }
                let entry = Entry(
                    path: DocumentPath(folder.segments + [id]), relative: relative)
                if let buffer {
                    read(
                        entry, name: listed.name, in: opened.raw, root: root, buffer: buffer, into: &partial,
                        reading: reading)
                } else {
                    deferred.append(entry)
                }
            case .directory:
                guard folder.segments.count + 1 < maxDepth else {
                    partial.ignored.append(
                        StoreNote(
                            path: relative,
                            reason: "nested deeper than \(maxDepth) path segments (Firestore's limit); skipped"))
                    continue
                }
                if atDocumentPosition && !documentFiles.contains(listed.name) {
                    partial.missing.append(DocumentPath(folder.segments + [listed.name]))
                }
                subfolders.append(
                    Folder(
                        relative: relative, segments: folder.segments + [listed.name],
                        key: folder.key(appending: listed.name)))
            case .symlink:
                partial.ignored.append(StoreNote(path: relative, reason: "symbolic link; not followed"))
            case .other, .missing:
                continue
            }
        }
        return subfolders
    }

    /// One name in a folder being scanned.
    private struct Listed {
        var name: String
        var kind: FileKind
        /// The name without `.json`, when it ends so.
        var id: String?
    }

    /// The names in the open folder `fd` (`folder`, at `dirPath`), dot-names left out; names
    /// that are not UTF-8 are noted as skipped. Nil (an error noted) when it cannot be listed.
    private static func list<T>(
        _ fd: Int32, of folder: Folder, at dirPath: String,
        into partial: inout Partial<T>
    ) -> [Listed]? {
        let suffix: [UInt8] = Array(".json".utf8)
        let prefix = folder.prefix
        var layout = StoreLayout(folder: folder.relative)
        var names: [Listed] = []
        let failure = DirectoryListing.forEach(in: fd, dotNames: false) { entry in
            let kind = entry.kind
            guard let name = entry.validName else {
                layout.add(entry.name, kind: kind)
                partial.ignored.append(StoreNote(path: prefix + entry.name, reason: "name is not valid UTF-8; skipped"))
                return
            }
            let bytes = entry.nameBytes
            layout.add(bytes: bytes, kind: kind)
            let n = bytes.count
            var id: String?
            if n > 5 && bytes[(n - 5)...].elementsEqual(suffix) {
                id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<(n - 5)]), as: UTF8.self)
            }
            names.append(Listed(name: name, kind: kind, id: id))
        }
        if failure != 0 {
            partial.errors.append((folder.key, .unreadable(path: dirPath, reason: errnoText(failure))))
            return nil
        }
        partial.folders.append(layout.folder())
        return names
    }

    /// Reads the document file `name` of the open folder `fd` into `partial`.
    private static func read<T>(
        _ entry: Entry, name: String, in fd: Int32, root: String, buffer: ReadBuffer,
        into partial: inout Partial<T>, reading: Reading<T>
    ) {
        let full = joinPath(root, entry.relative)
        var stamp: FileStamp?
        if let reuse = reading.reuse {
            stamp = reading.known?[entry.relative] ?? FileStamp.of(name, in: fd)
            if let stamp, let value = reuse(entry.relative, stamp) {
                partial.append(reading.ordered ? entry.sortKey : "", value)
                return
            }
        }
        do throws(StoreError) {
            let document = try decode(buffer.readFile(in: fd, name: name), entry: entry, full: full, buffer: buffer)
            partial.append(reading.ordered ? entry.sortKey : "", reading.transform(document, stamp))
        } catch {
            partial.errors.append((entry.sortKey, error))
        }
    }

    // MARK: reading

    private static func readOne(_ entry: Entry, full: String, buffer: ReadBuffer) throws(StoreError) -> Document {
        try decode(buffer.readFile(full, noFollow: true), entry: entry, full: full, buffer: buffer)
    }

    /// The document in `buffer` after a read that returned `read`.
    private static func decode(
        _ read: Result<Int, ErrnoCode>, entry: Entry, full: String,
        buffer: ReadBuffer
    ) throws(StoreError) -> Document {
        let count: Int
        switch read {
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
