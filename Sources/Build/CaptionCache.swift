import Model
import Search
import Site
import Support

/// The build cache of captions (docs/architecture.md, "The build cache"): what a build made
/// of each caption text, kept for the next build of the same store: its search keys
/// (`SearchIndex.captionKeys`) and its HTML and excerpt (`CaptionRender`, valid for the
/// context it was rendered in). Parsing captions with cmark twice over (pages and search)
/// is, after reading the store, most of what a rebuild spends before rendering.
///
/// One `CacheFile` per store, `captions-<hash of its real path>.cache`; keyed by the caption's
/// bytes, so a caption is never taken for another, not even for one that is equal to it as a
/// Swift string (another Unicode form of the same text, which cmark renders to other bytes).
/// The body: the context and the count; each entry's caption bytes, render digest, render and
/// keys; then a table of entries (`Record`: hash of the caption, where its bytes and the rest
/// are) and a hash table of their numbers, found by where the table starts (the body's last
/// eight bytes). So a build reads nothing of an entry until it asks for it: it matches every
/// tweet's caption to its entry once (`entries(of:)`), through the mapped tables, and asks
/// by entry after that.
final class CaptionCache: Sendable {
    static let format = "captions 5"

    private let file: CacheFile
    private var mapping: UnsafeRawBufferPointer { file.mapping }
    /// The context the renders were made in (`SiteRenderer.captionContext`).
    private let context: UInt64
    let entryCount: Int
    /// Where the entries' data ends and their records begin, in `mapping`.
    private let records: Int
    /// Where the hash table's slots begin, and how many there are (a power of two).
    private let slots: Int
    private let slotCount: Int

    /// An entry's record: the hash of its caption (`hash(_:)`), where its bytes are, and where
    /// its render's digest (`CaptionRender.digest`), render and keys begin.
    private struct Record {
        let hash: UInt64
        let caption: Range<Int>
        let rest: Int
    }

    private static let recordSize = 32

