import Protobuf

/// A `ProtobufReader` for one message of an export, whose errors are `ExportDamage` saying
/// which message was being read ("a property", "the key"), and whose reads check the field's
/// wire type first: a known field laid out otherwise is damage, not a value.
struct MessageReader {
    private var reader: ProtobufReader
    /// What the message is, for errors.
    let what: String

    init(_ reader: ProtobufReader, what: String) {
        self.reader = reader
        self.what = what
    }

    var offset: Int { reader.offset }

    mutating func nextTag() throws(ExportDamage) -> FieldTag? {
        try mapped { (r) throws(ProtobufError) in try r.nextTag() }
    }

    mutating func skip(_ tag: FieldTag) throws(ExportDamage) {
        try mapped { (r) throws(ProtobufError) in try r.skip(tag) }
    }

    mutating func varint(_ tag: FieldTag) throws(ExportDamage) -> UInt64 {
        try mapped { (r) throws(ProtobufError) in
            try tag.require(.varint)
            return try r.varint()
        }
    }

    mutating func int64(_ tag: FieldTag) throws(ExportDamage) -> Int64 { Int64(bitPattern: try varint(tag)) }
    mutating func bool(_ tag: FieldTag) throws(ExportDamage) -> Bool { try varint(tag) != 0 }

    mutating func double(_ tag: FieldTag) throws(ExportDamage) -> Double {
        try mapped { (r) throws(ProtobufError) in
            try tag.require(.fixed64)
            return try r.double()
        }
    }

    mutating func string(_ tag: FieldTag) throws(ExportDamage) -> String {
        try mapped { (r) throws(ProtobufError) in
            try tag.require(.lengthDelimited)
            return try r.string()
        }
    }

    /// A length-delimited field's bytes, and where they start.
    mutating func bytes(_ tag: FieldTag) throws(ExportDamage) -> (bytes: UnsafeRawBufferPointer, offset: Int) {
        let inside = try mapped { (r) throws(ProtobufError) in
            try tag.require(.lengthDelimited)
            return try r.lengthDelimited()
        }
        return (inside.contents, inside.baseOffset)
    }

    /// The message in the length-delimited field `tag` starts, called `what`.
    mutating func message(_ tag: FieldTag, _ what: String) throws(ExportDamage) -> MessageReader {
        let inside = try mapped { (r) throws(ProtobufError) in
            try tag.require(.lengthDelimited)
            return try r.lengthDelimited()
        }
        return MessageReader(inside, what: what)
    }

    /// The inside of the group `tag` starts, called `what`.
    mutating func group(_ tag: FieldTag, _ what: String) throws(ExportDamage) -> MessageReader {
        MessageReader(try mapped { (r) throws(ProtobufError) in try r.group(tag) }, what: what)
    }

    private mutating func mapped<T>(_ body: (inout ProtobufReader) throws(ProtobufError) -> T) throws(ExportDamage) -> T
    {
        do {
            return try body(&reader)
        } catch {
            throw ExportDamage(error, reading: what)
        }
    }
}
