import Model
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// Writes a `DocumentCache` file: streamed through a small buffer (a million documents are
/// never encoded in memory at once) to a file of its own beside the cache, checksummed as
/// it goes, and renamed over the old one only when whole, so a killed build leaves the old
/// cache or none. Not synced to disk: a file torn by a crash of the machine fails its
/// checksum and is ignored.
final class DocumentCacheWriter {
    private let path: String
    private let temporary: String
    private let file: Int32
    private var out = ByteWriter(capacity: 1 << 20)
    private var hasher = StableHasher()
    /// Bytes hashed and written so far.
    private var written = 0

    /// Starts the cache of `identity` at `path`, made by `writer`, with `count` entries.
    init(path: String, identity: StoreIdentity, writer: String, count: Int) throws(BuildError) {
        self.path = path
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty {
            let code = makeDirectories(folder)
            if code != 0 { throw .cache("cannot make the folder \(folder): \(errnoText(code))") }
        }
        Self.removeAbandoned(besides: path)
        temporary = path + ".tmp-\(getpid())"
        file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw .cache("cannot write \(temporary): \(errnoText())") }
        out.append(DocumentCache.magic)
        out.append(DocumentCache.format)
        out.append(writer)
        out.append(identity.path)
        out.append(identity.kind)
        out.append(length: count)
    }

    deinit { if file >= 0 { close(file) } }

    /// One file's entry, its documents encoded now.
    func add(file name: String, stamp: FileStamp, documents: [DecodedDocument]) throws(BuildError) {
        var encoded = ByteWriter()
        encoded.append(length: documents.count)
        for document in documents { document.encode(into: &encoded) }
        try add(file: name, stamp: stamp) { $0.append(encoded.bytes) }
    }

    /// One file's entry, its documents as a cache stored them.
    func add(file name: String, stamp: FileStamp, encoded: UnsafeRawBufferPointer) throws(BuildError) {
        try add(file: name, stamp: stamp) { $0.append(Array(encoded)) }
    }

    private func add(file name: String, stamp: FileStamp, documents: (inout ByteWriter) -> Void)
        throws(BuildError)
    {
        out.append(name)
        out.append(stamp.size)
        out.append(stamp.modified)
        out.append(stamp.changed)
        out.append(stamp.inode)
        var body = ByteWriter()
        documents(&body)
        out.append(length: body.bytes.count)
        out.append(body.bytes)
        if out.bytes.count >= 1 << 20 { try flush(all: false) }
    }

    /// Writes the checksum and renames the file into place.
    func finish() throws(BuildError) {
        do throws(BuildError) {
            try flush(all: true)
            var sum = ByteWriter()
            sum.append(UInt64(bitPattern: Int64(hasher.finalize())))
            try write(sum.bytes)
            guard rename(temporary, path) == 0 else {
                throw .cache("cannot rename \(temporary) to \(path): \(errnoText())")
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Gives up: the old cache, if any, stays.
    func abandon() { unlink(temporary) }

    /// Hashes and writes whole words of the buffer (all of it, with the tail word and the
    /// length, when `all`), as `DocumentCache.checksum` reads them.
    private func flush(all: Bool) throws(BuildError) {
        let bytes = out.bytes
        let words = bytes.count / 8
        bytes.withUnsafeBytes { raw in
            for k in 0..<words {
                hasher.combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self)))
            }
        }
        if all {
            var last: UInt64 = 0
            for (k, byte) in bytes[(words * 8)...].enumerated() { last |= UInt64(byte) << (8 * UInt64(k)) }
            hasher.combine(last)
            hasher.combine(written + bytes.count)
            try write(bytes)
            written += bytes.count
            out.removeAll()
        } else {
            try write(Array(bytes[..<(words * 8)]))
            written += words * 8
            let rest = Array(bytes[(words * 8)...])
            out.removeAll()
            out.append(rest)
        }
    }

    private func write(_ bytes: [UInt8]) throws(BuildError) {
        let code = bytes.withUnsafeBytes { writeAll(file, $0) }
        if code != 0 { throw .cache("cannot write \(temporary): \(errnoText(code))") }
    }

    /// Files left beside `path` by builds that were killed while writing it.
    private static func removeAbandoned(besides path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = String(path[(slash.map { path.index(after: $0) } ?? path.startIndex)...]) + ".tmp-"
        guard let fd = FileDescriptor(open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            return
        }
        _ = DirectoryListing.forEach(in: fd.raw, dotNames: false) { entry in
            guard entry.name.hasPrefix(prefix), let pid = Int32(entry.name.dropFirst(prefix.count)) else { return }
            if kill(pid, 0) != 0 && errno == ESRCH { unlinkat(fd.raw, entry.name, 0) }
        }
    }
}
