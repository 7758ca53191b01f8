/// A fast, stable, non-cryptographic 64-bit content hash (xxHash64-style, single lane).
///
/// Stable across processes, runs and platforms: input words are read as little-endian
/// and no random seed is used (unlike `Hasher`). Used to decide whether an output file
/// changed since the last build; not for security.
package enum ContentHash {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        var h = p5 &+ UInt64(truncatingIfNeeded: n)
        if let base = bytes.baseAddress {
            var i = 0
            while i + 8 <= n {  // 8 bytes at a time
                let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                h = rotl(h ^ (rotl(w &* p2, 31) &* p1), 27) &* p1 &+ p4
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {  // the last 0–7 bytes, packed little-endian
                tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            if shift > 0 { h = rotl(h ^ (tail &* p5), 11) &* p1 }
        }
        h ^= h >> 33
        h &*= p2  // avalanche
        h ^= h >> 29
        h &*= p3
        h ^= h >> 32
        return h
    }

    package static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }
    package static func hash(_ string: String) -> UInt64 { hash(Array(string.utf8)) }
}
