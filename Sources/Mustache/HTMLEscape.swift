/// Appending values to the output buffer, escaping HTML while appending.
enum HTMLEscape {
    /// Appends `bytes`, replacing `& < > " '` with entities, and characters that neither
    /// HTML nor XML 1.0 allow in a document (C0 controls but tab, line feed and carriage
    /// return; DEL and C1 controls; U+FFFE, U+FFFF) with U+FFFD, so that a value from the
    /// store cannot make a page invalid or an Atom feed ill-formed.
    @inline(__always)
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // All special bytes are below 0x3F, or 0x7F, 0xC2 or 0xEF; most text is none.
            var replacement: StaticString?
            var length = 1
            if b < 0x3F {
                replacement = entity(b)
                if replacement == nil, b < 0x20, b != 0x09, b != 0x0A, b != 0x0D { replacement = "\u{FFFD}" }
            } else if b == 0x7F {
                replacement = "\u{FFFD}"
            } else if b == 0xC2, i + 1 < n, (0x80...0x9F).contains(bytes[i + 1]) {
                replacement = "\u{FFFD}"; length = 2
            } else if b == 0xEF, i + 2 < n, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                replacement = "\u{FFFD}"; length = 3
            }
            if let replacement {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(contentsOf: replacement)
                runStart = i + length
            }
            i += length
        }
        if runStart < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
    }

    @inline(__always)
    static func entity(_ b: UInt8) -> StaticString? {
        switch b {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        case UInt8(ascii: "'"): return "&#39;"
        default: return nil
        }
    }

    static func append(_ bytes: [UInt8], escaped: Bool, to out: inout [UInt8]) {
        if escaped {
            bytes.withUnsafeBufferPointer { append($0, to: &out) }
        } else {
            out.append(contentsOf: bytes)
        }
    }

    @inline(__always)
    static func append(_ string: String, escaped: Bool, to out: inout [UInt8]) {
        if !escaped {
            out.append(contentsOf: string.utf8)
            return
        }
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { append($0, to: &out) }
        if done == nil {
            var copy = string
            copy.withUTF8 { append($0, to: &out) }
        }
    }

    /// Decimal digits of `value`, without going through a String.
    static func append(_ value: Int, to out: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digits += 1 }
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
