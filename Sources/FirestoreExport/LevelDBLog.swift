/// LevelDB's log format, as export files are written in it: 32 KiB blocks of records, each a
/// 7-byte header (a masked CRC-32C of its type and bytes, a 16-bit length, a type) and its
/// bytes; a record too long for its block is cut into a first, middle and last fragment in
/// the blocks that follow. A block's tail too short for a header is zero padding, and so is a
/// block's rest after an all-zero header (a writer's flush).
///
/// Every record is checked: a bad checksum, a length past its block, a fragment out of order,
/// an unknown type or a file that ends inside a record is an error at its byte, never a record
/// left out.
package enum LevelDBLog {
    package static let blockSize = 32_768
    package static let headerSize = 7

    /// The kinds of fragment a header names.
    package enum RecordType: UInt8, Sendable {
        case full = 1
        case first = 2
        case middle = 3
        case last = 4
    }

    /// Every record of the log `file`, in order.
    package static func records(in file: [UInt8]) throws(ExportDamage) -> [LogRecord] {
        var records: [LogRecord] = []
        var pending: PendingRecord?
        var position = 0
        while position < file.count {
            let blockEnd = (position / blockSize + 1) * blockSize
            if blockEnd - position < headerSize {
                try checkPadding(file, from: position, to: min(blockEnd, file.count), why: "a block's tail")
                position = blockEnd
                continue
            }
            guard file.count - position >= headerSize else {
                throw ExportDamage(
                    at: position, "the file ends inside a record header (\(file.count - position) of 7 bytes)")
            }
            let header = Header(file, at: position)
            if header.isZero {
                try checkPadding(
                    file, from: position, to: min(blockEnd, file.count), why: "a block after a zero header")
                position = blockEnd
                continue
            }
            let start = position + headerSize
            let end = start + header.length
            guard end <= blockEnd else {
                throw ExportDamage(
                    at: position,
                    "a record of \(header.length) bytes runs past the end of its block (\(blockEnd - start) bytes left)"
                )
            }
            guard end <= file.count else {
                throw ExportDamage(
                    at: position,
                    "the file ends inside a record: its header gives \(header.length) bytes, "
                        + "\(file.count - start) follow")
            }
            let computed = file.withUnsafeBytes { raw in
                let type = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[position + 6..<position + 7]))
                return CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[start..<end]), continuing: type)
            }
            guard mask(computed) == header.maskedCRC else {
                throw ExportDamage(
                    at: position,
                    "checksum mismatch: the header says \(hex(header.maskedCRC)), the record's bytes give "
                        + hex(mask(computed)))
            }
            guard let type = RecordType(rawValue: header.type) else {
                throw ExportDamage(
                    at: position, "unknown record type \(header.type) (1 to 4 are full, first, middle, last)")
            }
            try assemble(type, file, start..<end, header: position, into: &records, pending: &pending)
            position = end
        }
        if let pending {
            throw ExportDamage(
                at: pending.offset, "the file ends inside a record cut into fragments: its last fragment is missing")
        }
        return records
    }

    /// A record in fragments, being put together.
    private struct PendingRecord {
        let offset: Int
        var bytes: [UInt8]
        var pieces: [LogRecord.Piece]
    }

    /// Adds the fragment at `range` (its header at `header`) to the records.
    private static func assemble(
        _ type: RecordType, _ file: [UInt8], _ range: Range<Int>, header: Int, into records: inout [LogRecord],
        pending: inout PendingRecord?
    ) throws(ExportDamage) {
        switch type {
        case .full, .first:
            if let open = pending {
                throw ExportDamage(
                    at: header, "a new record starts before the record at byte \(open.offset) has its last fragment")
            }
            if type == .full {
                records.append(LogRecord(offset: header, payload: file[range], start: range.lowerBound))
            } else {
                pending = PendingRecord(
                    offset: header, bytes: Array(file[range]), pieces: [LogRecord.Piece(at: 0, file: range.lowerBound)])
            }
        case .middle, .last:
            guard var open = pending else {
                throw ExportDamage(
                    at: header, "a record's \(type == .middle ? "middle" : "last") fragment without its first")
            }
            open.pieces.append(LogRecord.Piece(at: open.bytes.count, file: range.lowerBound))
            open.bytes.append(contentsOf: file[range])
            if type == .last {
                records.append(LogRecord(offset: open.offset, payload: open.bytes[...], pieces: open.pieces))
                pending = nil
            } else {
                pending = open
            }
        }
    }

    /// Throws unless `file[from..<to]` is zeros.
    private static func checkPadding(_ file: [UInt8], from: Int, to: Int, why: String) throws(ExportDamage) {
        if let nonzero = file[from..<to].firstIndex(where: { $0 != 0 }) {
            throw ExportDamage(at: nonzero, "a byte that is not zero in the padding of \(why)")
        }
    }

    /// The CRC as LevelDB stores it: rotated and offset, so that a CRC of bytes holding CRCs
    /// is not itself easy to get wrong.
    package static func mask(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// A record header, read at a byte.
    private struct Header {
        let maskedCRC: UInt32
        let length: Int
        let type: UInt8

        init(_ file: [UInt8], at k: Int) {
            maskedCRC =
                UInt32(file[k]) | UInt32(file[k + 1]) << 8 | UInt32(file[k + 2]) << 16 | UInt32(file[k + 3]) << 24
            length = Int(file[k + 4]) | Int(file[k + 5]) << 8
            type = file[k + 6]
        }

        var isZero: Bool { maskedCRC == 0 && length == 0 && type == 0 }
    }
}

/// One record of a log file, its fragments put together.
package struct LogRecord: Sendable {
    /// Where the record's (first) header starts in the file.
    package let offset: Int
    /// The record's bytes: a slice of the file for a whole record, a copy of its fragments'
    /// bytes for one in fragments.
    package let payload: ArraySlice<UInt8>
    /// Where the bytes start in the file, for a whole record.
    private let start: Int
    /// For a record in fragments, where each fragment's bytes are in the record and in the file.
    private let pieces: [Piece]

    struct Piece: Sendable {
        /// The fragment's first byte in the record, and in the file.
        let at: Int
        let file: Int
    }

    init(offset: Int, payload: ArraySlice<UInt8>, start: Int) {
        self.offset = offset
        self.payload = payload
        self.start = start
        pieces = []
    }

    init(offset: Int, payload: ArraySlice<UInt8>, pieces: [Piece]) {
        self.offset = offset
        self.payload = payload
        start = pieces.first?.file ?? offset
        self.pieces = pieces
    }

    /// The file offset of the record's `k`th byte (its end, for `k` = its count).
    package func fileOffset(ofByte k: Int) -> Int {
        guard let piece = pieces.last(where: { $0.at <= k }) else { return start + k }
        return piece.file + (k - piece.at)
    }
}
