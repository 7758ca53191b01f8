import Dispatch
import Model
import Store
import Support
import Synchronization

/// The snapshot a build derived from a directory store, kept for the next one
/// (docs/architecture.md, "The build cache"). A rebuild that finds only tweets' content
/// changed takes it, updates those tweets as `roost serve` does
/// (`Snapshot.replacingContent`), and neither decodes the other documents nor derives again.
///
/// One `CacheFile` per store, `snapshot-<hash of its real path>.cache`, beside the document
/// cache; its header names the Roost binary and the store. Its `Basis` says which documents
/// it was derived from: the snapshot is used only with that document cache, and any file not
/// as the basis saw it is read again and checked (a torn, foreign or hand-edited file fails
/// its checksum or header, and is no cache).
struct SnapshotCache: Sendable {
    static let format = "snapshot 2"

    /// What a snapshot was derived from.
    struct Basis: Sendable {
        /// The document cache (`DocumentCache.checksum`) its documents came from…
        let documents: UInt64
        /// …but for these files, read instead (not in it, or changed since): path hash (as
        /// `StoreFileStamps` knows files) → stamp as read. A file whose stamp was too recent
        /// to trust has `DocumentCache.unsettled`, which matches nothing.
        let read: [UInt64: FileStamp]
        /// The store's folders and the names in them (`FolderLayouts.digest`).
        let folders: UInt64

        /// Which basis this is, for what is kept with the snapshot it gave (`SearchCache`).
        var digest: UInt64 {
            var h = StableHasher()
            h.combine(documents)
            h.combine(folders)
            for (hash, stamp) in read.sorted(by: { $0.key < $1.key }) {
                h.combine(hash)
                h.combine(Int(stamp.size))
                h.combine(Int(stamp.modified))
                h.combine(Int(stamp.changed))
                h.combine(stamp.inode)
            }
            return UInt64(bitPattern: Int64(h.finalize()))
        }
    }

    /// Every file of the store as the walk before the snapshot's derivation saw it (the
    /// digest of its folders, then each file in walk order: `StoreStamp.seen`), when that walk
    /// saw the folders the read found: a later walk that sees the same folders finds the files
    /// that moved since by their places, without the document cache (`CachedStoreRead`).
    struct Walk: Sendable {
        /// `FolderLayouts.digest` of the walk's folders.
        let folders: UInt64
        let files: [UInt64]
    }

    let basis: Basis
    let walk: Walk?
    /// The file, and where the snapshot starts in it: decoded only when asked for (`snapshot()`),
    /// once the basis is found to fit, unless it was opened `decoding` it.
    private let file: CacheFile
    private let start: Int
    /// The snapshot, when it was decoded as the file was opened (nil: not asked, or it does not decode).
    private let decoded: Snapshot?

