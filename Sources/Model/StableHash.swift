/// FNV-1a, 64 bits: the same for the same text on every machine and in every run (Swift's
/// `Hasher` is seeded per process). For names made from IDs (handles, URL slugs, shards),
/// never for security.
public enum StableHash {
    public static func fnv1a(_ text: String, offset: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = offset
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// `Hasher`'s interface with `StableHash`'s promise: the same values give the same result in
/// every run, so fingerprints can be stored and compared by a later build.
public struct StableHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    private mutating func mix(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    public mutating func combine(_ value: UInt64) {
        var v = value
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    public mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }
    public mutating func combine(_ value: Bool) { mix(value ? 1 : 0) }
    public mutating func combine(_ value: Double) { combine(value.bitPattern) }

    /// Raw bytes (then their count, so neighbouring values cannot run together).
    public mutating func combine(bytes: some Sequence<UInt8>) {
        var count = 0
        for byte in bytes { mix(byte); count += 1 }
        combine(count)
    }

    /// The bytes and the length, so `"ab", "c"` and `"a", "bc"` differ.
    public mutating func combine(_ value: String) {
        for byte in value.utf8 { mix(byte) }
        combine(value.utf8.count)
    }

    public mutating func combine(_ value: String?) {
        if let value { mix(1); combine(value) } else { mix(0) }
    }

    public mutating func combine(_ value: Int?) {
        if let value { mix(1); combine(value) } else { mix(0) }
    }

    public mutating func combine(_ value: Double?) {
        if let value { mix(1); combine(value) } else { mix(0) }
    }

    public func finalize() -> Int { Int(bitPattern: UInt(state)) }
}
