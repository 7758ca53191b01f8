import Protobuf

/// A `ProtobufReader` whose reads check the wire type a known field must have and throw
/// `ListenDecodingError`, so that the decoder reads a field in one line.
struct ListenReader {
    private var reader: ProtobufReader

    init(_ reader: ProtobufReader) {
        self.reader = reader
    }

    /// Where the next field starts (for errors about the message as a whole).
    var offset: Int { reader.offset }

    mutating func nextTag() throws(ListenDecodingError) -> FieldTag? {
        do { return try reader.nextTag() } catch { throw ListenDecodingError(error) }
    }

    mutating func skip(_ tag: FieldTag) throws(ListenDecodingError) {
        do { try reader.skip(tag) } catch { throw ListenDecodingError(error) }
    }

    mutating func varint(_ tag: FieldTag) throws(ListenDecodingError) -> UInt64 {
        do {
            try tag.require(.varint)
            return try reader.varint()
        } catch { throw ListenDecodingError(error) }
    }

    mutating func int64(_ tag: FieldTag) throws(ListenDecodingError) -> Int64 {
        Int64(bitPattern: try varint(tag))
    }

    /// `int32` and enums: a negative one comes sign-extended to 64 bits.
    mutating func int32(_ tag: FieldTag) throws(ListenDecodingError) -> Int32 {
        Int32(truncatingIfNeeded: try varint(tag))
    }

    mutating func bool(_ tag: FieldTag) throws(ListenDecodingError) -> Bool { try varint(tag) != 0 }

    mutating func double(_ tag: FieldTag) throws(ListenDecodingError) -> Double {
        do {
            try tag.require(.fixed64)
            return try reader.double()
        } catch { throw ListenDecodingError(error) }
    }

    mutating func string(_ tag: FieldTag) throws(ListenDecodingError) -> String {
        do {
            try tag.require(.lengthDelimited)
            return try reader.string()
        } catch { throw ListenDecodingError(error) }
    }

    mutating func bytes(_ tag: FieldTag) throws(ListenDecodingError) -> [UInt8] {
        do {
            try tag.require(.lengthDelimited)
            return try reader.bytesValue()
        } catch { throw ListenDecodingError(error) }
    }

    /// An embedded message's fields.
    mutating func message(_ tag: FieldTag) throws(ListenDecodingError) -> ListenReader {
        do {
            try tag.require(.lengthDelimited)
            return ListenReader(try reader.lengthDelimited())
        } catch { throw ListenDecodingError(error) }
    }

    /// One or more values of a `repeated int32`: proto3 writes them packed (one
    /// length-delimited field), but a parser must take them one field each as well.
    mutating func appendInt32s(_ tag: FieldTag, to values: inout [Int32]) throws(ListenDecodingError) {
        guard tag.wireType == .lengthDelimited else {
            values.append(try int32(tag))
            return
        }
        do {
            var packed = try reader.lengthDelimited()
            while !packed.isAtEnd { values.append(try packed.int32()) }
        } catch { throw ListenDecodingError(error) }
    }
}