    /// Where the snapshot of the store `identity` lives in `folder`.
    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "snapshot")
    }

    private static func header(identity: StoreIdentity) -> [String] {
        [format, CacheFile.writer, identity.path, identity.kind]
    }

    /// The cache at `path` (its basis read) if the file is whole and was written by this
    /// binary for `identity`; with `decoding`, its snapshot decoded too (as `CachePrefetch`
    /// opens it, on a thread of its own beside the document cache's).
    static func open(path: String, identity: StoreIdentity, decoding: Bool = false) -> SnapshotCache? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do {
            let documents = try reader.uint64()
            let folders = try reader.uint64()
            var read: [UInt64: FileStamp] = [:]
            for _ in 0..<(try reader.length()) {
                read[try reader.uint64()] = try reader.fileStamp()
            }
            var walk: Walk?
            if try reader.byte() == 1 {
                let folders = try reader.uint64()
                let count = try reader.length()
                var files: [UInt64] = []
                files.reserveCapacity(count)
                for _ in 0..<count { files.append(try reader.uint64()) }
                walk = Walk(folders: folders, files: files)
            }
            let start = reader.offset
            return SnapshotCache(
                basis: Basis(documents: documents, read: read, folders: folders), walk: walk, file: file,
                start: start, decoded: decoding ? decode(file, from: start) : nil)
        } catch {
            return nil
        }
    }

    /// This cache with its snapshot decoded now (for `snapshot()` to hand over).
    consuming func decoding() -> SnapshotCache {
        let decoded = decoded ?? Self.decode(file, from: start)
        return SnapshotCache(basis: basis, walk: walk, file: file, start: start, decoded: decoded)
    }

    /// The positions (in walk order) of the store's files not as the snapshot's derivation
    /// saw them, by `files`, this walk's, of the folders `folders`: nil when the snapshot
    /// kept no walk, or one of other folders or another number of files.
    func moved(since files: StoreFileStamps, folders: FolderLayouts) -> [Int]? {
        guard let walk, walk.folders == folders.digest else { return nil }
        return files.moved(since: walk.files)
    }

    /// The snapshot, decoded; nil if it does not decode. The cache is given up for it, so that
    /// the snapshot is its caller's alone (and changed in place, not copied).
    consuming func snapshot() -> Snapshot? { decoded ?? Self.decode(file, from: start) }

    /// The snapshot that starts at `start` in `file`, decoded; nil if it does not decode.
    private static func decode(_ file: CacheFile, from start: Int) -> Snapshot? {
        var reader = file.reader(from: start)
        guard let snapshot = try? Snapshot(from: &reader), reader.isAtEnd else { return nil }
        return snapshot
    }

    /// Writes `snapshot`, derived from `basis`, at `path` (over the last one, whole or not at all).
    static func write(
        path: String, identity: StoreIdentity, basis: Basis, walk: Walk?, snapshot: Snapshot
    ) throws(BuildError) {
        try write(path: path, identity: identity, basis: basis, walk: walk) { writer throws(BuildError) in
            try snapshot.encode { (part: (inout ByteWriter) -> Void) throws(BuildError) in try writer.append(part) }
        }
    }

    /// The write of this cache again with `walk` in place of its own: its basis and its
    /// snapshot's bytes as they are (the snapshot is not decoded for it). Made now, while the
    /// cache is at hand; run by the caller, once the snapshot is known to serve.
    func writingWalk(_ walk: Walk, path: String, identity: StoreIdentity) -> @Sendable () throws(BuildError) -> Void {
        let (file, start, basis) = (file, start, basis)
        return { () throws(BuildError) in
            try Self.write(path: path, identity: identity, basis: basis, walk: walk) { writer throws(BuildError) in
                let bytes = UnsafeRawBufferPointer(rebasing: file.mapping[start..<file.body.upperBound])
                for part in stride(from: 0, to: bytes.count, by: CacheFileWriter.bufferSize) {
                    let end = min(bytes.count, part + CacheFileWriter.bufferSize)
                    try writer.append { $0.append(UnsafeRawBufferPointer(rebasing: bytes[part..<end])) }
                }
            }
        }
    }

    /// Writes the file at `path`: the basis and walk, then the snapshot's bytes from `snapshot`.
    private static func write(
        path: String, identity: StoreIdentity, basis: Basis, walk: Walk?,
        snapshot: (CacheFileWriter) throws(BuildError) -> Void
    ) throws(BuildError) {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { writer throws(BuildError) in
            try writer.append { out in
                out.append(basis.documents)
                out.append(basis.folders)
                out.append(length: basis.read.count)
                // In hash order: the same basis, the same bytes.
                for (hash, stamp) in basis.read.sorted(by: { $0.key < $1.key }) {
                    out.append(hash)
                    out.append(stamp)
                }
                out.append(UInt8(walk == nil ? 0 : 1))
                if let walk {
                    out.append(walk.folders)
                    out.append(length: walk.files.count)
                    for file in walk.files { out.append(file) }
                }
            }
            try snapshot(writer)
        }
    }
}

/// A cache file written on another thread while the build goes on (the snapshot: at 100,000
/// tweets, a tenth of a second the rest of the build need not wait for).
final class CacheWrite: Sendable {
    private let done = DispatchGroup()
    private let problem = Mutex<String?>(nil)

    init(_ write: @escaping @Sendable () throws(BuildError) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [self] in
            do throws(BuildError) {
                try write()
            } catch {
                problem.withLock { $0 = error.description }
            }
        }
    }

    /// Waits for the write to end; why it failed, if it did.
    func finish() -> String? {
        done.wait()
        return problem.withLock { $0 }
    }
}

extension SnapshotCache {
    /// `write`, on another thread.
    static func writeInBackground(
        path: String, identity: StoreIdentity, basis: Basis, walk: Walk?, snapshot: Snapshot
    ) -> CacheWrite {
        CacheWrite { () throws(BuildError) in
            try write(path: path, identity: identity, basis: basis, walk: walk, snapshot: snapshot)
        }
    }
}
