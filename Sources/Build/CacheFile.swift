import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// One file of the build cache, as the build caches share it:
///
///     magic, header strings (who wrote it, for what), body, checksum of all before it
///
/// Read by mapping it; trusted only whole: a file cut short (a crash of the machine), edited
/// by hand, or whose header differs (another Roost binary, another store, other settings)
/// is no cache at all.
final class CacheFile: @unchecked Sendable {  // read-only once made
    static let magic = Array("ROOST-CACHE\n".utf8)

    /// Which binary writes (`BuildInputs.binary`): another Roost, or this one rebuilt, may
    /// decode or render differently.
    static var writer: String { BuildInputs.binary }

    /// Whether a cache that lacks, or holds in vain, `drift` of the `live` entries a build
    /// used (an edited file: one of each, a drift of one) is worth writing again. A rewrite
    /// costs the whole file; an entry it lacks only that entry's work, once per build until
    /// the next rewrite: so a few edits (up to one entry in 64) wait, and a one-file edit at
    /// 100,000 files writes nothing.
    static func isWorthRewriting(drift: Int, live: Int) -> Bool { drift > 0 && drift * rewriteRatio >= live }

    /// A rewrite waits until one entry in this many is lacking or held in vain (see above).
    static let rewriteRatio = 64

    /// The whole file, mapped.
    let mapping: UnsafeRawBufferPointer
    /// Where the body starts and ends in `mapping`.
    let body: Range<Int>
    /// The checksum of the whole file: which cache this is, for a cache made from another
    /// (`SnapshotCache`'s basis).
    let checksum: UInt64

