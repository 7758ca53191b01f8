import Foundation
import TestSupport
import Testing

@testable import Build

/// A cache file's checksum is the same whether its bytes were hashed as they were written,
/// in parts of any size, or as a whole file block by block on all cores; any byte changed
/// changes it.
@Suite("Cache file checksum")
struct CacheFileTests {
    static func bytes(_ count: Int) -> [UInt8] {
        var random = SeededGenerator(seed: UInt64(count))
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// The checksum of `bytes` given in parts of `part` bytes, as a writer hashes them.
    static func streamed(_ bytes: [UInt8], part: Int) -> UInt64 {
        var sum = CacheFile.Checksum()
        var offset = 0
        var pending: [UInt8] = []
        while offset < bytes.count {
            pending += bytes[offset..<min(bytes.count, offset + part)]
            offset += part
            let whole = pending.count / 8 * 8
            pending.withUnsafeBytes { sum.add(UnsafeRawBufferPointer(rebasing: $0[..<whole])) }
            pending.removeFirst(whole)
        }
        return pending.withUnsafeBytes { sum.finish(tail: $0) }
    }

    @Test(arguments: [
        0, 7, 8, 4099, CacheFile.Checksum.blockSize, CacheFile.Checksum.blockSize + 5,
        3 * CacheFile.Checksum.blockSize - 3,
    ])
    func streamedAndWholeAgree(count: Int) {
        let bytes = Self.bytes(count)
        let whole = bytes.withUnsafeBytes { CacheFile.checksum($0) }
        for part in [1000, 65536, 1 << 21] {
            #expect(Self.streamed(bytes, part: part) == whole, "parts of \(part)")
        }
    }

    @Test func anyByteChangedChangesIt() {
        var bytes = Self.bytes(2 * CacheFile.Checksum.blockSize + 11)
        let before = bytes.withUnsafeBytes { CacheFile.checksum($0) }
        for at in [0, CacheFile.Checksum.blockSize - 1, CacheFile.Checksum.blockSize, bytes.count - 1] {
            bytes[at] ^= 1
            #expect(bytes.withUnsafeBytes { CacheFile.checksum($0) } != before, "byte \(at)")
            bytes[at] ^= 1
        }
        #expect(bytes.withUnsafeBytes { CacheFile.checksum($0) } == before)
        bytes.append(0)
        #expect(bytes.withUnsafeBytes { CacheFile.checksum($0) } != before, "a byte more")
    }

    /// Words are hashed in four lanes: two words swapped, of one lane or of two, change it.
    @Test(arguments: [1, 4, 8]) func twoWordsSwappedChangeIt(apart: Int) {
        var bytes = Self.bytes(4099)
        let before = bytes.withUnsafeBytes { CacheFile.checksum($0) }
        let (a, b) = (16 * 8, (16 + apart) * 8)
        for k in 0..<8 { bytes.swapAt(a + k, b + k) }
        #expect(bytes[a..<a + 8] != bytes[b..<b + 8])
        #expect(bytes.withUnsafeBytes { CacheFile.checksum($0) } != before)
    }
}
