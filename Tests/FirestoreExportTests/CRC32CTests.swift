import FirestoreExport
import Foundation
import Testing

/// CRC-32C against its published check values, and its table-driven form against the plain
/// bit-by-bit definition.
@Suite("CRC-32C")
struct CRC32CTests {
    /// The definition, one bit at a time (reflected polynomial 0x82F63B78).
    static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    @Test func theCheckValueAndTheISCSIVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        // RFC 3720, B.4.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map(UInt8.init)) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).reversed().map(UInt8.init)) == 0x113F_DB5C)
    }

    @Test func everyLengthAndSplitAgreesWithTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(CRC32C.checksum(bytes) == Self.bitwise(bytes), "\(count) bytes")
            let cut = count / 3
            let continued = CRC32C.checksum(Array(bytes[cut...]), continuing: CRC32C.checksum(Array(bytes[..<cut])))
            #expect(continued == CRC32C.checksum(bytes))
        }
    }

    /// The masked CRC in the header of the emulator's first record (FULL, 57 bytes), from its bytes.
    @Test func theMaskLevelDBStoresMatchesTheEmulatorsFile() throws {
        let file = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: fixtures + "/kinds/all_namespaces/all_kinds/output-0")))
        let stored = UInt32(file[0]) | UInt32(file[1]) << 8 | UInt32(file[2]) << 16 | UInt32(file[3]) << 24
        let length = Int(file[4]) | Int(file[5]) << 8
        #expect(LevelDBLog.mask(CRC32C.checksum(Array(file[6..<(7 + length)]))) == stored)
        #expect(LevelDBLog.mask(0) == 0xA282_EAD8)
    }
}
