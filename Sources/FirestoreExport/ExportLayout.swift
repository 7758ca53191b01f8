import JSON
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// The files of an export folder, found from its metadata: the folder that holds
/// `NAME.overall_export_metadata` (`gcloud firestore export`, the emulator's export
/// endpoint), or the folder above it with `firebase-export-metadata.json` (`firebase
/// emulators:export`, which names the Firestore part, `firestore_export/`). Every file the
/// metadata lists must be there: a missing one is an error, not fewer documents.
struct ExportLayout: Sendable {
    static let firebaseMetadataName = "firebase-export-metadata.json"
    static let overallSuffix = ".overall_export_metadata"

    /// The folder that holds the overall metadata.
    let root: String
    let overallMetadata: String
    /// `firebase-export-metadata.json`, for a Firebase emulator export.
    let firebaseMetadata: String?
    let kinds: [Kind]

    /// One kind's files, and what its metadata counted.
    struct Kind: Sendable {
        let metadata: String
        let outputs: [String]
        let documents: Int?
        let bytes: Int?
    }

    /// Every file the export is made of.
    var files: [String] {
        (firebaseMetadata.map { [$0] } ?? []) + [overallMetadata] + kinds.flatMap { [$0.metadata] + $0.outputs }
    }

    /// True when `path` names an export: a folder holding an overall metadata file or
    /// `firebase-export-metadata.json`, or one of those files.
    static func recognises(_ path: String) -> Bool {
        switch kind(of: path) {
        case .regular: return isMetadataName(lastComponent(path))
        case .directory: return (try? names(in: path))?.contains(where: isMetadataName) ?? false
        default: return false
        }
    }

    private static func isMetadataName(_ name: String) -> Bool {
        name == firebaseMetadataName || (name.hasSuffix(overallSuffix) && name.count > overallSuffix.count)
    }

    /// The export at `location`, its metadata read.
    static func find(at location: String) throws(StoreError) -> ExportLayout {
        let (root, overall, firebase) = try locate(location)
        let overallBytes = try read(overall, listedIn: firebase)
        let listed: [ExportMetadata.Kind]
        do {
            listed = try ExportMetadata.kinds(inOverall: overallBytes)
        } catch {
            throw .damagedExport(file: overall, offset: error.offset, document: nil, detail: error.detail)
        }
        var kinds: [Kind] = []
        for entry in listed {
            let metadata = joinPath(root, entry.metadataFile)
            let bytes = try read(metadata, listedIn: overall)
            let outputs: [String]
            do {
                outputs = try ExportMetadata.outputs(inKind: bytes)
            } catch {
                throw .damagedExport(file: metadata, offset: error.offset, document: nil, detail: error.detail)
            }
            let folder = parentFolder(of: metadata)
            kinds.append(
                Kind(
                    metadata: metadata, outputs: outputs.map { joinPath(folder, $0) }, documents: entry.documents,
                    bytes: entry.bytes))
        }
        return ExportLayout(root: root, overallMetadata: overall, firebaseMetadata: firebase, kinds: kinds)
    }

    /// Throws unless every output file is there.
    func checkOutputsExist() throws(StoreError) {
        // An empty database's export lists no collection: no store to read.
        if kinds.isEmpty { throw .emptyExport(path: root) }
        for kind in kinds {
            for output in kind.outputs where Self.kind(of: output) != .regular {
                throw .incompleteExport(
                    path: output, detail: "missing (\(Self.lastComponent(kind.metadata)) lists it as an output file)")
            }
        }
    }

    // MARK: Finding the metadata

    /// The export's folder, its overall metadata, and the Firebase metadata when there is one.
    private static func locate(_ location: String) throws(StoreError) -> (String, String, String?) {
        switch kind(of: location) {
        case .regular:
            let folder = parentFolder(of: location)
            if lastComponent(location) == firebaseMetadataName { return try firebase(folder) }
            return (folder, location, nil)
        case .directory:
            let names = try names(in: location)
            if names.contains(firebaseMetadataName) { return try firebase(location) }
            return (location, try overall(in: location, names: names), nil)
        case .missing:
            throw .notFound(path: location)
        default:
            throw .unreadable(path: location, reason: "not a regular file or folder")
        }
    }

    /// The one overall metadata file in `folder`.
    private static func overall(in folder: String, names: [String]) throws(StoreError) -> String {
        let found = names.filter { $0.hasSuffix(overallSuffix) && $0.count > overallSuffix.count }.sorted()
        switch found.count {
        case 1:
            return joinPath(folder, found[0])
        case 0:
            throw .incompleteExport(
                path: folder, detail: "no NAME\(overallSuffix) file (the export's metadata) in the folder")
        default:
            throw .malformed(
                file: folder, location: "export folder",
                detail: "holds the metadata of \(found.count) exports (\(found.joined(separator: ", "))): "
                    + "name the file of the one to read")
        }
    }

    /// The Firestore part that `firebase-export-metadata.json` in `folder` names: its
    /// `firestore.metadata_file` (or `firestore.path`, or `firestore_export`).
    private static func firebase(_ folder: String) throws(StoreError) -> (String, String, String?) {
        let file = joinPath(folder, firebaseMetadataName)
        let bytes = try read(file, listedIn: nil)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(file: file, error: error)
        }
        guard case .object = json["firestore"] else {
            throw .incompleteExport(
                path: file, detail: "no \"firestore\" entry: the emulators were exported without Firestore's data")
        }
        if case .string(let relative)? = json["firestore"]?["metadata_file"] {
            guard ExportMetadata.isRelative(relative) else {
                throw .malformed(
                    file: file, location: "firestore.metadata_file", detail: "\"\(relative)\" is not inside the folder")
            }
            let overall = joinPath(folder, relative)
            return (parentFolder(of: overall), overall, file)
        }
        var part = "firestore_export"
        if case .string(let relative)? = json["firestore"]?["path"] {
            guard ExportMetadata.isRelative(relative) else {
                throw .malformed(
                    file: file, location: "firestore.path", detail: "\"\(relative)\" is not inside the folder")
            }
            part = relative
        }
        let root = joinPath(folder, part)
        guard kind(of: root) == .directory else {
            throw .incompleteExport(path: root, detail: "missing (\(firebaseMetadataName) names it)")
        }
        return (root, try overall(in: root, names: names(in: root)), file)
    }

    // MARK: Files

    /// The bytes of the metadata file `path`, which `listing` names (nil: it is the store).
    private static func read(_ path: String, listedIn listing: String?) throws(StoreError) -> [UInt8] {
        switch readWholeFile(path, regularOnly: true) {
        case .success(let bytes):
            return bytes
        case .failure(let error) where error.code == ENOENT:
            throw .incompleteExport(
                path: path, detail: "missing" + (listing.map { " (\(lastComponent($0)) lists it)" } ?? ""))
        case .failure(let error):
            throw .unreadable(path: path, reason: error.text)
        }
    }

    static func kind(of path: String) -> FileKind {
        var st = stat()
        return stat(path, &st) == 0 ? FileKind(mode: st.st_mode) : .missing
    }

    private static func names(in folder: String) throws(StoreError) -> [String] {
        guard let fd = FileDescriptor(open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            throw .unreadable(path: folder, reason: errnoText())
        }
        switch DirectoryListing.names(in: fd.raw, dotNames: false) {
        case .success(let names): return names
        case .failure(let error): throw .unreadable(path: folder, reason: error.text)
        }
    }

    static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.split(separator: "/").last.map(String.init) ?? String(trimmed)
    }

    static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
