import Support

/// The stamp of every regular file a `StoreStamp` walk saw: a cached read after the walk
/// takes each file's stamp from here instead of stat-ing it again.
///
/// Files are known by the FNV-1a hash of their path relative to the store, which the walk
/// computes anyway; no path string is made, and the stamps sit in one array sorted by hash
/// (40 bytes a file, no dictionary). A hash two walked files share is dropped (both are
/// stat-ed again). A stamp here may be older than the file by the time it is read, or (a
/// file created since the walk, with a colliding hash) another file's; both are safe for a
/// cache keyed by path and stamp: no entry matches, the file is read, and the next build
/// sees its real stamp.
public struct StoreFileStamps: Sendable {
    /// One file as the walk saw it: the hash of its relative path, and its stamp.
    typealias Recorded = (pathHash: UInt64, stamp: FileStamp)

    /// As the walk's threads recorded them; sorted on first use (`index()`), which a build
    /// that finds nothing changed never needs.
    private let chunks: [[Recorded]]

    init(chunks: [[Recorded]]) { self.chunks = chunks }

    /// How many files were recorded.
    public var count: Int { chunks.reduce(0) { $0 + $1.count } }

    /// The stamps, ready to be found by path.
    public func index() -> Index { Index(chunks) }

    public struct Index: Sendable {
        /// By `pathHash`, without repeated hashes.
        private let sorted: [Recorded]

        init(_ chunks: [[Recorded]]) {
            var all: [Recorded] = []
            all.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks { all.append(contentsOf: chunk) }
            all.sort { $0.pathHash < $1.pathHash }
            var unique: [Recorded] = []
            unique.reserveCapacity(all.count)
            var k = 0
            while k < all.count {
                var end = k + 1
                while end < all.count && all[end].pathHash == all[k].pathHash { end += 1 }
                if end == k + 1 { unique.append(all[k]) }
                k = end
            }
            sorted = unique
        }

        /// How many files can be found (those whose hash no other file shares).
        public var count: Int { sorted.count }

        /// The stamp of the file at `relative` (`users/u1/likes/t1.json`), if the walk saw it.
        public subscript(relative: String) -> FileStamp? { self[pathHash: StableHash.fnv1a(relative)] }

        /// The stamp of the file whose relative path hashes (FNV-1a) to `hash`, if the walk saw it.
        public subscript(pathHash hash: UInt64) -> FileStamp? {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].pathHash < hash { low = middle + 1 } else { high = middle }
            }
            return low < sorted.count && sorted[low].pathHash == hash ? sorted[low].stamp : nil
        }
    }
}
