/// Appending values to the output buffer, escaping HTML while appending.
enum HTMLEscape {
    /// Appends `bytes`, replacing `& < > " '` with entities.
    @inline(__always)
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // All five special bytes are below 0x3F; most text is not.
            if b < 0x3F, let entity = entity(b) {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(contentsOf: entity)
                runStart = i + 1
            }
            i += 1
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
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}
