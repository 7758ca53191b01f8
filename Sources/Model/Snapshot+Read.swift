import Store

extension Snapshot {
    /// What was read, besides the snapshot: for reports.
    public struct Source: Sendable {
        public let format: StoreFormat
        public let documentCount: Int
    }

    /// Reads the store at `path` and derives its snapshot. The documents are decoded and
    /// dropped before the derivation, so a large store is never held twice.
    /// `phases` is told when each step ends ("read", "decode", "derive"), for timings.
    public static func read(at path: String, phases: (String) -> Void = { _ in }) throws(StoreError) -> (Snapshot, Source) {
        var decoded: [DecodedDocument]
        let source: Source
        do {
            let store = try DocumentStore.read(at: path)
            phases("read store")
            source = Source(format: store.format, documentCount: store.documents.count)
            decoded = store.documents.parallelMap(DecodedDocument.init)
        }
        phases("decode documents")
        let snapshot = Snapshot(decoded: decoded)
        decoded = []
        phases("derive")
        return (snapshot, source)
    }
}
