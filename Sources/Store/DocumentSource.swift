/// Where a store's documents come from: a folder of files (`FolderSource`), an export file
/// (`ExportFileSource`); next, the database and its export folders. Everything that reads a
/// store (the build and its cache, `roost serve`, `check`, `import`) reads it through this.
///
/// A source keeps its documents in entries, each with a stamp that moves when the entry
/// changes: a folder's document files and their `stat`; the export file itself. The build
/// cache keeps one record an entry, so that an entry whose stamp it knows is not read again.
package protocol DocumentSource: Sendable {
    /// The store as it was named (`content`, `export.json`), for messages and the build
    /// cache's identity.
    var location: String { get }
    /// How documents are kept in entries.
    var layout: EntryLayout { get }

    // MARK: What is there, with its stamps

    /// Fails, saying what is there instead, unless the location holds a store (SPEC 13).
    func checkShape() throws(StoreError)
    /// What the store looks like from its entries' stamps alone; with `recording`, each
    /// entry's stamp and each folder's layout are kept too, for a read that follows.
    func stamp(recording: Bool) throws(StoreError) -> StoreStamp
    /// `stamp(recording:)`, taking folders' names from `listings.known` where a folder has not
    /// moved, and keeping the listings of the folders settled before `listings.settledBefore`
    /// (`StoreStamp.of`); a source without folders to list ignores `listings`.
    func stamp(recording: Bool, listings: (known: FolderListings?, settledBefore: Int64)) throws(StoreError)
        -> StoreStamp
    /// One entry's stamp as it is now; nil when it is not there.
    func stamp(ofEntry entry: String) -> FileStamp?
    /// The entries directly in `folder` as they are now, and the folder's layout, so that a
    /// rebuild lists again only folders that moved; nil when the source has no such folder to
    /// list alone (the store is then read whole).
    func entries(inFolder folder: String) throws(StoreError) -> (entries: [String], layout: FolderLayouts.Folder)?

    // MARK: Reading documents

    /// The documents of `entry` as it is now; nil when it holds none (gone, or not a
    /// document's entry).
    func documents(inEntry entry: String) throws(StoreError) -> [Document]?
    /// Every document, each turned into a `T` on the thread that read it, in no particular
    /// order. `reusing`, when given, is asked first for each entry of one document with its
    /// stamp (from `stamps` when they have it), and the entry is read only when it gives
    /// nothing; `transform` gets that stamp. When entries cannot be read, the error is the
    /// first in path order.
    func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (_ entry: String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T>
    /// Every document turned into a `T`, handed to `take` in batches as they are read, so
    /// that a large store's are never all held at once; `restart`: the values taken so far
    /// are to be dropped (the source reads again from the start). Returns the store's format.
    func read<T>(
        transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat
    /// All documents, sorted by path, with what was skipped (`roost import`, tests).
    func readStore() throws(StoreError) -> DocumentStore

    // MARK: Changes

    /// Follows the store's changes as they happen (`roost serve`): `onChange` gets each
    /// batch, on a thread of the source's, until `stop()`. Changes made once this returns
    /// are seen.
    func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing
}

/// How a source keeps documents in entries: what one record of the build cache holds.
package enum EntryLayout: Sendable {
    /// One document an entry, in folders: a directory store's files.
    case documentPerEntry
    /// One entry, `""`, holds every document: an export file.
    case oneEntry
}

/// A source whose one entry, `""`, holds every document (an export file, an export folder,
/// the database): it has no folders to list alone, and its entry is read whole.
package protocol WholeStoreSource: DocumentSource {}

extension WholeStoreSource {
    package var layout: EntryLayout { .oneEntry }

    package func entries(inFolder folder: String) throws(StoreError)
        -> (entries: [String], layout: FolderLayouts.Folder)?
    { nil }

    package func documents(inEntry entry: String) throws(StoreError) -> [Document]? {
        guard entry.isEmpty else { return nil }
        do {
            return try readStore().documents
        } catch .notFound(_) {
            return nil
        }
    }
}

/// What a read of every document found.
package struct SourceRead<T> {
    package var values: [T]
    /// Document paths that have subcollections but no document of their own, sorted.
    package var missingParents: [DocumentPath]
    /// What was skipped, and why (see `DocumentStore.ignored`).
    package var ignored: [StoreNote]
    /// Each folder's layout as it was listed (nil: the source has no folders, or two
    /// folders' paths share a hash).
    package var folders: FolderLayouts?
    package var format: StoreFormat

    package init(
        values: [T], missingParents: [DocumentPath], ignored: [StoreNote], folders: FolderLayouts?,
        format: StoreFormat
    ) {
        self.values = values
        self.missingParents = missingParents
        self.ignored = ignored
        self.folders = folders
        self.format = format
    }
}

/// A source's changes being followed: `stop()` ends them (no batch is reported after it returns).
package protocol ChangeFollowing: Sendable {
    func stop()
}

extension DocumentSource {
    package func stamp(recording: Bool, listings: (known: FolderListings?, settledBefore: Int64)) throws(StoreError)
        -> StoreStamp
    {
        try stamp(recording: recording)
    }

    /// Every document, for a source whose reads do not stream: one batch.
    package func read<T>(
        transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        let read = try read(stamps: nil, reusing: nil, transform: { document, _ in transform(document) })
        let (values, format) = (read.values, read.format)
        _ = consume read
        take(consume values)
        return format
    }

    /// What the build cache's records of this source are called (`"directory"`, `"file"`):
    /// part of its identity, so that one never reads the other's.
    package var entryKind: String {
        switch layout {
        case .documentPerEntry: "directory"
        case .oneEntry: "file"
        }
    }
}
