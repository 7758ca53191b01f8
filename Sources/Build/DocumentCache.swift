import Model
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// The build cache of the store (docs/architecture.md, "The build cache"): every store file's
/// decoded documents, in binary, keyed by the file's path and stamp. A rebuild reads and
/// decodes only the files whose stamp moved.
///
/// One `CacheFile` per store, `store-<hash of its real path>.cache` in the cache folder; its
/// header names the Roost binary and the store, its body holds the entries (file, the FNV-1a
/// hash of its path, stamp, encoded documents; in no particular order), then each folder's
/// layout as the read listed it when the entries are every document file it found
/// (`FolderLayouts`), then where each part of `partEntries` entries starts, so that the
/// parts are parsed on all cores. A file from another binary or store, cut short or edited
/// by hand is ignored whole, and the store is read as if there were no cache.
final class DocumentCache: Sendable {
    static let format = "documents 5"

    /// Entries per part of the file, each part parsed on a core of its own.
    static let partEntries = 4096

    /// The stamp of an entry kept only for its path (a file changed too recently to trust its
    /// stamp): the one the walk keeps for such a file, which matches none, so the file is read again.
    static let unsettled = StoreFileStamps.untrusted

    /// One file's documents in the cache.
    struct Entry {
        var stamp: FileStamp
        /// The encoded documents, within `mapping`.
        var documents: Range<Int>
        /// The file, within `mapping`; its path hash follows it.
        var file: Range<Int>
    }

    private let file: CacheFile
    private var mapping: UnsafeRawBufferPointer { file.mapping }
    private let entries: [Entry]
    /// Each folder's layout as the listings that found the entries saw it, when the entries
    /// are all the store's document files; nil otherwise (a single-file store).
    let folders: FolderLayouts?

    var count: Int { entries.count }

    /// Which cache this is (`CacheFile.checksum`).
    var checksum: UInt64 { file.checksum }

    private init(file: CacheFile, folders: FolderLayouts?, entries: [Entry]) {
        self.file = file
        self.folders = folders
        self.entries = entries
    }

    /// The entries by file path, for a read that lists the store.
    struct FileIndex: Sendable {
        /// FNV-1a of the file path → entry index (a path whose hash is taken by another misses).
        fileprivate let byHash: [UInt64: Int32]
    }

    func fileIndex() -> FileIndex {
        var index: [UInt64: Int32] = [:]
        index.reserveCapacity(entries.count)
        for k in entries.indices {
            let hash = pathHash(of: k)
            if index[hash] == nil { index[hash] = Int32(k) }
        }
        return FileIndex(byHash: index)
    }

