/// Why bytes are not a well-formed protobuf message, and the byte where that was found (in the
/// input's offsets: a file's, when the reader was told where its bytes start).
package struct ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The input ends inside a value; `what` names it ("a varint", "a fixed64 value").
        case truncated(what: String)
        /// A varint of more than ten bytes, or one whose value needs more than 64 bits.
        case varintTooLong
        /// Wire types 6 and 7 do not exist.
        case invalidWireType(UInt8)
        /// Field numbers run from 1 to 2^29 - 1.
        case invalidFieldNumber(UInt64)
        /// A length-delimited field longer than the bytes left.
        case lengthOverrun(length: UInt64, remaining: Int)
        /// An end-group tag with no group open.
        case unmatchedEndGroup(field: Int)
        /// An end-group tag for another field than the open group's.
        case mismatchedEndGroup(open: Int, found: Int)
        /// The input ends inside a group.
        case unterminatedGroup(field: Int)
        /// A known field laid out with another wire type than its type has.
        case unexpectedWireType(field: Int, found: WireType, expected: WireType)
        /// A string field whose bytes are not UTF-8.
        case invalidUTF8
    }

    package let kind: Kind
    package let offset: Int

    package init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// What is wrong, without the offset (for messages that place it themselves).
    package var reason: String {
        switch kind {
        case .truncated(let what): "the data ends inside \(what)"
        case .varintTooLong: "a varint longer than 64 bits"
        case .invalidWireType(let type): "wire type \(type) does not exist"
        case .invalidFieldNumber(let number): "field number \(number) is out of range"
        case .lengthOverrun(let length, let remaining):
            "a length-delimited field of \(length) bytes, with \(remaining) bytes left"
        case .unmatchedEndGroup(let field): "the end of group \(field), which was not started"
        case .mismatchedEndGroup(let open, let found): "the end of group \(found) inside group \(open)"
        case .unterminatedGroup(let field): "group \(field) is not ended"
        case .unexpectedWireType(let field, let found, let expected):
            "field \(field) is \(found), expected \(expected)"
        case .invalidUTF8: "a string that is not UTF-8"
        }
    }

    package var description: String { "byte \(offset): \(reason)" }
}
