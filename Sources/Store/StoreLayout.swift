import Support

/// A digest of which names a directory store holds where, and what kind each is (file,
/// folder, link, other), without sizes or times: what decides which document files a read
/// finds, which it notes as skipped and which document folders lack their file.
///
/// The stamp walk (`StoreStamp`) and the reader (`DirectoryStore`) each make one from their
/// own listing. When a cache's list of document files was made by a read whose layout equals
/// this walk's, the store still has exactly those files, and a rebuild need not list the
/// store again: it reads the files whose stamps moved and takes the rest from the cache.
///
/// Order-independent (sums and xors), so threads may add entries in any order.
public struct StoreLayout: Sendable, Equatable {
    private var sum: UInt64 = 0
    private var xor: UInt64 = 0
    private var count = 0

    public init() {}

    /// The digest, to keep and compare.
    public var value: UInt64 { mix(sum ^ mix(xor)) ^ UInt64(count) }

    /// Adds the entry whose path relative to the store hashes to `pathHash` (FNV-1a).
    /// Entries that vanished while listed (`.missing`) are left out.
    mutating func add(pathHash: UInt64, kind: FileKind) {
        let code: UInt64
        switch kind {
        case .regular: code = 1
        case .directory: code = 2
        case .symlink: code = 3
        case .other: code = 4
        case .missing: return
        }
        let h = mix(mix(pathHash) ^ code)
        sum = sum &+ h
        xor ^= mix(h &+ 0x9e37_79b9_7f4a_7c15)
        count += 1
    }

    mutating func merge(_ other: StoreLayout) {
        sum = sum &+ other.sum
        xor ^= other.xor
        count += other.count
    }

    private func mix(_ x: UInt64) -> UInt64 { StableHash.splitMix64Finalize(x &+ 0x9e37_79b9_7f4a_7c15) }
}
