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
/// Entries are found by a hash of those bytes and decoded from the mapped file when asked for.
final class CaptionCache: Sendable {
    static let format = "captions 2"

    /// One caption's entry: where its text is in the file, and where its render and keys
    /// (as written) begin.
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

    private init(file: CacheFile, context: UInt64, entries: [Entry]) {
        self.file = file
        self.context = context
        self.entries = entries
        var byHash: [UInt64: Int32] = [:]
        byHash.reserveCapacity(entries.count)
        for (k, entry) in entries.enumerated() {
            let hash = StableHash.fnv1a(UnsafeRawBufferPointer(rebasing: file.mapping[entry.caption]))
            if byHash[hash] == nil { byHash[hash] = Int32(k) }
        }
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
            entries.reserveCapacity(min(count, 1 << 22))
            for _ in 0..<count {
                let length = try reader.length()
                let start = reader.offset
                _ = try reader.bytes(length)
                let rest = reader.offset
                try reader.skipString()  // html
                try reader.skipString()  // excerpt
                for _ in 0..<(try reader.length()) { try reader.skipString() }  // keys
                entries.append(Entry(caption: start..<start + length, rest: rest))
            }
            guard reader.isAtEnd else { return nil }
            return CaptionCache(file: file, context: context, entries: entries)
        } catch {
            return nil
        }
    }

    /// The entry of `caption`: the one with the same bytes.
    private func entry(_ caption: String) -> Int? {
        var caption = caption
        return caption.withUTF8 { utf8 -> Int? in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard let k = byHash[StableHash.fnv1a(bytes)].map(Int.init),
                mapping[entries[k].caption].elementsEqual(bytes)
            else { return nil }
            return k
        }
    }

    /// Entry `k`'s render and keys, as written.
    private func reader(after k: Int) -> ByteReader {
        var reader = ByteReader(mapping)
        _ = try? reader.bytes(entries[k].rest)
        return reader
    }

    /// The search keys of `caption`, when known.
    func keys(_ caption: String) -> [String]? {
        guard let k = entry(caption) else { return nil }
        var reader = reader(after: k)
        guard (try? reader.skipString()) != nil, (try? reader.skipString()) != nil else { return nil }  // html, excerpt
        return try? reader.strings()
    }

    /// The render of `caption` in `context`, when known.
    func render(_ caption: String, context: UInt64) -> CaptionRender? {
        guard context == self.context, let k = entry(caption) else { return nil }
        var reader = reader(after: k)
        guard let html = try? reader.string(), let excerpt = try? reader.string() else { return nil }
        return CaptionRender(html: html, excerpt: excerpt)
    }

    /// `render(_:context:)` as a `SiteRenderer` takes it.
    var renders: CaptionRenders { { [self] caption, context in render(caption, context: context) } }

    /// The indices of `captions` whose bytes no earlier one has, in order.
    static func distinct(_ captions: [String]) -> [Int] {
        var seen: [UInt64: [Int]] = [:]
        seen.reserveCapacity(captions.count)
        return captions.indices.filter { t in
            var caption = captions[t]
            let hash = caption.withUTF8 { StableHash.fnv1a(UnsafeRawBufferPointer($0)) }
            if let earlier = seen[hash], earlier.contains(where: { sameBytes(captions[$0], caption) }) {
                return false
            }
            seen[hash, default: []].append(t)
            return true
        }
    }

    /// How many of the distinct captions `captions[distinct]` the cache lacks, or how many
    /// entries it holds that are none of them, whichever is more (an edited caption is one of
    /// each); nil when its renders were made in another context (then none of it serves).
    func drift(_ captions: [String], distinct: [Int], context: UInt64) -> Int? {
        guard context == self.context else { return nil }
        var used = [Bool](repeating: false, count: entries.count)
        var missing = 0
        for t in distinct {
            if let k = entry(captions[t]) { used[k] = true } else { missing += 1 }
        }
        return max(missing, used.count { !$0 })
    }

    /// Writes the cache of `identity` at `path`: each of the distinct captions
    /// `captions[distinct]` with its keys and render (`renders(t)`).
    static func write(
        path: String, identity: StoreIdentity, context: UInt64, captions: [String], distinct: [Int],
        keys: [[String]], renders: (Int) -> CaptionRender
    ) throws(BuildError) {
        let file = try CacheFileWriter(path: path, header: header(identity: identity))
        do throws(BuildError) {
            try file.append {
                $0.append(context)
                $0.append(length: distinct.count)
            }
            for t in distinct {
                let render = renders(t)
                try file.append {
                    $0.append(captions[t])
                    $0.append(render.html)
                    $0.append(render.excerpt)
                    $0.append(keys[t])
                }
            }
        } catch {
            file.abandon()
            throw error
        }
        try file.finish()
    }
}