    private init(mapping: UnsafeRawBufferPointer, body: Range<Int>, checksum: UInt64) {
        self.mapping = mapping
        self.body = body
        self.checksum = checksum
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count) }

    /// A reader of the body.
    var reader: ByteReader { reader(from: body.lowerBound) }

    /// A reader of the body from `offset` (where an earlier reader got to).
    func reader(from offset: Int) -> ByteReader {
        ByteReader(UnsafeRawBufferPointer(rebasing: mapping[..<body.upperBound]), offset: offset)
    }

    /// The file at `path` when it is whole and its header is `header`; nil otherwise.
    static func open(_ path: String, header: [String]) -> CacheFile? {
        guard let file = FileDescriptor(Glibc.open(path, O_RDONLY | O_CLOEXEC)) else { return nil }
        var st = stat()
        guard fstat(file.raw, &st) == 0, st.st_size > 8, st.st_size < Int.max / 2 else { return nil }
        let size = Int(st.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.raw, 0), base != MAP_FAILED else { return nil }
        let mapping = UnsafeRawBufferPointer(start: base, count: size)
        let end = size - 8
        var tail = ByteReader(mapping, offset: end)
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: mapping[..<end]))
        // The header first: another binary's or store's file is refused without reading it all.
        var sum: UInt64 = 0
        do {
            guard try reader.bytes(magic.count).elementsEqual(magic), try reader.strings() == header else {
                throw ByteReader.Malformed()
            }
            sum = checksum(UnsafeRawBufferPointer(rebasing: mapping[..<end]))
            guard try tail.uint64() == sum else { throw ByteReader.Malformed() }
        } catch {
            munmap(base, size)
            return nil
        }
        return CacheFile(mapping: mapping, body: reader.offset..<end, checksum: sum)
    }

    /// Eight bytes at a time in blocks of `Checksum.blockSize`, each block on a core, then
    /// the rest and the length: a torn or edited file fails it.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let whole = bytes.count / 8 * 8
        let blocks = whole / Checksum.blockSize
        nonisolated(unsafe) let shared = bytes  // (read-only while the blocks are hashed)
        let sums = [UInt64](parallelCount: blocks) { k in
            Checksum.block(
                UnsafeRawBufferPointer(rebasing: shared[(k * Checksum.blockSize)..<((k + 1) * Checksum.blockSize)]))
        }
        var sum = Checksum(blocks: sums)
        sum.add(UnsafeRawBufferPointer(rebasing: bytes[(blocks * Checksum.blockSize)..<whole]))
        return sum.finish(tail: UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    /// The checksum, over bytes given in parts of whole words: each block of `blockSize`
    /// bytes hashed alone (so that a file's blocks can be checked on all cores), then the
    /// blocks' hashes, the last part and the length.
    struct Checksum {
        static let blockSize = 1 << 20
        private var blocks: [UInt64]
        private var hasher = Lanes()
        private var inBlock = 0

        init(blocks: [UInt64] = []) { self.blocks = blocks }

        /// One whole block's hash.
        static func block(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var lanes = Lanes()
            lanes.add(bytes)
            return lanes.finalize()
        }

        /// A block's words hashed in four lanes, word `k` of the block into lane `k % 4`:
        /// the lanes' multiplies do not wait on each other, where one running hash waits on
        /// every word before (each build checks every cache file it reads).
        struct Lanes {
            private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
                0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_8422_2325_cbf2, 0x2325_cbf2_9ce4_8422
            )
            /// The lane of the next word.
            private var next = 0

            @inline(__always)
            private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
                let product = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
                return product ^ (product >> 32)
            }

            @inline(__always)
            private mutating func add(word: UInt64) {
                switch next {
                case 0: lanes.0 = Self.mix(lanes.0, word)
                case 1: lanes.1 = Self.mix(lanes.1, word)
                case 2: lanes.2 = Self.mix(lanes.2, word)
                default: lanes.3 = Self.mix(lanes.3, word)
                }
                next = (next + 1) & 3
            }

            /// Adds the whole words of `bytes`.
            mutating func add(_ bytes: UnsafeRawBufferPointer) {
                let count = bytes.count / 8
                func word(_ k: Int) -> UInt64 {
                    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self))
                }
                var k = 0
                while next != 0, k < count {
                    add(word: word(k))
                    k += 1
                }
                var (a, b, c, d) = lanes
                while k + 4 <= count {
                    a = Self.mix(a, word(k))
                    b = Self.mix(b, word(k + 1))
                    c = Self.mix(c, word(k + 2))
                    d = Self.mix(d, word(k + 3))
                    k += 4
                }
                lanes = (a, b, c, d)
                while k < count {
                    add(word: word(k))
                    k += 1
                }
            }

            mutating func combine(_ word: UInt64) { add(word: word) }

            func finalize() -> UInt64 {
                var hasher = StableHasher()
                hasher.combine(lanes.0)
                hasher.combine(lanes.1)
                hasher.combine(lanes.2)
                hasher.combine(lanes.3)
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
        }

        /// Adds the whole words of `bytes` (the rest is for `finish`).
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            let whole = bytes.count / 8 * 8
            while offset < whole {
                let n = min(whole - offset, Self.blockSize - inBlock)
                hasher.add(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]))
                (offset, inBlock) = (offset + n, inBlock + n)
                if inBlock == Self.blockSize {
                    blocks.append(hasher.finalize())
                    (hasher, inBlock) = (Lanes(), 0)
                }
            }
        }

        func finish(tail: UnsafeRawBufferPointer) -> UInt64 {
            var last = hasher
            var word: UInt64 = 0
            for (k, byte) in tail.enumerated() { word |= UInt64(byte) << (8 * UInt64(k)) }
            last.combine(word)
            var sum = StableHasher()
            for block in blocks { sum.combine(block) }
            sum.combine(last.finalize())
            sum.combine(blocks.count * Self.blockSize + inBlock + tail.count)
            return UInt64(bitPattern: Int64(sum.finalize()))
        }
    }
}

/// Writes a `CacheFile`: streamed through a small buffer (a million documents are never
/// encoded in memory at once) to a file of its own beside it, checksummed as it goes, and
/// renamed over the old one only when whole, so a killed build leaves the old file or none.
/// Not synced to disk: a file torn by a crash of the machine fails its checksum.
final class CacheFileWriter {
    private let path: String
    private let temporary: String
    private let file: Int32
    private(set) var out = ByteWriter(capacity: CacheFileWriter.bufferSize)
    private var checksum = CacheFile.Checksum()
    /// Bytes written out of the buffer so far.
    private var written = 0

    /// Where the next byte appended goes in the file (as `CacheFile.mapping` has it).
    var offset: Int { written + out.bytes.count }

