import Protobuf
import Testing

/// The reader over bytes it is given: every wire type, groups nested, unknown fields skipped,
/// and each kind of malformed input an error at the byte where it is.
@Suite("Protobuf wire format")
struct ProtobufReaderTests {
    /// What `body` makes of `bytes`, read from offset `base`.
    static func reading<T>(
        _ bytes: [UInt8], base: Int = 0, _ body: (inout ProtobufReader) throws(ProtobufError) -> T
    ) throws(ProtobufError) -> T {
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(ProtobufError) -> T in
                var reader = ProtobufReader(raw, baseOffset: base)
                return try body(&reader)
            }
        }
        return try outcome.get()
    }

    /// The error reading `bytes` with `body` gives, if any.
    static func failure(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws(ProtobufError) -> Void)
        -> ProtobufError?
    {
        do {
            try reading(bytes, body)
            return nil
        } catch {
            return error
        }
    }

    /// Every field of a message, skipped, to the end.
    static func skipAll(_ reader: inout ProtobufReader) throws(ProtobufError) {
        while let tag = try reader.nextTag() { try reader.skip(tag) }
    }

    @Test func varintsOfEveryLengthAndTheirSignedReadings() throws {
        for value: UInt64 in [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 35, UInt64.max] {
            var writer = ProtobufWriter()
            writer.varint(value)
            #expect(try Self.reading(writer.bytes) { (r) throws(ProtobufError) in try r.varint() } == value)
        }
        var writer = ProtobufWriter()
        writer.int64(1, -2)
        writer.sint64(2, -3)
        writer.sint64(3, 3)
        writer.int64(4, Int64(Int32.min))
        writer.bool(5, true)
        #expect(writer.bytes.count == 11 + 2 + 2 + 11 + 2)  // a negative int64 takes ten bytes
        let read = try Self.reading(writer.bytes) { (r) throws(ProtobufError) in
            var values: [Int64] = []
            while let tag = try r.nextTag() {
                try tag.require(.varint)
                switch tag.number {
                case 2, 3: values.append(try r.sint64())
                case 4: values.append(Int64(try r.int32()))
                case 5: values.append(try r.bool() ? 1 : 0)
                default: values.append(try r.int64())
                }
            }
            return values
        }
        #expect(read == [-2, -3, 3, Int64(Int32.min), 1])
    }

    @Test func fixedValuesAreLittleEndian() throws {
        var writer = ProtobufWriter()
        writer.double(1, 1.5)
        writer.fixed32(2, 0x0102_0304)
        #expect(Array(writer.bytes[1..<9]) == [0, 0, 0, 0, 0, 0, 0xF8, 0x3F])
        #expect(Array(writer.bytes[10...]) == [4, 3, 2, 1])
        let (d, f) = try Self.reading(writer.bytes) { (r) throws(ProtobufError) in
            _ = try r.nextTag()
            let d = try r.double()
            _ = try r.nextTag()
            return (d, try r.fixed32())
        }
        #expect(d == 1.5 && f == 0x0102_0304)
    }

    @Test func messagesStringsAndGroupsNestWithTheInputsOffsets() throws {
        var writer = ProtobufWriter()
        writer.string(1, "héllo")
        writer.message(2) { inner in
            inner.varint(1, 7)
            inner.group(3) { group in
                group.string(4, "in a group")
                group.group(5) { $0.varint(6, 9) }
            }
        }
        writer.varint(9, 1)
        let seen = try Self.reading(writer.bytes, base: 1000) { (r) throws(ProtobufError) -> [String] in
            var seen: [String] = []
            while let tag = try r.nextTag() {
                switch tag.number {
                case 1: seen.append("1 at \(tag.offset): \(try r.string())")
                case 2:
                    var message = try r.lengthDelimited()
                    seen.append("2 starts at \(message.offset)")
                    while let inner = try message.nextTag() {
                        if inner.wireType == .startGroup {
                            var group = try message.group(inner)
                            let text = try group.nextTag() != nil ? try group.string() : ""
                            seen.append("group \(inner.number): \(text)")
                            while let deeper = try group.nextTag() { try group.skip(deeper) }
                        } else {
                            seen.append("\(inner.number) = \(try message.varint())")
                        }
                    }
                default:
                    seen.append("\(tag.number) skipped")
                    try r.skip(tag)
                }
            }
            return seen
        }
        #expect(seen == ["1 at 1000: héllo", "2 starts at 1010", "1 = 7", "group 3: in a group", "9 skipped"])
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        var writer = ProtobufWriter()
        writer.varint(1, 300)
        writer.fixed64(2, 1)
        writer.lengthDelimited(3, [1, 2, 3])
        writer.group(4) { $0.group(4) { $0.fixed32(5, 2) } }
        writer.fixed32(6, 3)
        writer.string(7, "last")
        let last = try Self.reading(writer.bytes) { (r) throws(ProtobufError) -> String? in
            while let tag = try r.nextTag() {
                if tag.number == 7 { return try r.string() }
                try r.skip(tag)
            }
            return nil
        }
        #expect(last == "last")
    }

    @Test func stringsAreCheckedAsUTF8InTheirASCIIFastPathToo() {
        func text(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { ProtobufReader.utf8String($0) } }
        #expect(text(Array("plain ASCII, longer than eight bytes".utf8)) == "plain ASCII, longer than eight bytes")
        #expect(text(Array("한글과 ASCII".utf8)) == "한글과 ASCII")
        #expect(text([]) == "")
        #expect(text(Array("sixteen bytes ok".utf8) + [0xFF]) == nil)
        #expect(text([0x61, 0x62, 0xC3]) == nil)  // cut inside a character
        #expect(text(Array("0123456789abcdef".utf8) + [0xED, 0xA0, 0x80]) == nil)  // a surrogate
    }

    @Test func eachKindOfMalformedInputIsAnErrorAtItsByte() {
        let cases: [([UInt8], ProtobufError)] = [
            ([0x08], ProtobufError(.truncated(what: "a varint"), at: 1)),
            ([0x08, 0x80, 0x80], ProtobufError(.truncated(what: "a varint"), at: 1)),
            ([0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x02], ProtobufError(.varintTooLong, at: 1)),
            ([0x0F], ProtobufError(.invalidWireType(7), at: 0)),
            ([0x00], ProtobufError(.invalidFieldNumber(0), at: 0)),
            ([0x09, 1, 2, 3], ProtobufError(.truncated(what: "a fixed64 value"), at: 1)),
            ([0x0D, 1], ProtobufError(.truncated(what: "a fixed32 value"), at: 1)),
            ([0x0A, 0x05, 1, 2], ProtobufError(.lengthOverrun(length: 5, remaining: 2), at: 1)),
            ([0x0C], ProtobufError(.unmatchedEndGroup(field: 1), at: 0)),
            ([0x0B, 0x08, 0x01], ProtobufError(.unterminatedGroup(field: 1), at: 0)),
            ([0x0B, 0x14], ProtobufError(.mismatchedEndGroup(open: 1, found: 2), at: 1)),
        ]
        for (bytes, expected) in cases {
            let error = Self.failure(bytes) { (r) throws(ProtobufError) in try Self.skipAll(&r) }
            #expect(error == expected, "\(bytes)")
        }
        #expect(
            Self.failure([0x0A, 0x02, 0xC3, 0x28]) { (r) throws(ProtobufError) in
                _ = try r.nextTag()
                _ = try r.string()
            } == ProtobufError(.invalidUTF8, at: 2))
        let wrongType = Self.failure([0x08, 0x01]) { (r) throws(ProtobufError) in
            try r.nextTag()?.require(.lengthDelimited)
        }
        #expect(
            wrongType == ProtobufError(.unexpectedWireType(field: 1, found: .varint, expected: .lengthDelimited), at: 0)
        )
        #expect(wrongType?.description == "byte 0: field 1 is varint, expected length-delimited")
    }

    @Test func errorsInsideANestedMessageNameTheInputsByte() {
        var writer = ProtobufWriter()
        writer.string(1, "prefix")
        writer.lengthDelimited(2, [0x08, 0x80])  // a varint cut off inside the message
        let error = Self.failure(writer.bytes) { (r) throws(ProtobufError) in
            while let tag = try r.nextTag() {
                if tag.number == 2 {
                    var inner = try r.lengthDelimited()
                    try Self.skipAll(&inner)
                } else {
                    try r.skip(tag)
                }
            }
        }
        #expect(error == ProtobufError(.truncated(what: "a varint"), at: 11))
        #expect(error?.description == "byte 11: the data ends inside a varint")
    }

    @Test func deeplyNestedGroupsAreSkippedWithoutRecursion() throws {
        let depth = 100_000
        let bytes = [UInt8](repeating: 0x0B, count: depth) + [UInt8](repeating: 0x0C, count: depth) + [0x10, 0x05]
        let value = try Self.reading(bytes) { (r) throws(ProtobufError) -> UInt64? in
            while let tag = try r.nextTag() {
                if tag.number == 2 { return try r.varint() }
                try r.skip(tag)
            }
            return nil
        }
        #expect(value == 5)
    }
}
