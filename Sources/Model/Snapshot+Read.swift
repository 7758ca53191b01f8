import Store
import Support

extension Snapshot {
    /// What was read, besides the snapshot: for reports.
    public struct Source: Sendable {
        public let format: StoreFormat
        public let documentCount: Int
    }

    /// Reads the store at `path` and derives its snapshot. Each document of a directory store
    /// is decoded as soon as it is read and dropped, so a large store is never held twice.
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
        let snapshot = Snapshot(decoded: decoded)
        decoded = []
        phases("derive")
        return (snapshot, source)
    }
}

extension DecodedDocument {
    /// Every document of the single-file store at `path`, decoded.
    public static func read(singleFile path: String) throws(StoreError) -> (StoreFormat, [DecodedDocument]) {
        let store = try DocumentStore.read(at: path)  // one JSON tree: parsed whole anyway
        return (store.format, store.documents.parallelMap(DecodedDocument.init))
    }
}
