import Store
import Support

extension Snapshot {
    /// What was read, besides the snapshot: for reports.
    public struct Source: Sendable {
        public let format: StoreFormat
        public let documentCount: Int
    }

    /// Reads the store at `path` and derives its snapshot. Each document is decoded as soon as
    /// it is read and dropped (a single file as it is parsed, see `SingleFileStore`), so a
    /// large store is never held twice.
    /// `phases` is told when each step ends ("read and decode store", "derive"), for timings.
    public static func read(at path: String, phases: (String) -> Void = { _ in }) throws(StoreError) -> (
        Snapshot, Source
    ) {
        var decoded: [DecodedDocument]
        let format: StoreFormat
        if DocumentStore.isDirectoryStore(path) {
            try StoreShape.check(path)
            decoded = try DirectoryStore.read(root: path, transform: DecodedDocument.init).values
            format = .directory
        } else {
            (format, decoded) = try DecodedDocument.read(singleFile: path)
        }
        let source = Source(format: format, documentCount: decoded.count)
        phases("read and decode store")
        let snapshot = Snapshot(decoded: consume decoded)
        phases("derive")
        return (snapshot, source)
    }
}

extension DecodedDocument {
    /// Every document of the single-file store at `path`, decoded as it is parsed.
    public static func read(singleFile path: String) throws(StoreError) -> (StoreFormat, [DecodedDocument]) {
        let (format, decoded, _) = try DocumentStore.readSingleFile(at: path, transform: DecodedDocument.init)
        return (format, decoded)
    }
}
