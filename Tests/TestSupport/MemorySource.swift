import Store
import Support
import Synchronization

/// A document source that is no folder and no file: entries held in memory, each one
/// document with a stamp the test sets. What a new source (the database, an export folder)
/// must give the build and serve, and nothing more.
package final class MemorySource: DocumentSource {
    package let location: String
    package var layout: EntryLayout { .documentPerEntry }
    private let entries: Mutex<[String: (stamp: FileStamp, document: Document)]>
    /// How many times each entry's document was read.
    private let reads = Mutex<[String: Int]>([:])

    /// `documents`, each an entry named by its path (`tweets/t1`), all stamped at `time`.
    package init(_ documents: [Document], location: String = "memory://test", time: Int64 = 1) {
        self.location = location
        var table: [String: (stamp: FileStamp, document: Document)] = [:]
        for document in documents {
            let entry = document.path.description
            var document = document
            document.source = entry
            table[entry] = (FileStamp(size: 0, modified: time, changed: time, inode: 0), document)
        }
        entries = Mutex(table)
    }

    /// Puts `document` in its entry (new or replaced), stamped at `time`.
    package func put(_ document: Document, time: Int64) {
        var document = document
        document.source = document.path.description
        entries.withLock {
            $0[document.path.description] = (FileStamp(size: 0, modified: time, changed: time, inode: 0), document)
        }
    }

    /// How many entries were read since the last call.
    package func takeReadCount() -> Int {
        reads.withLock { reads in
            defer { reads = [:] }
            return reads.values.reduce(0, +)
        }
    }

    package func checkShape() throws(StoreError) {}

    package func stamp(recording: Bool) throws(StoreError) -> StoreStamp {
        entries.withLock { entries in
            var digest: UInt64 = 0
            for (entry, value) in entries {
                var h = StableHasher()
                h.combine(entry)
                h.combine(Int(truncatingIfNeeded: value.stamp.modified))
                digest ^= UInt64(bitPattern: Int64(h.finalize()))
            }
            return StoreStamp(
                digest: digest, newest: entries.values.map(\.stamp.newest).max() ?? 0, entries: entries.count)
        }
    }

    package func stamp(ofEntry entry: String) -> FileStamp? { entries.withLock { $0[entry]?.stamp } }

    package func entries(inFolder folder: String) throws(StoreError)
        -> (entries: [String], layout: FolderLayouts.Folder)?
    { nil }

    package func documents(inEntry entry: String) throws(StoreError) -> [Document]? {
        reads.withLock { $0[entry, default: 0] += 1 }
        return entries.withLock { $0[entry].map { [$0.document] } }
    }

    package func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T> {
        let all = entries.withLock { $0.sorted { $0.key < $1.key } }
        var values: [T] = []
        for (entry, value) in all {
            if let reused = reusing?(entry, value.stamp) {
                values.append(reused)
                continue
            }
            reads.withLock { $0[entry, default: 0] += 1 }
            values.append(transform(value.document, value.stamp))
        }
        return SourceRead(values: values, missingParents: [], ignored: [], folders: nil, format: .restDocumentArray)
    }

    package func readStore() throws(StoreError) -> DocumentStore {
        let documents = entries.withLock { $0.values.map(\.document) }.sorted { $0.path < $1.path }
        return DocumentStore(documents: documents, format: .restDocumentArray, path: location)
    }

    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing {
        throw .cannotFollow(path: location, reason: "a memory source is not followed")
    }
}
