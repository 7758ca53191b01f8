import Watch

/// A single-file store (SPEC 2.2: an export file in one of the formats `SingleFileStore`
/// recognises) as a document source: one entry, the file itself, holds every document.
package struct ExportFileSource: WholeStoreSource {
    package let location: String

    /// The export file at `file`, as named.
    package init(file: String) { location = file }

    /// A file is checked by its format when it is read.
    package func checkShape() throws(StoreError) {}

    package func stamp(recording: Bool) throws(StoreError) -> StoreStamp {
        try StoreStamp.of(location, recordingFiles: recording)
    }

    package func stamp(ofEntry entry: String) -> FileStamp? { entry.isEmpty ? FileStamp.of(location) : nil }

    /// `reusing` is not asked: the one entry holds many documents (a cache takes them all
    /// from its stamp, `stamp(ofEntry: "")`, before reading).
    package func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T> {
        let seen = TopCollections()
        let read = try DocumentStore.readSingleFile(
            at: location,
            transform: {
                seen.add($0.path)
                return transform($0, nil)
            })
        try seen.check(store: location)
        return SourceRead(
            values: read.values, missingParents: read.missingParents, ignored: [], folders: nil, format: read.format)
    }

    package func read<T>(
        transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        let seen = TopCollections()
        let format = try DocumentStore.readSingleFile(
            at: location,
            transform: {
                seen.add($0.path)
                return transform($0)
            }, take: take, restart: restart)
        try seen.check(store: location)
        return format
    }

    package func readStore() throws(StoreError) -> DocumentStore {
        try DocumentStore.checkRegularFile(location)
        return try SingleFileStore.read(file: location)
    }

    /// Any change to the file is the whole store's.
    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing {
        try WatchedFiles(
            location: location, debounce: debounce, meaning: { SourceChange(.store, SourceChange.Kind($0.kind)) },
            onChange: onChange)
    }
}
