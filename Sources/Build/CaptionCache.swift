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
/// Entries are found by a hash of those bytes (written with each) and decoded from the mapped
/// file when asked for. A build matches every tweet's caption to its entry once
/// (`entries(of:)`) and asks by entry after that.
final class CaptionCache: Sendable {
    static let format = "captions 4"

    /// One caption's entry: where its text is in the file, and where its render's digest
    /// (`CaptionRender.digest`), render and keys (as written) begin.
    private struct Entry: Sendable {
        let caption: Range<Int>
        let rest: Int
    }

    private let file: CacheFile
    private var mapping: UnsafeRawBufferPointer { file.mapping }
    /// The context the renders were made in (`SiteRenderer.captionContext`).
    private let context: UInt64
    private let entries: [Entry]
    /// FNV-1a of a caption's bytes → its entry (a caption whose hash another took misses).
    private let byHash: [UInt64: Int32]

    private init(file: CacheFile, context: UInt64, entries: [Entry], byHash: [UInt64: Int32]) {
        self.file = file
        self.context = context
        self.entries = entries
        self.byHash = byHash
    }

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "captions")
    }

    static func header(identity: StoreIdentity) -> [String] { [format, CacheFile.writer, identity.path] }

    /// The cache at `path` when it is whole and this binary wrote it for `identity`; nil otherwise.
    static func load(path: String, identity: StoreIdentity) -> CaptionCache? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do throws(ByteReader.Malformed) {
            let context = try reader.uint64()
            let count = try reader.length()
            var entries: [Entry] = []
            var byHash: [UInt64: Int32] = [:]
            entries.reserveCapacity(min(count, 1 << 22))
            byHash.reserveCapacity(min(count, 1 << 22))
            for k in 0..<count {
                let hash = try reader.uint64()
                let length = try reader.length()
                let start = reader.offset
                _ = try reader.bytes(length)
                let rest = reader.offset
                _ = try reader.uint64()  // the render's digest
                try reader.skipString()  // html
                try reader.skipString()  // excerpt
                for _ in 0..<(try reader.length()) { try reader.skipString() }  // keys
                entries.append(Entry(caption: start..<start + length, rest: rest))
                if byHash[hash] == nil { byHash[hash] = Int32(k) }
            }
            guard reader.isAtEnd else { return nil }
            return CaptionCache(file: file, context: context, entries: entries, byHash: byHash)
        } catch {
            return nil
        }
    }

    /// The entry of each tweet's caption (the one with the same bytes), or -1; on all cores.
    func entries(of tweets: [Tweet]) -> [Int32] {
        [Int32](parallelCount: tweets.count, chunk: 256) { t in
            var caption = tweets[t].caption
            return caption.withUTF8 { utf8 -> Int32 in
                let bytes = UnsafeRawBufferPointer(utf8)
                guard let k = byHash[StableHash.fnv1a(bytes)] else { return -1 }
                return sameBytes(UnsafeRawBufferPointer(rebasing: mapping[entries[Int(k)].caption]), bytes) ? k : -1
            }
        }
    }

    /// Entry `k`'s render and keys, as written (after its digest).
    private func reader(after k: Int32) -> ByteReader {
        var reader = ByteReader(mapping)
        _ = try? reader.bytes(entries[Int(k)].rest + 8)
        return reader
    }

    /// Entry `k`'s `CaptionRender.digest`.
    private func digest(entry k: Int32) -> UInt64 {
        UInt64(littleEndian: mapping.loadUnaligned(fromByteOffset: entries[Int(k)].rest, as: UInt64.self))
    }

    /// The search keys of entry `k` (-1: none).
    func keys(entry k: Int32) -> [String]? {
        guard k >= 0 else { return nil }
        var reader = reader(after: k)
        guard (try? reader.skipString()) != nil, (try? reader.skipString()) != nil else { return nil }  // html, excerpt
        return try? reader.strings()
    }

    /// The render of entry `k` (-1: none).
    private func render(entry k: Int32) -> CaptionRender? {
        guard k >= 0 else { return nil }
        var reader = reader(after: k)
        guard let html = try? reader.string(), let excerpt = try? reader.string() else { return nil }
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
            let hash = StableHash.fnv1a(caption)
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
        var used = [Bool](repeating: false, count: entries.count)
        var missing = 0
        for t in distinct {
            if matched[t] >= 0 { used[Int(matched[t])] = true } else { missing += 1 }
        }
        return max(missing, used.count { !$0 })
    }

    var entryCount: Int { entries.count }

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
            for t in distinct {
                let render = renders(t)
                try file.append {
                    $0.append(StableHash.fnv1a(captions[t]))
                    $0.append(captions[t])
                    $0.append(CaptionRender.digest(html: render.html))
                    $0.append(render.html)
                    $0.append(render.excerpt)
                    $0.append(keys(t))
                }
            }
        }
    }
}
