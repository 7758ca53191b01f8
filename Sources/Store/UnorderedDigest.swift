import Support

/// A digest of a set of 64-bit entry hashes that does not depend on the order they come in
/// (a sum and an xor, which commute): threads that walk a store in parts may add them in any
/// order, and merge.
struct UnorderedDigest {
    private var sum: UInt64 = 0
    private var xor: UInt64 = 0
    /// Entries added.
    private(set) var count = 0

    var value: UInt64 { Self.mix(sum ^ Self.mix(xor)) ^ UInt64(count) }

    mutating func add(_ entryHash: UInt64) {
        sum = sum &+ entryHash
        xor ^= Self.mix(entryHash &+ SplitMix64.increment)
        count += 1
    }

    mutating func merge(_ other: UnorderedDigest) {
        sum = sum &+ other.sum
        xor ^= other.xor
        count += other.count
    }

    /// One SplitMix64 step: the golden-ratio increment, then the finalizer.
    @inline(__always) static func mix(_ x: UInt64) -> UInt64 { SplitMix64.step(x) }
}
