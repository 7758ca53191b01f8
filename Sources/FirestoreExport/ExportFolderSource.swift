import Store
import Support
import Watch

/// An export folder (SPEC 12: what `gcloud firestore export`, the emulator's export and
/// `firebase emulators:export` write) as a document source. Like an export file it is one
/// entry holding every document, stamped by its files' metadata (the overall and kinds'
/// metadata and every output file): any change to them is the whole store's.
package struct ExportFolderSource: WholeStoreSource {
    package let location: String

    /// The export at `folder`: the folder that holds `NAME.overall_export_metadata` or
    /// `firebase-export-metadata.json`, or that file itself, as named.
    package init(folder: String) { location = folder }

    /// True when `path` names an export folder (or its metadata file): recognised from the
    /// metadata's file name, before anything is read.
    package static func recognises(_ path: String) -> Bool { ExportLayout.recognises(path) }

    /// The metadata is read and every file it lists is there.
    package func checkShape() throws(StoreError) { try ExportLayout.find(at: location).checkOutputsExist() }

    package func stamp(recording: Bool) throws(StoreError) -> StoreStamp {
        let stamps = try fileStamps()
        let newest = stamps.map { $0.1?.newest ?? 0 }.max() ?? 0
        return StoreStamp(digest: Self.digest(of: stamps), newest: newest, entries: stamps.count)
    }

    /// The one entry's stamp: the files' sizes added up, their newest times, and a digest of
    /// them all in place of an inode; nil when a file is missing.
    package func stamp(ofEntry entry: String) -> FileStamp? {
        guard entry.isEmpty, let stamps = try? fileStamps() else { return nil }
        var total = FileStamp(size: 0, modified: 0, changed: 0, inode: Self.digest(of: stamps))
        for (_, stamp) in stamps {
            guard let stamp else { return nil }
            total.size += stamp.size
            total.modified = max(total.modified, stamp.modified)
            total.changed = max(total.changed, stamp.changed)
        }
        return total
    }

    private static func digest(of stamps: [(String, FileStamp?)]) -> UInt64 {
        var hasher = StableHasher()
        for (file, stamp) in stamps {
            hasher.combine(file)
            for field in stamp.map({ [$0.size, $0.modified, $0.changed, Int64(bitPattern: $0.inode)] }) ?? [-1] {
                hasher.combine(Int(truncatingIfNeeded: field))
            }
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Each of the export's files with its stamp (nil when it is missing).
    private func fileStamps() throws(StoreError) -> [(String, FileStamp?)] {
        try ExportLayout.find(at: location).files.map { ($0, FileStamp.of($0)) }
    }

    /// `reusing` is not asked: the one entry holds every document. A store with documents in
    /// none of Roost's collections is refused (SPEC 13).
    package func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T> {
        let read = try readAll { transform($0, nil) }
        if let problem = StoreShape.roostProblem(store: location, collections: Set(read.paths.map { $0.segments[0] })) {
            throw problem
        }
        return SourceRead(
            values: read.values, missingParents: read.missingParents, ignored: [], folders: nil, format: .exportFolder)
    }

    /// The documents an output file at a time, as they are decoded (SPEC 13 as above).
    package func read<T>(
        transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        let seen = TopCollections()
        try ExportReader.read(
            ExportLayout.find(at: location),
            transform: { document in
                seen.add(document.path)
                return transform(document)
            }, take: take)
        try seen.check(store: location)
        return .exportFolder
    }

    /// Every document, whatever its collections (`roost import` warns about those).
    package func readStore() throws(StoreError) -> DocumentStore {
        let read = try readAll { $0 }
        return DocumentStore(
            documents: read.values, format: .exportFolder, path: location, missingParents: read.missingParents)
    }

    /// Every document made a `T`, in path order, with the paths and the missing parents.
    private func readAll<T>(_ transform: @escaping @Sendable (Document) -> T) throws(StoreError)
        -> (values: [T], paths: [DocumentPath], missingParents: [DocumentPath])
    {
        var values: [T] = []
        var paths: [DocumentPath] = []
        try ExportReader.read(
            ExportLayout.find(at: location), transform: { document in (document.path, transform(document)) },
            take: { batch in
                for (path, value) in batch {
                    paths.append(path)
                    values.append(value)
                }
            })
        let missingParents = DocumentStore.arrange(&values, paths: &paths)
        return (values, paths, missingParents)
    }

    /// A change to any of the export's files is the whole store's; other files beside them
    /// (a Firebase export's other emulators, say) are left out.
    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing {
        let exportLayout = try ExportLayout.find(at: location)
        let watched = exportLayout.firebaseMetadata.map(ExportLayout.parentFolder) ?? exportLayout.root
        let part = exportLayout.firebaseMetadata == nil ? nil : relative(exportLayout.root, to: watched)
        return try WatchedFiles(
            location: watched, debounce: debounce,
            meaning: { change in
                Self.concerns(change.path, firestorePart: part)
                    ? SourceChange(.store, SourceChange.Kind(change.kind)) : nil
            },
            onChange: onChange)
    }

    /// True when a change at `path` (relative to the watched folder) is to the export: in a
    /// Firebase export, to its metadata or its Firestore part.
    static func concerns(_ path: String, firestorePart: String?) -> Bool {
        guard let part = firestorePart else { return true }
        return path.isEmpty || path == ExportLayout.firebaseMetadataName || path == part || path.hasPrefix(part + "/")
    }

    /// `path` relative to `folder` it is inside of.
    private func relative(_ path: String, to folder: String) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
