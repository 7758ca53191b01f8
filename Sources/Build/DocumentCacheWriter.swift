import Model
import Store
import Support
import Synchronization

/// Writes a `DocumentCache`: a header, then each entry (file, stamp, encoded documents, each
/// entry after a 1 byte), a 0 byte, each folder's layout if the entries are all the store's
/// document files, and where each part of `DocumentCache.partEntries` entries starts (so
/// that a reader parses the parts on all cores), through a `CacheFileWriter`. Entries may be
/// added from several threads, in any order (a first build writes each file's entry as it
/// reads it, so that no file's path and stamp need be kept until the end).
final class DocumentCacheWriter: Sendable {
    private struct State {
        var file: CacheFileWriter?
        var entries = 0
        /// Where each part starts in the file.
        var parts: [Int] = []
    }

    private let state: Mutex<State>

    /// Starts the cache of `identity` at `path`, made by `writer`.
    init(path: String, identity: StoreIdentity, writer: String) throws(BuildError) {
        state = Mutex(
            State(
                file: try CacheFileWriter(path: path, header: DocumentCache.header(identity: identity, writer: writer)))
        )
    }

    /// One file's entry, its documents encoded now.
    func add(file name: String, stamp: FileStamp, documents: [DecodedDocument]) throws(BuildError) {
        var encoded = ByteWriter()
        encoded.append(length: documents.count)
        for document in documents { document.encode(into: &encoded) }
        try add(file: name, stamp: stamp, body: encoded.bytes)
    }

    /// One file's entry, its documents as a cache stored them.
    func add(file name: String, stamp: FileStamp, encoded: UnsafeRawBufferPointer) throws(BuildError) {
        try add(file: name, stamp: stamp, body: encoded)
    }

    private func add(file name: String, stamp: FileStamp, body: some Collection<UInt8>) throws(BuildError) {
        try state.withLock { (state: inout State) throws(BuildError) -> Void in
            guard let file = state.file else { throw .cache("the build cache was given up") }
            if state.entries % DocumentCache.partEntries == 0 { state.parts.append(file.offset) }
            state.entries += 1
            try file.append { out in
                out.append(UInt8(1))
                out.append(name)
                // Its hash, which every rebuild looks entries up by: read, not computed again.
                out.append(StableHash.fnv1a(name))
                out.append(stamp)
                out.append(length: body.count)
                out.append(body)
            }
        }
    }

    /// Ends the entries, records `folders` (each folder's layout, when the entries are all
    /// the store's document files), writes the checksum and renames the cache into place;
    /// returns the checksum (`DocumentCache.checksum`).
    @discardableResult
    func finish(folders: FolderLayouts?) throws(BuildError) -> UInt64 {
        try state.withLock { (state: inout State) throws(BuildError) -> UInt64 in
            guard let writer = state.file else { throw .cache("the build cache was given up") }
            state.file = nil
            let parts = state.parts
            try writer.append { out in
                out.append(UInt8(0))
                out.append(UInt64(folders == nil ? 0 : 1))
                if let folders {
                    out.append(length: folders.folders.count)
                    for folder in folders.folders {
                        out.append(folder.pathHash)
                        out.append(folder.layout)
                    }
                }
            }
            // Last, the parts' starts, then where they are: found from the end.
            let table = writer.offset
            try writer.append { out in
                out.append(length: parts.count)
                for start in parts { out.append(UInt64(start)) }
                out.append(UInt64(table))
            }
            return try writer.finish()
        }
    }

    /// Gives up: the old cache, if any, stays.
    func abandon() {
        state.withLock { state in
            state.file?.abandon()
            state.file = nil
        }
    }
}
