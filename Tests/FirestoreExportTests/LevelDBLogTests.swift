import FirestoreExport
import Foundation
import Testing

/// The log format: records of every size put together from their fragments, block tails and
/// zero blocks stepped over, offsets inside a record placed in its file, and each kind of
/// damage an error at its byte.
@Suite("LevelDB log files")
struct LevelDBLogTests {
    static func records(_ bytes: [UInt8]) throws(ExportDamage) -> [[UInt8]] {
        try LevelDBLog.records(in: bytes).map { Array($0.payload) }
    }

    static func damage(_ bytes: [UInt8]) -> ExportDamage? {
        do {
            _ = try LevelDBLog.records(in: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func recordsOfEverySizeComeBackWhole() throws {
        let block = LevelDBLog.blockSize - LevelDBLog.headerSize
        let sizes = [0, 1, 100, block, block + 1, 3 * block + 5, 200_000, 0, 10]
        var writer = LogWriter()
        let records = sizes.enumerated().map { k, size in (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + k) } }
        for record in records { writer.append(record) }
        #expect(try Self.records(writer.bytes) == records)
        #expect(try LevelDBLog.records(in: writer.bytes).map(\.offset) == writer.offsets)
        #expect(try Self.records([]) == [])
    }

    @Test func aBlockTailShorterThanAHeaderIsPadding() throws {
        var writer = LogWriter()
        let first = [UInt8](repeating: 1, count: LevelDBLog.blockSize - LevelDBLog.headerSize - 3)
        writer.append(first)  // 3 bytes of the block left: padding
        writer.append([2, 2])
        #expect(writer.bytes.count == LevelDBLog.blockSize + LevelDBLog.headerSize + 2)
        #expect(try Self.records(writer.bytes) == [first, [2, 2]])
    }

    @Test func aZeroHeaderPadsTheRestOfItsBlock() throws {
        var writer = LogWriter()
        writer.append([1])
        writer.appendRaw([UInt8](repeating: 0, count: LevelDBLog.blockSize - writer.bytes.count))  // a flush
        writer.append([2])
        writer.appendRaw([UInt8](repeating: 0, count: 100))  // a last block padded, as an output writer's close
        #expect(try Self.records(writer.bytes) == [[1], [2]])
    }

    @Test func anOffsetInsideARecordInFragmentsIsPlacedInItsFile() throws {
        var writer = LogWriter()
        writer.append([9, 9, 9])
        writer.append([UInt8](repeating: 5, count: 70_000))
        let record = try LevelDBLog.records(in: writer.bytes)[1]
        let header = LevelDBLog.headerSize
        let firstPiece = LevelDBLog.blockSize - (10 + header)
        #expect(record.offset == 10)
        #expect(record.fileOffset(ofByte: 0) == 10 + header)
        #expect(record.fileOffset(ofByte: firstPiece) == LevelDBLog.blockSize + header)
        #expect(record.fileOffset(ofByte: firstPiece + 5) == LevelDBLog.blockSize + header + 5)
        #expect(
            record.fileOffset(ofByte: firstPiece + LevelDBLog.blockSize - header) == 2 * LevelDBLog.blockSize + header)
    }

    /// Two records, the second at byte 12: a byte flipped in each part of its header and in its bytes.
    @Test func aFlippedByteAnywhereIsAnError() {
        var writer = LogWriter()
        writer.append([1, 2, 3, 4, 5])
        writer.append(Array("a record".utf8))
        let second = writer.offsets[1]
        #expect(second == 12)
        func flipped(_ k: Int) -> [UInt8] {
            var bytes = writer.bytes
            bytes[k] ^= 0x40
            return bytes
        }
        for k in [second, second + 3] {  // the checksum
            #expect(Self.damage(flipped(k))?.offset == second)
            #expect(Self.damage(flipped(k))?.detail.hasPrefix("checksum mismatch: the header says 0x") == true)
        }
        #expect(Self.damage(flipped(second + 6))?.detail.hasPrefix("checksum mismatch") == true)  // the type
        #expect(Self.damage(flipped(second + 10))?.detail.hasPrefix("checksum mismatch") == true)  // the bytes
        // The length: longer than the file, or than the block.
        #expect(
            Self.damage(flipped(second + 4))
                == ExportDamage(at: second, "the file ends inside a record: its header gives 72 bytes, 8 follow"))
        var tooLong = writer.bytes
        tooLong[second + 5] ^= 0x80
        #expect(
            Self.damage(tooLong)
                == ExportDamage(at: second, "a record of 32776 bytes runs past the end of its block (32749 bytes left)")
        )
    }

    @Test func aFileCutInsideARecordOrItsHeaderIsAnError() {
        var writer = LogWriter()
        writer.append([1, 2, 3])
        writer.append([UInt8](repeating: 4, count: 50))
        #expect(
            Self.damage(Array(writer.bytes.dropLast(10)))
                == ExportDamage(at: 10, "the file ends inside a record: its header gives 50 bytes, 40 follow"))
        #expect(
            Self.damage(Array(writer.bytes.prefix(13)))
                == ExportDamage(at: 10, "the file ends inside a record header (3 of 7 bytes)"))
        var long = LogWriter()
        long.append([UInt8](repeating: 7, count: 40_000))
        #expect(
            Self.damage(Array(long.bytes.prefix(LevelDBLog.blockSize)))
                == ExportDamage(
                    at: 0, "the file ends inside a record cut into fragments: its last fragment is missing"))
    }

    @Test func fragmentsOutOfOrderAndUnknownTypesAreErrors() {
        var middle = LogWriter()
        middle.appendFragment([1], type: 3)
        #expect(Self.damage(middle.bytes) == ExportDamage(at: 0, "a record's middle fragment without its first"))
        var last = LogWriter()
        last.appendFragment([1], type: 4)
        #expect(Self.damage(last.bytes) == ExportDamage(at: 0, "a record's last fragment without its first"))
        var twoFirsts = LogWriter()
        twoFirsts.appendFragment([1], type: 2)
        twoFirsts.appendFragment([2], type: 1)
        #expect(
            Self.damage(twoFirsts.bytes)
                == ExportDamage(at: 8, "a new record starts before the record at byte 0 has its last fragment"))
        var unknown = LogWriter()
        unknown.append([1])
        unknown.appendFragment([2], type: 9)
        #expect(
            Self.damage(unknown.bytes)
                == ExportDamage(at: 8, "unknown record type 9 (1 to 4 are full, first, middle, last)"))
    }

    @Test func paddingThatIsNotZeroIsAnError() {
        var writer = LogWriter()
        writer.append([UInt8](repeating: 1, count: LevelDBLog.blockSize - LevelDBLog.headerSize - 3))
        writer.append([2])
        var bytes = writer.bytes
        bytes[LevelDBLog.blockSize - 2] = 1
        #expect(
            Self.damage(bytes)
                == ExportDamage(
                    at: LevelDBLog.blockSize - 2, "a byte that is not zero in the padding of a block's tail"))
    }

    @Test func theEmulatorsFileReadsWithItsRecordInFragments() throws {
        let file = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: fixtures + "/kinds/all_namespaces/all_kinds/output-0")))
        let records = try LevelDBLog.records(in: file)
        #expect(records.count == 15)
        #expect(records.contains { $0.payload.count > LevelDBLog.blockSize })
    }
}
