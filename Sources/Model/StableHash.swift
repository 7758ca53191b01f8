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
