/// FNV-1a, 64 bits: the same for the same text on every machine and in every run (Swift's
/// `Hasher` is seeded per process). For names made from IDs (handles, URL slugs, shards),
/// never for security.
public enum StableHash {
    /// FNV-1a's starting value (its "offset basis").
    public static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Over the string's own bytes where it has them in one buffer (byte by byte through its
    /// UTF-8 view was a fifth of the stamp walk's time outside the kernel).
    @inlinable
    public static func fnv1a(_ text: String, offset: UInt64 = fnvOffset) -> UInt64 {
        text.utf8.withContiguousStorageIfAvailable { fnv1a($0, offset: offset) } ?? fnv1a(text.utf8, offset: offset)
    }

    /// Over raw bytes (a mapped cache's paths, a folder listing's names): a loop over the
    /// buffer, where the generic version below was left unspecialized at some call sites and
    /// stepped through the sequence's witnesses byte by byte.
    @inlinable
    public static func fnv1a(_ bytes: UnsafeRawBufferPointer, offset: UInt64 = fnvOffset) -> UInt64 {
        var hash = offset
        for i in 0..<bytes.count { hash = fnv1a(hash, bytes[i]) }
        return hash
    }

    @inlinable
    public static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>, offset: UInt64 = fnvOffset) -> UInt64 {
        fnv1a(UnsafeRawBufferPointer(bytes), offset: offset)
    }

    @inlinable
    public static func fnv1a(_ bytes: some Sequence<UInt8>, offset: UInt64 = fnvOffset) -> UInt64 {
        var hash = offset
        for byte in bytes { hash = fnv1a(hash, byte) }
        return hash
    }

    /// One step of FNV-1a: `hash` continued with `byte` (for hashes built up piece by piece).
    @inlinable @inline(__always)
    public static func fnv1a(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// SplitMix64's finalizer: every input bit affects every output bit, so similar inputs
    /// (FNV-1a of similar names, say) give unrelated outputs.
    @inlinable @inline(__always)
    public static func splitMix64Finalize(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// `Hasher`'s interface with `StableHash`'s promise: the same values give the same result in
/// every run (on machines of one byte order), so fingerprints can be stored and compared by a
/// later build. Eight bytes at a time, multiply and fold: fast enough to fingerprint every
/// caption of a large store on each build.
public struct StableHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 32
    }

    public mutating func combine(_ value: UInt64) { mix(value) }
    public mutating func combine(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }
    public mutating func combine(_ value: Bool) { mix(value ? 1 : 0) }
    public mutating func combine(_ value: Double) { mix(value.bitPattern) }

    /// Raw bytes, then their count (so neighbouring values cannot run together).
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        mix(tail)
        mix(UInt64(bytes.count))
    }

    public mutating func combine(bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }

    /// The UTF-8 bytes and their count, so `"ab", "c"` and `"a", "bc"` differ.
    public mutating func combine(_ value: String) {
        var value = value
        value.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ value: String?) {
        if let value {
            mix(1)
            combine(value)
        } else {
            mix(0)
        }
    }

    public mutating func combine(_ value: Int?) {
        if let value {
            mix(1)
            combine(value)
        } else {
            mix(0)
        }
    }

    public mutating func combine(_ value: Double?) {
        if let value {
            mix(1)
            combine(value)
        } else {
            mix(0)
        }
    }

    public func finalize() -> Int { Int(bitPattern: UInt(state)) }
}
