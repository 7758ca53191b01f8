/// How a protobuf field's value is laid out on the wire (the low three bits of its tag).
package enum WireType: UInt8, Sendable, CustomStringConvertible {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    /// proto2 groups: the fields between a start and an end tag of one field number.
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5

    package var description: String {
        switch self {
        case .varint: "varint"
        case .fixed64: "fixed64"
        case .lengthDelimited: "length-delimited"
        case .startGroup: "start group"
        case .endGroup: "end group"
        case .fixed32: "fixed32"
        }
    }
}

/// A field's tag as read: its number, its wire type, and where the tag starts in the input.
package struct FieldTag: Sendable, Equatable {
    package let number: Int
    package let wireType: WireType
    /// The tag's first byte, in the input's offsets (see `ProtobufReader.baseOffset`).
    package let offset: Int

    package init(number: Int, wireType: WireType, offset: Int) {
        self.number = number
        self.wireType = wireType
        self.offset = offset
    }

    /// Throws unless the field has `wireType`: a field of a known number laid out otherwise is
    /// not the message it claims to be.
    package func require(_ wireType: WireType) throws(ProtobufError) {
        guard self.wireType == wireType else {
            throw ProtobufError(
                .unexpectedWireType(field: number, found: self.wireType, expected: wireType), at: offset)
        }
    }
}
