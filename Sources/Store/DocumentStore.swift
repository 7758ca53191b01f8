import JSON
import Support

/// Which kind of store documents were read from.
package enum StoreFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A folder of one JSON file per document (SPEC 2.1).
    case directory
    /// node-firestore-import-export: `{"__collections__": {…}}`.
    case nodeFirestoreImportExport
    /// firestore-export-import: `{collection: {docId: {…, "subCollection": {…}}}}`.
    case firestoreExportImport
    /// Firestore REST `documents.list` response: `{"documents": […], "nextPageToken": …}`.
    case restDocumentsList
    /// Firestore REST `runQuery` response: `[{"document": …, "readTime": …}, …]`.
    case restRunQuery
    /// A plain JSON array of Firestore REST documents.
    case restDocumentArray
    /// The database itself: Cloud Firestore or its emulator (SPEC 11).
    case firestore
    /// A folder written by `gcloud firestore export` or the emulator: LevelDB logs of entities.
    case exportFolder

    package var description: String {
        switch self {
        case .directory: return "directory store"
        case .nodeFirestoreImportExport: return "node-firestore-import-export"
        case .firestoreExportImport: return "firestore-export-import"
        case .restDocumentsList: return "Firestore REST documents.list"
        case .restRunQuery: return "Firestore REST runQuery"
        case .restDocumentArray: return "Firestore REST document array"
        case .firestore: return "Firestore database"
        case .exportFolder: return "Firestore export folder"
        }
    }
}

/// Something in a store that was skipped, and why (not an error).
package struct StoreNote: Sendable, Equatable, CustomStringConvertible {
    /// The path relative to the store root (directory stores) or the document path.
    package let path: String
    package let reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason)" }
}

/// All documents of a store, sorted by path.
package struct DocumentStore: Sendable {
    package let documents: [Document]
    package let format: StoreFormat
    /// The store path as given to `read(at:)`.
    package let path: String
    /// Document paths that have subcollections but no body of their own (Firestore's
    /// "missing" documents, such as `favorites/{uid}`), sorted.
    package let missingParents: [DocumentPath]
    /// Entries that were skipped: symbolic links, `.json` files at collection positions,
    /// names that are not UTF-8 (files not ending in `.json` and dot-names are ignored silently).
    package let ignored: [StoreNote]

    package init(
        documents: [Document], format: StoreFormat, path: String,
        missingParents: [DocumentPath] = [], ignored: [StoreNote] = []
    ) {
        self.documents = documents
        self.format = format
        self.path = path
        self.missingParents = missingParents
        self.ignored = ignored
    }

    /// SPEC 13: the warning `roost import` gives when none of the documents is in one of
    /// Roost's collections.
    package var roostCollectionsProblem: String? {
        StoreShape.roostProblem(store: path, collections: Set(documents.map { $0.path.segments[0] }))?.description
    }

    /// The source of the store at `path`: a folder is a directory store, a file a single-file
    /// store (its format is recognised from its shape when it is read).
    package static func source(at path: String) throws(StoreError) -> any DocumentSource {
        let (kind, code) = fileKind(path, follow: true)
        switch kind {
        case .directory:
            return FolderSource(root: path)
        case .regular:
            return ExportFileSource(file: path)
        case .missing:
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: errnoText(code))
        case .symlink, .other:
            throw .unreadable(path: path, reason: "not a regular file or folder")
        }
    }

    /// Reads the store at `path` (see `source(at:)`).
    package static func read(at path: String) throws(StoreError) -> DocumentStore {
        try source(at: path).readStore()
    }

    /// Reads the single-file store at `path` as `read(at:)` does, turning each document into a
    /// `T` as soon as it is read (see `SingleFileStore.read(file:transform:)`).
    package static func readSingleFile<T>(at path: String, transform: @Sendable (Document) -> T) throws(StoreError)
        -> (format: StoreFormat, values: [T], missingParents: [DocumentPath])
    {
        try checkRegularFile(path)
        return try SingleFileStore.read(file: path, transform: transform)
    }

    /// `readSingleFile(at:transform:)` with the values handed over in batches, in no
    /// particular order (see `SingleFileStore.read(file:transform:take:restart:)`).
    package static func readSingleFile<T>(
        at path: String, transform: @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        try checkRegularFile(path)
        return try SingleFileStore.read(file: path, transform: transform, take: take, restart: restart)
    }

    static func checkRegularFile(_ path: String) throws(StoreError) {
        let (kind, code) = fileKind(path, follow: true)
        switch kind {
        case .regular:
            return
        case .missing:
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: errnoText(code))
        case .directory, .symlink, .other:
            throw .unreadable(path: path, reason: "not a regular file")
        }
    }

    /// Puts `values`, made from documents with these `paths` (one each) read in another
    /// order, in the directory store's path order, and returns the missing parents: paths
    /// above some document that are no document, sorted (see `PathOrder`).
    package static func arrange<T>(_ values: inout [T], paths: inout [DocumentPath]) -> [DocumentPath] {
        PathOrder.arrange(&values, paths: &paths)
    }

    /// `arrange(_:paths:)` for documents themselves.
    package static func arrange(_ documents: inout [Document]) -> [DocumentPath] {
        PathOrder.arrange(&documents)
    }

    /// Document paths that are ancestors of some document but not documents themselves,
    /// sorted (found in one pass over the documents in path order; see `PathOrder`).
    static func missingParents(of documents: [Document]) -> [DocumentPath] {
        var documents = documents
        return PathOrder.arrange(&documents)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Value {
    /// Plain JSON as a value: no tag is interpreted.
    package init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Value.init(json:)))
        case .object(let pairs): self = .map(Fields(json: pairs))
        }
    }
}

extension Fields {
    /// A JSON object's pairs as fields, in order, values converted by `Value(json:)`.
    package init(json pairs: [(key: String, value: JSONValue)]) {
        var out: [(key: String, value: Value)] = []
        out.reserveCapacity(pairs.count)
        for p in pairs { out.append((p.key, Value(json: p.value))) }
        self.init(out)
    }
}
