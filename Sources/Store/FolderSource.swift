import Foundation
import Watch

/// A directory store (SPEC 2.1) as a document source: each document file is an entry, named
/// by its path relative to the folder (`tweets/t1.json`) and stamped by its metadata.
package struct FolderSource: DocumentSource {
    package let location: String
    package var layout: EntryLayout { .documentPerEntry }

    /// The folder at `root`, as named.
    package init(root: String) { location = root }

    package func checkShape() throws(StoreError) { try StoreShape.check(location) }

    package func stamp(recording: Bool) throws(StoreError) -> StoreStamp {
        try StoreStamp.of(location, recordingFiles: recording)
    }

    package func stamp(recording: Bool, listings: (known: FolderListings?, settledBefore: Int64)) throws(StoreError)
        -> StoreStamp
    {
        try StoreStamp.of(location, recordingFiles: recording, listings: listings)
    }

    package func stamp(ofEntry entry: String) -> FileStamp? { FileStamp.of(joinPath(location, entry)) }

    package func entries(inFolder folder: String) throws(StoreError)
        -> (entries: [String], layout: FolderLayouts.Folder)?
    {
        try DirectoryStore.documentFiles(inFolder: folder, root: location).map { ($0.files, $0.folder) }
    }

    package func documents(inEntry entry: String) throws(StoreError) -> [Document]? {
        do {
            return try DirectoryStore.readDocument(file: entry, root: location).map { [$0] }
        } catch .notFound(_) {
            return nil
        }
    }

    package func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T> {
        let read: (values: [T], missingParents: [DocumentPath], ignored: [StoreNote], folders: FolderLayouts?)
        if let reusing {
            read = try DirectoryStore.read(
                root: location, stamps: stamps, ordered: false, reusing: reusing, transform: transform)
        } else {
            let plain = try DirectoryStore.read(
                root: location, ordered: false, transform: { document in transform(document, nil) })
            read = (plain.values, plain.missingParents, plain.ignored, nil)
        }
        return SourceRead(
            values: read.values, missingParents: read.missingParents, ignored: read.ignored, folders: read.folders,
            format: .directory)
    }

    package func readStore() throws(StoreError) -> DocumentStore { try DirectoryStore.read(root: location) }

    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing {
        let root = location
        return try WatchedFiles(
            location: location, debounce: debounce, meaning: { Self.meaning(of: $0, root: root) }, onChange: onChange)
    }

    /// What a file the watcher saw change means: a document file's entry; a folder created
    /// or removed (a removed one may be an editor's temporary file: the reader checks
    /// whether documents were under it); nothing for other files.
    static func meaning(of change: FileWatcher.Change, root: String) -> SourceChange? {
        let kind = SourceChange.Kind(change.kind)
        if change.path.hasSuffix(".json"), let path = DirectoryStore.documentPath(forRelativeFile: change.path) {
            return SourceChange(.document(path, entry: change.path), kind)
        }
        if change.path.isEmpty { return SourceChange(.store, kind) }
        if change.kind == .deleted { return SourceChange(.folder(change.path), kind) }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: joinPath(root, change.path), isDirectory: &isDirectory)
        return exists && isDirectory.boolValue ? SourceChange(.folder(change.path), kind) : nil
    }
}

extension SourceChange.Kind {
    package init(_ kind: FileWatcher.Change.Kind) {
        switch kind {
        case .created: self = .created
        case .modified: self = .modified
        case .deleted: self = .deleted
        }
    }
}
