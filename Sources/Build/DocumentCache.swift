import Model
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// The build cache (docs/cache.md): every store file's decoded documents, in binary, keyed by
/// the file's path and stamp. A rebuild reads and decodes only the files whose stamp moved.
///
/// One file per store, `store-<hash of its real path>.cache` in the cache folder:
///
///     magic, format, writer (Roost's version and binary), store (real path and kind),
///     entry count, entries (file, stamp, encoded document), checksum of all before it
///
/// It is never trusted blindly: a file from another Roost binary or another store, cut short
/// (a build killed while writing it: it is written beside and renamed into place, so that
/// would take a crash of the machine), or edited by hand (the checksum) is ignored whole,
/// and the store is read as if there were no cache.
final class DocumentCache: @unchecked Sendable {  // immutable once loaded; `mapping` is only read
    static let magic = Array("ROOST-DOCUMENT-CACHE\n".utf8)
    static let format: UInt64 = 1

    /// One file's documents in the cache.
    struct Entry {
        var stamp: FileStamp
        /// The encoded documents, within `mapping`.
        var documents: Range<Int>
        /// The file, within `mapping`.
        var file: Range<Int>
    }

    private let mapping: UnsafeRawBufferPointer
    private let entries: [Entry]
    /// FNV-1a of the file path → entry index (a path whose hash is taken by another misses).
    private let index: [UInt64: Int32]

    var count: Int { entries.count }

    private init(mapping: UnsafeRawBufferPointer, entries: [Entry]) {
        self.mapping = mapping
        self.entries = entries
        var index: [UInt64: Int32] = [:]
        index.reserveCapacity(entries.count)
        for (k, entry) in entries.enumerated() {
            let hash = StableHash.fnv1a(UnsafeRawBufferPointer(rebasing: mapping[entry.file]))
            if index[hash] == nil { index[hash] = Int32(k) }
        }
        self.index = index
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count) }

    /// Where the cache of the store `identity` lives in `folder`.
    static func path(folder: String, identity: StoreIdentity) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + "store-" + StableHash.hex(StableHash.fnv1a(identity.path))
            + ".cache"
    }

    /// The cache at `path` if it is whole and was written by this binary for `identity`; nil otherwise.
    static func load(path: String, identity: StoreIdentity, writer: String) -> DocumentCache? {
        guard let file = FileDescriptor(open(path, O_RDONLY | O_CLOEXEC)) else { return nil }
        var st = stat()
        guard fstat(file.raw, &st) == 0, st.st_size > 16, st.st_size < Int.max / 2 else { return nil }
        let size = Int(st.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.raw, 0), base != MAP_FAILED else {
            return nil
        }
        let mapping = UnsafeRawBufferPointer(start: base, count: size)
        guard let entries = try? parse(mapping, identity: identity, writer: writer) else {
            munmap(base, size)
            return nil
        }
        return DocumentCache(mapping: mapping, entries: entries)
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, identity: StoreIdentity, writer: String)
        throws(ByteReader.Malformed) -> [Entry]
    {
        let body = bytes.count - 8
        var tail = ByteReader(bytes, offset: body)
        guard try tail.uint64() == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<body])) else {
            throw ByteReader.Malformed()
        }
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[0..<body]))
        guard try reader.bytes(magic.count).elementsEqual(magic), try reader.uint64() == format,
            try reader.string() == writer, try reader.string() == identity.path, try reader.string() == identity.kind
        else { throw ByteReader.Malformed() }
        let count = try reader.length()
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let fileLength = try reader.length()
            let fileStart = reader.offset
            _ = try reader.bytes(fileLength)
            let stamp = FileStamp(
                size: try reader.int64(), modified: try reader.int64(), changed: try reader.int64(),
                inode: try reader.uint64())
            let length = try reader.length()
            let start = reader.offset
            _ = try reader.bytes(length)
            entries.append(
                Entry(stamp: stamp, documents: start..<start + length, file: fileStart..<fileStart + fileLength))
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return entries
    }

    /// The entry of `file` when its stamp is still `stamp`.
    func entry(file: String, stamp: FileStamp) -> Int? {
        var file = file
        return file.withUTF8 { utf8 -> Int? in
            guard let k = index[StableHash.fnv1a(UnsafeRawBufferPointer(utf8))].map(Int.init),
                entries[k].stamp == stamp, mapping[entries[k].file].elementsEqual(UnsafeRawBufferPointer(utf8))
            else { return nil }
            return k
        }
    }

    /// Every entry, in the order written (a single-file store's one entry).
    var allEntries: Range<Int> { entries.indices }

    func stamp(of entry: Int) -> FileStamp { entries[entry].stamp }

    func file(of entry: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: mapping[entries[entry].file]), as: UTF8.self)
    }

    /// The documents of entry `k`, decoded; nil if they do not decode (then the file is read again).
    func documents(of k: Int) -> [DecodedDocument]? {
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: mapping[entries[k].documents]))
        do {
            let count = try reader.length()
            var documents: [DecodedDocument] = []
            documents.reserveCapacity(min(count, 1 << 16))
            for _ in 0..<count { documents.append(try DecodedDocument(from: &reader)) }
            return reader.isAtEnd ? documents : nil
        } catch {
            return nil
        }
    }

    /// The encoded documents of entry `k`, as stored (to write them again unchanged).
    func encodedDocuments(of k: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: mapping[entries[k].documents])
    }

    /// Eight bytes at a time, then the rest and the length: a torn or edited file fails it.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        let words = bytes.count / 8
        for k in 0..<words {
            h.combine(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self)))
        }
        var last: UInt64 = 0
        for (k, byte) in bytes[(words * 8)...].enumerated() { last |= UInt64(byte) << (8 * UInt64(k)) }
        h.combine(last)
        h.combine(bytes.count)
        return UInt64(bitPattern: Int64(h.finalize()))
    }
}

/// Which store a cache is for: its real path and kind ("directory" or "file").
struct StoreIdentity: Equatable {
    let path: String
    let kind: String

    init(store: String, isDirectory: Bool) {
        if let resolved = realpath(store, nil) {
            path = String(cString: resolved)
            free(resolved)
        } else {
            path = store
        }
        kind = isDirectory ? "directory" : "file"
    }
}