    init(path: String, header: [String]) throws(BuildError) {
        self.path = path
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty {
            let code = makeDirectories(folder)
            if code != 0 { throw .cache("cannot make the folder \(folder): \(errnoText(code))") }
        }
        Self.removeAbandoned(besides: path)
        temporary = path + ".tmp-\(getpid())"
        file = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw .cache("cannot write \(temporary): \(errnoText())") }
        out.append(CacheFile.magic)
        out.append(header)
    }

    deinit { if file >= 0 { close(file) } }

    /// Writes the cache file at `path` whole, its body from `body`, or not at all: the old
    /// file, if any, stays when `body` or the write fails.
    static func write(path: String, header: [String], _ body: (CacheFileWriter) throws(BuildError) -> Void)
        throws(BuildError)
    {
        let writer = try CacheFileWriter(path: path, header: header)
        do throws(BuildError) {
            try body(writer)
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Bytes encoded before they are written out: few writes for a file of hundreds of
    /// megabytes, and a buffer that is small beside the cache it writes.
    static let bufferSize = 1 << 20

    /// Appends to the body with `body`, writing the buffer out when it is large.
    func append(_ body: (inout ByteWriter) -> Void) throws(BuildError) {
        body(&out)
        if out.bytes.count >= Self.bufferSize { try flush(all: false) }
    }

    /// Writes the checksum and renames the file into place; returns the checksum (the
    /// file's `CacheFile.checksum`).
    @discardableResult
    func finish() throws(BuildError) -> UInt64 {
        do throws(BuildError) {
            let sum = try flush(all: true)
            let code = replaceFile(AT_FDCWD, temporary, with: AT_FDCWD, path)
            guard code == 0 else { throw .cache("cannot rename \(temporary) to \(path): \(errnoText(code))") }
            return sum
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Gives up: the old file, if any, stays.
    func abandon() { unlink(temporary) }

    /// Hashes and writes the whole words of the buffer; with `all`, the rest and the checksum
    /// too (returned; else 0).
    @discardableResult
    private func flush(all: Bool) throws(BuildError) -> UInt64 {
        let bytes = out.bytes
        let whole = bytes.count / 8 * 8
        bytes.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[..<whole])) }
        if all {
            var sum = ByteWriter()
            let value = bytes.withUnsafeBytes { checksum.finish(tail: UnsafeRawBufferPointer(rebasing: $0[whole...])) }
            sum.append(value)
            try write(bytes[...])
            try write(sum.bytes[...])
            out.removeAll()
            return value
        } else {
            try write(bytes[..<whole])
            written += whole
            let rest = Array(bytes[whole...])
            out.removeAll()
            out.append(rest)
            return 0
        }
    }

    private func write(_ bytes: ArraySlice<UInt8>) throws(BuildError) {
        let code = bytes.withUnsafeBytes { writeAll(file, $0) }
        if code != 0 { throw .cache("cannot write \(temporary): \(errnoText(code))") }
    }

    /// Files left beside `path` by builds that were killed while writing it.
    private static func removeAbandoned(besides path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = String(path[(slash.map { path.index(after: $0) } ?? path.startIndex)...]) + ".tmp-"
        guard let fd = FileDescriptor(Glibc.open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
        else { return }
        _ = DirectoryListing.forEach(in: fd.raw, dotNames: false) { entry in
            guard entry.name.hasPrefix(prefix), let pid = Int32(entry.name.dropFirst(prefix.count)) else { return }
            if kill(pid, 0) != 0 && errno == ESRCH { unlinkat(fd.raw, entry.name, 0) }
        }
    }
}

// A file's stamp as the build caches store it (the document cache's entries, the snapshot's
// basis): size, modification and change times, inode.
extension ByteWriter {
    mutating func append(_ stamp: FileStamp) {
        append(stamp.size)
        append(stamp.modified)
        append(stamp.changed)
        append(stamp.inode)
    }
}

extension ByteReader {
    mutating func fileStamp() throws(Malformed) -> FileStamp {
        FileStamp(size: try int64(), modified: try int64(), changed: try int64(), inode: try uint64())
    }
}