    private init(file: CacheFile, context: UInt64, entryCount: Int, records: Int, slots: Int, slotCount: Int) {
        self.file = file
        self.context = context
        self.entryCount = entryCount
        self.records = records
        self.slots = slots
        self.slotCount = slotCount
    }

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "captions")
    }

    static func header(identity: StoreIdentity) -> [String] { [format, CacheFile.writer, identity.path] }

    /// A caption's hash: its bytes eight at a time (every tweet's caption is hashed at each build).
    static func hash(_ caption: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(bytes: caption)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    static func hash(_ caption: String) -> UInt64 {
        var caption = caption
        return caption.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The cache at `path` when it is whole and this binary wrote it for `identity`, its tables
    /// where they fit; nil otherwise.
    static func load(path: String, identity: StoreIdentity) -> CaptionCache? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        let end = file.body.upperBound
        do throws(ByteReader.Malformed) {
            let context = try reader.uint64()
            let count = try reader.length()
            guard end - reader.offset >= 16 else { return nil }
            var trailer = file.reader(from: end - 8)
            let records = Int(truncatingIfNeeded: try trailer.uint64())
            guard records >= reader.offset, count <= (end - 16 - records) / recordSize else { return nil }
            var table = file.reader(from: records + count * recordSize)
            let slotCount = Int(truncatingIfNeeded: try table.uint64())
            let slots = table.offset
            guard slotCount > count, slotCount.nonzeroBitCount == 1, slotCount <= (end - 8 - slots) / 4,
                slots + slotCount * 4 == end - 8
            else { return nil }
            return CaptionCache(
                file: file, context: context, entryCount: count, records: records, slots: slots, slotCount: slotCount)
        } catch {
            return nil
        }
    }

    /// Entry `k`'s record, when it points within the entries' data.
    private func record(_ k: Int) -> Record? {
        guard k >= 0, k < entryCount else { return nil }
        let at = records + k * Self.recordSize
        func word(_ i: Int) -> Int {
            Int(
                truncatingIfNeeded: UInt64(
                    littleEndian: mapping.loadUnaligned(fromByteOffset: at + 8 * i, as: UInt64.self)))
        }
        let (start, length, rest) = (word(1), word(2), word(3))
        let bodyStart = file.body.lowerBound
        guard start >= bodyStart, length >= 0, length <= records - start, rest >= bodyStart, rest <= records - 8
        else { return nil }
        return Record(hash: UInt64(bitPattern: Int64(word(0))), caption: start..<(start + length), rest: rest)
    }

    /// The entry whose caption is `caption` (hashed `hash`), or -1.
    private func entry(of caption: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<slotCount {
            let k = Int32(littleEndian: mapping.loadUnaligned(fromByteOffset: slots + slot * 4, as: Int32.self))
            guard k >= 0 else { return -1 }
            if let record = record(Int(k)), record.hash == hash,
                sameBytes(UnsafeRawBufferPointer(rebasing: mapping[record.caption]), caption)
            {
                return k
            }
            slot = (slot + 1) & mask
        }
        return -1
    }

    /// The entry of each tweet's caption (the one with the same bytes), or -1; on all cores.
    func entries(of tweets: [Tweet]) -> [Int32] {
        [Int32](parallelCount: tweets.count, chunk: 256) { t in
            var caption = tweets[t].caption
            return caption.withUTF8 { utf8 -> Int32 in
                let bytes = UnsafeRawBufferPointer(utf8)
                return entry(of: bytes, hash: Self.hash(bytes))
            }
        }
    }

    /// Entry `k`'s render and keys, as written (after its digest).
    private func reader(after k: Int32) -> ByteReader? {
        record(Int(k)).map { file.reader(from: $0.rest + 8) }
    }

    /// Entry `k`'s `CaptionRender.digest`.
    private func digest(entry k: Int32) -> UInt64 {
        guard let rest = record(Int(k))?.rest else { return 0 }
        return UInt64(littleEndian: mapping.loadUnaligned(fromByteOffset: rest, as: UInt64.self))
    }

    /// The search keys of entry `k` (-1: none).
    func keys(entry k: Int32) -> [String]? {
        guard var reader = reader(after: k) else { return nil }
        guard (try? reader.skipString()) != nil, (try? reader.skipString()) != nil else { return nil }  // html, excerpt
        return try? reader.strings()
    }

    /// The render of entry `k` (-1: none).
    private func render(entry k: Int32) -> CaptionRender? {
        guard var reader = reader(after: k), let html = try? reader.string(), let excerpt = try? reader.string() else {
            return nil
        }
        return CaptionRender(html: html, excerpt: excerpt)
    }

    /// The renders of the tweets whose entries are `matched` (`entries(of:)`), as a
    /// `SiteRenderer` takes them.
    func renders(matched: [Int32]) -> CaptionRenders {
        CaptionRenders(
            context: context, has: { matched[$0] >= 0 }, render: { [self] in render(entry: matched[$0]) },
            digest: { [self] in digest(entry: matched[$0]) })
    }

    /// The indices of `tweets` whose caption's bytes no earlier one has, in order. Those
    /// `matched` to one entry share the caption's bytes; the others are compared.
    static func distinct(_ tweets: [Tweet], matched: [Int32]?, entryCount: Int) -> [Int] {
        var entrySeen = [Bool](repeating: false, count: entryCount)
        var seen: [UInt64: [Int]] = [:]
        return tweets.indices.filter { t in
            if let matched, matched[t] >= 0 {
                defer { entrySeen[Int(matched[t])] = true }
                return !entrySeen[Int(matched[t])]
            }
            let caption = tweets[t].caption
            let hash = hash(caption)
            if let earlier = seen[hash], earlier.contains(where: { sameBytes(tweets[$0].caption, caption) }) {
                return false
            }
            seen[hash, default: []].append(t)
            return true
        }
    }

    /// How many distinct captions (`distinct`, matched to entries as `matched`) the cache
    /// lacks, or how many entries it holds that are none of them, whichever is more (an edited
    /// caption is one of each); nil when its renders were made in another context (then none
    /// of it serves).
    func drift(matched: [Int32], distinct: [Int], context: UInt64) -> Int? {
        guard context == self.context else { return nil }
        var used = [Bool](repeating: false, count: entryCount)
        var missing = 0
        for t in distinct {
            if matched[t] >= 0 { used[Int(matched[t])] = true } else { missing += 1 }
        }
        return max(missing, used.count { !$0 })
    }

    /// Writes the cache of `identity` at `path`: each of the distinct captions
    /// `captions[distinct]` with its keys (`keys(t)`) and render (`renders(t)`).
    static func write(
        path: String, identity: StoreIdentity, context: UInt64, captions: [String], distinct: [Int],
        keys: (Int) -> [String], renders: (Int) -> CaptionRender
    ) throws(BuildError) {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { file throws(BuildError) in
            try file.append {
                $0.append(context)
                $0.append(length: distinct.count)
            }
            var records: [Record] = []
            records.reserveCapacity(distinct.count)
            for t in distinct {
                let render = renders(t)
                let start = file.offset
                try file.append { $0.append(captions[t].utf8) }
                let rest = file.offset
                try file.append {
                    $0.append(CaptionRender.digest(html: render.html))
                    $0.append(render.html)
                    $0.append(render.excerpt)
                    $0.append(keys(t))
                }
                records.append(Record(hash: hash(captions[t]), caption: start..<rest, rest: rest))
            }
            let recordsStart = file.offset
            for record in records {
                try file.append {
                    $0.append(record.hash)
                    $0.append(UInt64(record.caption.lowerBound))
                    $0.append(UInt64(record.caption.count))
                    $0.append(UInt64(record.rest))
                }
            }
            // Open addressing, at most half full; the first of two equal captions is found.
            var slotCount = 1
            while slotCount < 2 * records.count + 1 { slotCount *= 2 }
            var slots = [Int32](repeating: -1, count: slotCount)
            for (k, record) in records.enumerated() {
                var slot = Int(truncatingIfNeeded: record.hash) & (slotCount - 1)
                while slots[slot] >= 0 { slot = (slot + 1) & (slotCount - 1) }
                slots[slot] = Int32(k)
            }
            try file.append { out in
                out.append(UInt64(slotCount))
                for k in slots { withUnsafeBytes(of: k.littleEndian) { out.append($0) } }
                out.append(UInt64(recordsStart))
            }
        }
    }
}
