import Store
import Support

extension Snapshot {
    /// What was read, besides the snapshot: for reports.
    package struct Source: Sendable {
        package let format: StoreFormat
        package let documentCount: Int
    }

    /// Reads the store at `path` and derives its snapshot. Each document is decoded as soon as
    /// it is read and dropped; a single file's documents are sorted by kind a batch at a time
    /// as it is parsed (see `SingleFileStore`), so neither a large store nor all its decoded
    /// documents are ever held whole.
    /// The steps of `read`, each reported as it ends (for timings).
    package enum ReadStep: String, Sendable {
        case readAndDecode = "read and decode store"
        case derive
    }

    /// `phases` is told when each step ends, for timings.
    package static func read(at path: String, phases: (ReadStep) -> Void = { _ in }) throws(StoreError) -> (
        Snapshot, Source
    ) {
        var found: DocumentsByKind
        let format: StoreFormat
        if DocumentStore.isDirectoryStore(path) {
            try StoreShape.check(path)
            found = DocumentsByKind(
                sorting: try DirectoryStore.read(root: path, ordered: false, transform: DecodedDocument.init).values)
            format = .directory
        } else {
            found = DocumentsByKind()
            format = try DocumentStore.readSingleFile(
                at: path, transform: DecodedDocument.init, take: { found.add($0) },
                restart: { found = DocumentsByKind() })
        }
        let source = Source(format: format, documentCount: found.documentCount)
        phases(.readAndDecode)
        let snapshot = Snapshot(sorted: consume found)
        phases(.derive)
        return (snapshot, source)
    }
}

extension DecodedDocument {
    /// Every document of the single-file store at `path`, decoded as it is parsed.
    package static func read(singleFile path: String) throws(StoreError) -> (StoreFormat, [DecodedDocument]) {
        let (format, decoded, _) = try DocumentStore.readSingleFile(at: path, transform: DecodedDocument.init)
        return (format, decoded)
    }
}
