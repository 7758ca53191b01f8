import Support

/// Positions by a path's 64-bit hash (FNV-1a of its bytes), in one open-addressed table of
/// one word a slot: the hash is a hash already, so it is not hashed again (a `Dictionary`
/// runs SipHash over it at each of a rebuild's tens of thousands of look-ups).
///
/// A slot keeps the hash's top 32 bits, not all of it, and those bits alone place it: a
/// position found is a candidate its caller checks against the path, and of two hashes that
/// share them, the second is not recorded (its caller finds it by other means, as one whose
/// hash another took).
struct PathHashTable: Sendable {
    /// 0: free; else the hash's top 32 bits, then the position plus one.
    private var slots: [UInt64]
    private let mask: Int
    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000

    /// Room for `count` hashes, at most three quarters full.
    init(capacity count: Int) {
        var size = 16
        while size * 3 < count * 4 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// Records `position` for `hash`, unless a hash with its top bits has one already.
    mutating func insert(_ hash: UInt64, position: Int32) {
        let tag = hash & Self.tagMask
        var s = Self.start(hash) & mask
        while slots[s] != 0 {
            if slots[s] & Self.tagMask == tag { return }
            s = (s + 1) & mask
        }
        slots[s] = tag | UInt64(UInt32(position) + 1)
    }

    /// The position recorded for `hash` (or for one with its top bits), if any.
    subscript(hash: UInt64) -> Int? {
        let tag = hash & Self.tagMask
        return slots.withUnsafeBufferPointer { slots in
            var s = Self.start(hash) & mask
            while slots[s] != 0 {
                if slots[s] & Self.tagMask == tag { return Int(slots[s] & 0xFFFF_FFFF) - 1 }
                s = (s + 1) & mask
            }
            return nil
        }
    }

    /// Where a hash's probe starts: its top bits mixed, so that hashes alike in some bits spread.
    private static func start(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: StableHash.splitMix64Finalize(hash >> 32))
    }
}