    /// Where the cache of the store `identity` lives in `folder`.
    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "store")
    }

    /// What the header of the cache of `identity` written by `writer` says.
    static func header(identity: StoreIdentity, writer: String) -> [String] {
        [format, writer, identity.path, identity.kind]
    }

    /// The cache at `path` if it is whole and was written by this binary for `identity`; nil otherwise.
    static func load(path: String, identity: StoreIdentity, writer: String) -> DocumentCache? {
        guard let file = CacheFile.open(path, header: header(identity: identity, writer: writer)),
            let (folders, entries) = try? parse(file)
        else { return nil }
        return DocumentCache(file: file, folders: folders, entries: entries)
    }

    private static func parse(_ file: CacheFile) throws(ByteReader.Malformed) -> (FolderLayouts?, [Entry]) {
        // The parts' starts, found from the end of the body.
        let body = file.body
        guard body.count >= 8 else { throw ByteReader.Malformed() }
        var tail = file.reader(from: body.upperBound - 8)
        guard let table = Int(exactly: try tail.uint64()), table >= body.lowerBound, table < body.upperBound - 8 else {
            throw ByteReader.Malformed()
        }
        var reader = file.reader(from: table)
        var found: [Int] = []
        for _ in 0..<(try reader.length()) {
            // (Each part after the last: a part holds at least one entry.)
            guard let start = Int(exactly: try reader.uint64()), start > (found.last ?? body.lowerBound - 1),
                start < table
            else { throw ByteReader.Malformed() }
            found.append(start)
        }
        let starts = found
        guard reader.offset == body.upperBound - 8, (starts.first ?? body.lowerBound) == body.lowerBound,
            // (Room is made for `partEntries` a part: each part but the last must have the bytes.)
            starts.indices.dropLast().allSatisfy({
                starts[$0 + 1] - starts[$0] >= Self.partEntries * Self.shortestEntry
            })
        else {
            throw ByteReader.Malformed()
        }
        // Each part on a core: its entries, up to the next part's start (the last, up to the
        // 0), decoded into their place in the one list (`partEntries` each but the last).
        let parts = [Entry].inParts(starts.count, stride: Self.partEntries) { p, start -> (made: Int, extra: Int?) in
            var reader = file.reader(from: starts[p])
            let end = p + 1 < starts.count ? starts[p + 1] : nil
            var k = 0
            do throws(ByteReader.Malformed) {
                while end.map({ reader.offset < $0 }) ?? true {
                    let tag = try reader.byte()
                    if tag == 0, end == nil { break }
                    guard tag == 1, k < Self.partEntries else { return (k, nil) }
                    (start + k).initialize(to: try entry(&reader))
                    k += 1
                }
            } catch {
                return (k, nil)
            }
            // (An entry ran over the next part's start.)
            if let end, reader.offset != end { return (k, nil) }
            return (k, reader.offset)
        }
        guard let (entries, ends) = parts else { throw ByteReader.Malformed() }
        let folderStart = ends.last ?? body.lowerBound + 1  // no entries: the 0 first
        if starts.isEmpty {
            reader = file.reader
            guard try reader.byte() == 0 else { throw ByteReader.Malformed() }
        }
        reader = file.reader(from: folderStart)
        let hasFolders = try reader.uint64()
        guard hasFolders <= 1 else { throw ByteReader.Malformed() }
        var folders: FolderLayouts?
        if hasFolders == 1 {
            var listed: [FolderLayouts.Folder] = []
            let n = try reader.length()
            listed.reserveCapacity(min(n, 1 << 20))
            for _ in 0..<n {
                listed.append(FolderLayouts.Folder(pathHash: try reader.uint64(), layout: try reader.uint64()))
            }
            guard let layouts = FolderLayouts(listed) else { throw ByteReader.Malformed() }
            folders = layouts
        }
        guard reader.offset == table else { throw ByteReader.Malformed() }
        return (folders, entries)
    }

    /// The fewest bytes an entry takes: its tag, the path's length, the hash, the stamp, the
    /// documents' length and count.
    private static let shortestEntry = 1 + 1 + 8 + 32 + 1 + 1

    /// One entry, after its tag.
    private static func entry(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> Entry {
        let fileLength = try reader.length()
        let fileStart = reader.offset
        _ = try reader.bytes(fileLength)
        _ = try reader.uint64()  // the path hash (see `pathHash(of:)`)
        let stamp = try reader.fileStamp()
        let length = try reader.length()
        let start = reader.offset
        _ = try reader.bytes(length)
        return Entry(stamp: stamp, documents: start..<start + length, file: fileStart..<fileStart + fileLength)
    }

    /// The entry of `file` when its stamp is still `stamp`.
    func entry(file: String, stamp: FileStamp, in index: FileIndex) -> Int? {
        var file = file
        return file.withUTF8 { utf8 -> Int? in
            guard let k = index.byHash[StableHash.fnv1a(UnsafeRawBufferPointer(utf8))].map(Int.init),
                entries[k].stamp == stamp,
                sameBytes(UnsafeRawBufferPointer(rebasing: mapping[entries[k].file]), UnsafeRawBufferPointer(utf8))
            else { return nil }
            return k
        }
    }

    func stamp(of entry: Int) -> FileStamp { entries[entry].stamp }

    /// FNV-1a of the path of the folder each entry's file is in (as `FolderLayouts` knows
    /// folders), in entry order. A folder's entries are mostly written one after another, so
    /// a folder like the last entry's is compared, not hashed again.
    func folderHashes() -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(entries.count)
        var (last, lastHash) = (UnsafeRawBufferPointer(start: nil, count: 0), StableHash.fnv1a(""))
        for entry in entries {
            let file = UnsafeRawBufferPointer(rebasing: mapping[entry.file])
            let folder = UnsafeRawBufferPointer(rebasing: file[..<(file.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
            if !sameBytes(folder, last) { (last, lastHash) = (folder, StableHash.fnv1a(folder)) }
            hashes.append(lastHash)
        }
        return hashes
    }

    /// FNV-1a of entry `k`'s file path (as `StoreFileStamps` knows files).
    func pathHash(of k: Int) -> UInt64 {
        UInt64(littleEndian: mapping.loadUnaligned(fromByteOffset: entries[k].file.upperBound, as: UInt64.self))
    }

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

    /// The one document of entry `k` (a directory store's file), decoded; nil if the entry
    /// holds none or several, or they do not decode.
    func document(of k: Int) -> DecodedDocument? {
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: mapping[entries[k].documents]))
        guard (try? reader.length()) == 1, let document = try? DecodedDocument(from: &reader), reader.isAtEnd
        else { return nil }
        return document
    }

    /// The encoded documents of entry `k`, as stored (to write them again unchanged).
    func encodedDocuments(of k: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: mapping[entries[k].documents])
    }
}

/// Which store a cache is for: its real path and kind ("directory" or "file").
struct StoreIdentity: Equatable {
    let path: String
    let kind: String

    init(_ source: any DocumentSource) {
        if let resolved = realpath(source.location, nil) {
            path = String(cString: resolved)
            free(resolved)
        } else {
            path = source.location
        }
        kind = source.entryKind
    }

    /// The cache file `name` of this store in `folder`: `name-<hash of the real path>.cache`.
    func cachePath(in folder: String, name: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + name + "-" + StableHash.hex(StableHash.fnv1a(path)) + ".cache"
    }
}
