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
        try read(from: DocumentStore.source(at: path), phases: phases)
    }

    /// Reads `source` and derives its snapshot (see `read(at:)`).
    package static func read(from source: any DocumentSource, phases: (ReadStep) -> Void = { _ in }) throws(StoreError)
        -> (Snapshot, Source)
    {
        try source.checkShape()
        var found = DocumentsByKind()
        let format = try source.read(
            transform: DecodedDocument.init, take: { found.add($0) }, restart: { found = DocumentsByKind() })
        let read = Source(format: format, documentCount: found.documentCount)
        phases(.readAndDecode)
        let snapshot = Snapshot(sorted: consume found)
        phases(.derive)
        return (snapshot, read)
    }
}
