import Support

/// The stamp of every regular file a `StoreStamp` walk saw: a cached read after the walk
/// takes each file's stamp from here instead of stat-ing it again.
///
/// Files are known by the FNV-1a hash of their path relative to the store, which the walk
/// computes anyway; no path string is made. A hash two walked files share is dropped (both
/// are stat-ed again). A stamp here may be older than the file by the time it is read, or
/// (a file created since the walk, with a colliding hash) another file's; both are safe for
/// a cache keyed by path and stamp: no entry matches, the file is read, and the next build
/// sees its real stamp.
public struct StoreFileStamps: Sendable {
    /// One file as the walk saw it: the hash of its relative path, and its stamp.
    typealias Recorded = (pathHash: UInt64, stamp: FileStamp)

    /// As the walk's threads recorded them; indexed on first use (`index()`), which a build
    /// that finds nothing changed never needs.
    private let chunks: [[Recorded]]

    init(chunks: [[Recorded]]) { self.chunks = chunks }

    /// How many files were recorded.
    public var count: Int { chunks.reduce(0) { $0 + $1.count } }

    /// The recorded stamps, ready to be looked up by path.
    public func index() -> Index {
        var byHash: [UInt64: FileStamp] = [:]
        byHash.reserveCapacity(count)
        var shared: Set<UInt64> = []
        for chunk in chunks {
            for file in chunk where byHash.updateValue(file.stamp, forKey: file.pathHash) != nil {
                shared.insert(file.pathHash)
            }
        }
        for hash in shared { byHash[hash] = nil }
        return Index(byHash: byHash)
    }

    public struct Index: Sendable {
        let byHash: [UInt64: FileStamp]

        /// The stamp of the file at `relative` (`users/u1/likes/t1.json`), if the walk saw it.
        public subscript(relative: String) -> FileStamp? { byHash[StableHash.fnv1a(relative)] }
    }
}
