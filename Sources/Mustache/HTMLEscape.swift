import Support

/// Appending values to the output buffer, escaping HTML while appending (`MarkupEscape`'s rule).
enum HTMLEscape {
    static func append(_ bytes: [UInt8], escaped: Bool, to out: inout [UInt8]) {
        if escaped {
            bytes.withUnsafeBufferPointer { MarkupEscape.append($0, to: &out) }
        } else {
            out.append(contentsOf: bytes)
        }
    }

    @inline(__always)
    static func append(_ string: String, escaped: Bool, to out: inout [UInt8]) {
        if escaped {
            MarkupEscape.append(string, to: &out)
        } else {
            out.append(contentsOf: string.utf8)
        }
    }

    /// Decimal digits of `value`, without going through a String.
    static func append(_ value: Int, to out: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var i = start + digits - 1
        while magnitude > 0 {
            out[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            i -= 1
        }
    }

    /// Doubles print in their shortest form; integral ones without ".0".
    static func append(_ value: Double, to out: inout [UInt8]) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            append(Int(value), to: &out)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func append(contentsOf s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }  // (a one-scalar literal has no utf8Start)
    }
}
