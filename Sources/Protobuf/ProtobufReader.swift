/// Reads protobuf's wire format field by field over bytes it does not own (they must outlive
/// it): tags, varints (zigzag too), fixed 32- and 64-bit values, length-delimited fields and
/// proto2 groups. Knows no schema: the caller asks for what each field number means. Every
/// read checks its bounds, and an error names the byte where the input is wrong, in the
/// input's offsets (`baseOffset`: where these bytes start in a file, say).
package struct ProtobufReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Where `bytes` starts in the whole input: nested readers keep their parent's offsets.
    package let baseOffset: Int

    package init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    /// The next byte to read, in the input's offsets.
    package var offset: Int { baseOffset + position }
    package var isAtEnd: Bool { position == bytes.count }
    /// The bytes this reader reads (a message, a group's inside, a field's value).
    package var contents: UnsafeRawBufferPointer { bytes }

    // MARK: Tags

    /// The next field's tag, or nil at the end of the bytes. An end-group tag here is an
    /// error: a group's inside is read by the reader `group(_:)` gives, which ends before it.
    package mutating func nextTag() throws(ProtobufError) -> FieldTag? {
        guard let tag = try nextTagOrEndGroup() else { return nil }
        if tag.wireType == .endGroup { throw ProtobufError(.unmatchedEndGroup(field: tag.number), at: tag.offset) }
        return tag
    }

    private mutating func nextTagOrEndGroup() throws(ProtobufError) -> FieldTag? {
        guard !isAtEnd else { return nil }
        let start = offset
        let key = try varint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError(.invalidWireType(UInt8(key & 7)), at: start)
        }
        let number = key >> 3
        guard number >= 1, number <= Self.maxFieldNumber else {
            throw ProtobufError(.invalidFieldNumber(number), at: start)
        }
        return FieldTag(number: Int(number), wireType: wireType, offset: start)
    }

    static let maxFieldNumber: UInt64 = (1 << 29) - 1

    // MARK: Scalars

    /// A base-128 varint: at most ten bytes, the tenth holding only the 64th bit.
    package mutating func varint() throws(ProtobufError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw ProtobufError(.truncated(what: "a varint"), at: start) }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw ProtobufError(.varintTooLong, at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// `int64`, `uint64` as signed, and `enum` values: the varint's bits.
    package mutating func int64() throws(ProtobufError) -> Int64 { Int64(bitPattern: try varint()) }
    /// `int32`: a negative one is written as ten bytes; its low 32 bits are the value.
    package mutating func int32() throws(ProtobufError) -> Int32 { Int32(truncatingIfNeeded: try varint()) }
    package mutating func uint32() throws(ProtobufError) -> UInt32 { UInt32(truncatingIfNeeded: try varint()) }
    package mutating func bool() throws(ProtobufError) -> Bool { try varint() != 0 }

    /// `sint64`: zigzag, so that small negative numbers take few bytes.
    package mutating func sint64() throws(ProtobufError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    package mutating func sint32() throws(ProtobufError) -> Int32 { Int32(truncatingIfNeeded: try sint64()) }

    /// Eight bytes, little-endian (`fixed64`, `sfixed64`, `double`).
    package mutating func fixed64() throws(ProtobufError) -> UInt64 {
        let raw = try take(8, what: "a fixed64 value")
        var value: UInt64 = 0
        for k in (0..<8).reversed() { value = value << 8 | UInt64(raw[k]) }
        return value
    }

    /// Four bytes, little-endian (`fixed32`, `sfixed32`, `float`).
    package mutating func fixed32() throws(ProtobufError) -> UInt32 {
        let raw = try take(4, what: "a fixed32 value")
        var value: UInt32 = 0
        for k in (0..<4).reversed() { value = value << 8 | UInt32(raw[k]) }
        return value
    }

    package mutating func double() throws(ProtobufError) -> Double { Double(bitPattern: try fixed64()) }
    package mutating func float() throws(ProtobufError) -> Float { Float(bitPattern: try fixed32()) }

    // MARK: Length-delimited fields

    /// A length-delimited field's value (a message, a string, bytes, a packed array) as a
    /// reader of its own, with this reader's offsets.
    package mutating func lengthDelimited() throws(ProtobufError) -> ProtobufReader {
        let start = offset
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else {
            throw ProtobufError(.lengthOverrun(length: length, remaining: bytes.count - position), at: start)
        }
        let begin = offset
        let inside = try take(Int(length), what: "a length-delimited field")
        return ProtobufReader(inside, baseOffset: begin)
    }

    /// A length-delimited field's bytes, copied.
    package mutating func bytesValue() throws(ProtobufError) -> [UInt8] { Array(try lengthDelimited().bytes) }

    /// A `string` field: its bytes must be UTF-8.
    package mutating func string() throws(ProtobufError) -> String {
        let value = try lengthDelimited()
        guard let text = Self.utf8String(value.bytes) else { throw ProtobufError(.invalidUTF8, at: value.baseOffset) }
        return text
    }

    /// `bytes` as a string, or nil when they are not UTF-8. ASCII, most of what a message
    /// holds, is checked eight bytes at a time and taken as it is; only other text goes
    /// through the standard library's validation (which costs a generic call each).
    package static func utf8String(_ bytes: UnsafeRawBufferPointer) -> String? {
        var k = 0
        var high: UInt64 = 0
        while bytes.count - k >= 8 {
            high |= bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        while k < bytes.count {
            high |= UInt64(bytes[k])
            k += 1
        }
        if high & 0x8080_8080_8080_8080 == 0 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    // MARK: Groups

    /// The inside of the group `tag` starts (proto2): a reader of the fields up to its end
    /// tag, which this reader then stands after.
    package mutating func group(_ tag: FieldTag) throws(ProtobufError) -> ProtobufReader {
        try tag.require(.startGroup)
        let begin = position
        let end = try skipGroup(tag)
        return ProtobufReader(UnsafeRawBufferPointer(rebasing: bytes[begin..<end]), baseOffset: baseOffset + begin)
    }

    /// Steps over the group `tag` starts, nested groups too (without recursion: a hostile
    /// input cannot exhaust the stack); returns where its end tag starts.
    private mutating func skipGroup(_ tag: FieldTag) throws(ProtobufError) -> Int {
        var open = [tag.number]
        while let last = open.last {
            let before = position
            guard let inner = try nextTagOrEndGroup() else {
                throw ProtobufError(.unterminatedGroup(field: last), at: tag.offset)
            }
            switch inner.wireType {
            case .startGroup:
                open.append(inner.number)
            case .endGroup:
                guard inner.number == last else {
                    throw ProtobufError(.mismatchedEndGroup(open: last, found: inner.number), at: inner.offset)
                }
                open.removeLast()
                if open.isEmpty { return before }
            default:
                try skipValue(inner)
            }
        }
        return position
    }

    // MARK: Skipping

    /// Steps over the value of the field `tag` read (a field the caller does not know).
    package mutating func skip(_ tag: FieldTag) throws(ProtobufError) {
        if tag.wireType == .startGroup {
            _ = try skipGroup(tag)
        } else {
            try skipValue(tag)
        }
    }

    private mutating func skipValue(_ tag: FieldTag) throws(ProtobufError) {
        switch tag.wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try take(8, what: "a fixed64 value")
        case .fixed32: _ = try take(4, what: "a fixed32 value")
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup: _ = try skipGroup(tag)
        case .endGroup: throw ProtobufError(.unmatchedEndGroup(field: tag.number), at: tag.offset)
        }
    }

    private mutating func take(_ count: Int, what: String) throws(ProtobufError) -> UnsafeRawBufferPointer {
        guard bytes.count - position >= count else { throw ProtobufError(.truncated(what: what), at: offset) }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }
}
