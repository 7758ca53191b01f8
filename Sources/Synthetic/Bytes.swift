/// Appending JSON text to a byte buffer by hand: the generator writes millions of small
/// documents, and building values for a JSON writer would cost more than the writing.
extension Array where Element == UInt8 {
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// A JSON string literal: quotes, with `"`, `\` and control characters escaped
    /// (non-ASCII is written as UTF-8, as `ensure_ascii=False` would).
    mutating func appendJSONString(_ bytes: some Collection<UInt8>) {
        append(0x22)
        for b in bytes {
            switch b {
            case 0x22:
                append(0x5C)
                append(0x22)
            case 0x5C:
                append(0x5C)
                append(0x5C)
            case 0x0A:
                append(0x5C)
                append(0x6E)
            case 0x0D:
                append(0x5C)
                append(0x72)
            case 0x09:
                append(0x5C)
                append(0x74)
            case 0..<0x20:
                append("\\u00")
                append(hexDigit(b >> 4))
                append(hexDigit(b & 15))
            default: append(b)
            }
        }
        append(0x22)
    }

    mutating func appendJSONString(_ text: String) {
        appendJSONString(text.utf8)
    }

    /// A decimal integer.
    mutating func appendInteger(_ value: Int) {
        if value < 0 {
            append(0x2D)
            appendInteger(-value)
            return
        }
        if value < 10 {
            append(0x30 + UInt8(value))
            return
        }
        var divisor = 10
        while divisor <= value / 10 { divisor *= 10 }
        var n = value
        while divisor > 0 {
            append(0x30 + UInt8(n / divisor))
            n %= divisor
            divisor /= 10
        }
    }

    /// `value` with exactly `width` digits, zero-padded (value >= 0).
    mutating func appendPadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var n = value
        while divisor > 0 {
            append(0x30 + UInt8(n / divisor % 10))
            n %= divisor
            divisor /= 10
        }
    }

    /// Millionths as a decimal: `37.512340` with `trim` false, `37.51234` with it (at least one decimal).
    mutating func appendMicros(_ micros: Int, trim: Bool) {
        if micros < 0 { append(0x2D) }
        let m = abs(micros)
        appendInteger(m / 1_000_000)
        append(0x2E)
        var fraction = m % 1_000_000
        var width = 6
        if trim {
            while width > 1 && fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
        }
        appendPadded(fraction, width: width)
    }
}

@inline(__always) private func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
