import JSON

/// Why a store cannot be read or written. `description` is a message for the user:
/// it names the file (and line and column, or the document path and field) at fault.
package enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The store path does not exist.
    case notFound(path: String)
    /// A folder that holds none of the collections of a store; `holds` lists what it has,
    /// `storeNearby` the folder above when that one is a store.
    case notAStore(path: String, holds: [String], storeNearby: String?)
    /// A file or folder could not be opened or read; `reason` is the system's (errno) text.
    case unreadable(path: String, reason: String)
    /// A file is not valid JSON (or not UTF-8, or nested too deep); `file` is the path as given.
    case invalidJSON(file: String, error: JSONError)
    /// A document's body is not a JSON object.
    case notAnObject(file: String, document: String, found: String)
    /// A single-file store whose shape matches none of the accepted formats.
    case unrecognisedFormat(file: String, detail: String)
    /// A single-file store that was recognised but is malformed where `location` says.
    case malformed(file: String, location: String, detail: String)
    /// A REST document value with a type key Roost does not know.
    case unknownRESTValue(file: String, document: String, field: String, type: String)
    /// A REST document value of a known type with a bad payload (`integerValue: "abc"`).
    case invalidRESTValue(file: String, document: String, field: String, detail: String)
    /// A document whose path cannot be used as a file name (writing a directory store).
    case unsafeDocumentPath(document: String, segment: String, reason: String)
    /// The import destination is not empty and `force` was not given.
    case destinationNotEmpty(path: String)
    /// The import destination exists and is not a folder.
    case notADirectory(path: String)
    /// A file or folder could not be written; `reason` is the system's (errno) text.
    case writeFailed(path: String, reason: String)
    /// The store's changes cannot be followed (`roost serve`): `reason` says why.
    case cannotFollow(path: String, reason: String)
    /// A store that is not a file, the database, could not be read or written: `failure`
    /// says why, naming it.
    case unavailable(any Error & Sendable & CustomStringConvertible)
    /// A store that holds documents, but in none of Roost's collections (SPEC 13): `holds`
    /// names the collections it has.
    case noRoostCollections(store: String, holds: [String])
    /// A file of an export folder that is damaged or cut where `offset` says (a bad checksum,
    /// a record cut off, an unknown record type, a property that does not decode); `document`
    /// is the document's path when it is known.
    case damagedExport(file: String, offset: Int, document: String?, detail: String)
    /// An export folder without all of its files: metadata or output files missing, or fewer
    /// documents or bytes than its metadata lists.
    case incompleteExport(path: String, detail: String)
    /// An export folder of a database that held no documents: no site to build, as from
    /// the database itself or an empty folder.
    case emptyExport(path: String)

    package var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): store not found (expected a folder or a single-file store .json)"
        case .notAStore(let path, let holds, let storeNearby):
            let shown = holds.prefix(5).joined(separator: ", ") + (holds.count > 5 ? ", …" : "")
            var text =
                "\(path): not a store: a directory store holds users/, tweets/ or favorites/ "
                + "(users/{uid}.json, tweets/{id}.json, …), and this folder holds "
                + (holds.isEmpty ? "nothing" : shown)
            if let storeNearby { text += "; did you mean the store '\(storeNearby)'?" }
            return text
                + " (a single-file store is one .json export file; an export folder holds NAME.overall_export_metadata"
                + " or firebase-export-metadata.json)"
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .invalidJSON(let file, let e):
            switch e.kind {
            case .invalidUTF8:
                return "\(file):\(e.line):\(e.column): invalid UTF-8: the file must be UTF-8 text (\(e.message))"
            case .syntax, .tooDeep:
                return "\(file):\(e.line):\(e.column): invalid JSON: \(e.message)"
            }
        case .notAnObject(let file, let document, let found):
            return "\(file): document \(document) is \(found), not a JSON object"
        case .unrecognisedFormat(let file, let detail):
            return "\(file): not a recognised single-file store (\(detail)); accepted: "
                + "node-firestore-import-export {\"__collections__\": {…}}, "
                + "firestore-export-import {collection: {docId: {…}}}, "
                + "a Firestore REST documents.list response {\"documents\": […]}, "
                + "a runQuery response [{\"document\": …}, …] or an array of REST documents [{\"name\": …, \"fields\": …}]"
        case .malformed(let file, let location, let detail):
            return "\(file): \(location): \(detail)"
        case .unknownRESTValue(let file, let document, let field, let type):
            return "\(file): document \(document), field \(field): unknown Firestore REST value type \"\(type)\" "
                + "(expected one of \(restValueTypes.joined(separator: ", ")))"
        case .invalidRESTValue(let file, let document, let field, let detail):
            return "\(file): document \(document), field \(field): \(detail)"
        case .unsafeDocumentPath(let document, let segment, let reason):
            return "cannot write document \(document): \"\(segment.debugDescription.dropFirst().dropLast())\" \(reason)"
        case .destinationNotEmpty(let path):
            return "\(path): folder is not empty"
        case .notADirectory(let path):
            return "\(path): exists and is not a folder"
        case .writeFailed(let path, let reason):
            return "\(path): cannot write: \(reason)"
        case .cannotFollow(let path, let reason):
            return "\(path): cannot follow its changes: \(reason)"
        case .unavailable(let failure):
            return failure.description
        case .noRoostCollections(let store, let holds):
            return Self.noRoostCollections(store, holds: holds)
        case .damagedExport(let file, let offset, let document, let detail):
            let which = document.map { " (document \($0))" } ?? ""
            return "\(file): damaged export at byte \(offset)\(which): \(detail); export the database again"
        case .incompleteExport(let path, let detail):
            return "\(path): incomplete export: \(detail); export the database again"
        case .emptyExport(let path):
            return "\(path): the export holds no documents (the database was empty when it was exported); "
                + "export the database that holds the app's data"
        }
    }
}

extension StoreError {
    /// SPEC 13, said the same way for every form of store.
    static func noRoostCollections(_ store: String, holds: [String]) -> String {
        let shown = holds.prefix(5).joined(separator: ", ") + (holds.count > 5 ? ", …" : "")
        return "\(store): not a store of Roost's: it holds the collections \(shown), and none of "
            + StoreShape.collections.joined(separator: ", ") + " (SPEC 2.1)"
    }
}

let restValueTypes = [
    "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue",
    "bytesValue", "referenceValue", "geoPointValue", "arrayValue", "mapValue",
]
