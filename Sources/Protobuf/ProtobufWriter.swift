/// Writes protobuf's wire format field by field: what `ProtobufReader` reads (requests of a
/// codec, test inputs). Values are appended in the order asked; nothing is checked.
package struct ProtobufWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func tag(_ number: Int, _ wireType: WireType) {
        varint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    package mutating func varint(_ number: Int, _ value: UInt64) {
        tag(number, .varint)
        varint(value)
    }

    /// An `int64` (a negative one takes ten bytes).
    package mutating func int64(_ number: Int, _ value: Int64) { varint(number, UInt64(bitPattern: value)) }

    package mutating func bool(_ number: Int, _ value: Bool) { varint(number, value ? 1 : 0) }

    /// A `sint64`: zigzag.
    package mutating func sint64(_ number: Int, _ value: Int64) {
        varint(number, UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func fixed64(_ number: Int, _ value: UInt64) {
        tag(number, .fixed64)
        for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
    }

    package mutating func fixed32(_ number: Int, _ value: UInt32) {
        tag(number, .fixed32)
        for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(k)))) }
    }

    package mutating func double(_ number: Int, _ value: Double) { fixed64(number, value.bitPattern) }

    package mutating func lengthDelimited(_ number: Int, _ value: some Collection<UInt8>) {
        tag(number, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func string(_ number: Int, _ value: String) { lengthDelimited(number, Array(value.utf8)) }

    /// A length-delimited field holding the message `write` writes.
    package mutating func message(_ number: Int, _ write: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        write(&inner)
        lengthDelimited(number, inner.bytes)
    }

    /// A proto2 group: a start tag, the fields `write` writes, an end tag.
    package mutating func group(_ number: Int, _ write: (inout ProtobufWriter) -> Void) {
        tag(number, .startGroup)
        write(&self)
        tag(number, .endGroup)
    }
}
