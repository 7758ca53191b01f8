/// CRC-32C (Castagnoli: the reflected polynomial 0x82F63B78), which LevelDB's log format
/// checks each record with. Slicing by eight: eight tables of 256 entries, eight bytes a step,
/// so that checking every record of a large export costs little beside reading it.
package enum CRC32C {
    /// The CRC of `bytes`, continuing from `crc` (the CRC of the bytes before them; 0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var state = ~crc
        var k = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { t in
            while count - k >= 8 {
                let low =
                    state
                    ^ (UInt32(bytes[k]) | UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k + 2]) << 16
                        | UInt32(bytes[k + 3]) << 24)
                state =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(bytes[k + 4])] ^ t[2 * 256 + Int(bytes[k + 5])]
                    ^ t[1 * 256 + Int(bytes[k + 6])] ^ t[Int(bytes[k + 7])]
                k += 8
            }
            while k < count {
                state = t[Int((state ^ UInt32(bytes[k])) & 0xFF)] ^ (state >> 8)
                k += 1
            }
        }
        return ~state
    }

    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// Table `n` (at `n * 256`) holds the CRC of a byte followed by `n` zero bytes.
    private static let tables: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            table[byte] = crc
        }
        for n in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(n - 1) * 256 + byte]
                table[n * 256 + byte] = table[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return table
    }()
}
