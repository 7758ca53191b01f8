/// A strict RFC 8259 JSON parser over raw bytes that reports errors by line and column.
///
/// - No comments, trailing commas, NaN/Infinity or single quotes.
/// - Numbers without fraction or exponent that fit `Int64` are `.integer`, others `.double`;
///   numbers too large for a finite Double are an error.
/// - All input must be UTF-8 (checked everywhere); a leading UTF-8 byte order mark is skipped.
/// - Escapes: all of RFC 8259, surrogate pairs combined; a lone surrogate (`\uD800` not
///   followed by a low surrogate, or a low surrogate alone) is an error.
/// - Arrays and objects nested deeper than `maxDepth` (512) are an error, so hostile input
///   can never exhaust the stack.
package enum JSONParser {
    package static let maxDepth = 512

    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(message: "unexpected end of input (the document is empty)", line: 1, column: 1, offset: 0)
        }
        var parser = Parser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        return try parser.parseDocument()
    }

    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    package static func parse(_ string: String) throws(JSONError) -> JSONValue {
        try parse(Array(string.utf8))
    }

    /// Line and column (1-based; the column counts Unicode scalars) of byte `offset`.
    package static func location(ofOffset offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}

let utf8BOM: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

/// Where `base[0]` is in the whole text: `JSONReader` parses a window of it.
struct TextOrigin {
    var offset = 0
    var line = 1
    var column = 1

    /// Moves past `bytes` (counting lines and scalars as `JSONParser.location` does).
    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        offset += bytes.count
        var lastNewline = -1
        var newlines = 0
        for k in bytes.indices where bytes[k] == 0x0A {
            newlines += 1
            lastNewline = k
        }
        var scalars = 0
        for b in bytes[(lastNewline + 1)...] where b & 0xC0 != 0x80 { scalars += 1 }
        if newlines > 0 {
            line += newlines
            column = 1 + scalars
        } else {
            column += scalars
        }
    }
}

struct Parser {
    let base: UnsafePointer<UInt8>
    let count: Int
    var i = 0
    var depth = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []
    let origin: TextOrigin

    init(base: UnsafePointer<UInt8>, count: Int, origin: TextOrigin = TextOrigin()) {
        self.base = base
        self.count = count
        self.origin = origin
    }

    // MARK: errors

    func error(_ message: String, at offset: Int, kind: JSONError.Kind = .syntax) -> JSONError {
        let (line, column) = JSONParser.location(
            ofOffset: offset, in: UnsafeRawBufferPointer(start: base, count: count))
        return JSONError(
            kind: kind, message: message, line: origin.line + line - 1,
            column: line == 1 ? origin.column + column - 1 : column, offset: origin.offset + offset)
    }

    func invalidUTF8(at offset: Int) -> JSONError {
        error("invalid UTF-8 (byte 0x\(hex2(base[offset])))", at: offset, kind: .invalidUTF8)
    }

    /// "unexpected character 'x'" for the byte at `offset`, or the UTF-8 error if that is what it is.
    func unexpected(at offset: Int, expected: String? = nil) -> JSONError {
        guard offset < count else {
            return error("unexpected end of input" + (expected.map { ", expected \($0)" } ?? ""), at: offset)
        }
        let b = base[offset]
        var shown: String
        if b < 0x80 {
            if b >= 0x20 && b < 0x7F {
                shown = "'" + String(UnicodeScalar(b)) + "'"
            } else {
                shown = "U+00" + hex2(b)
            }
        } else {
            let n = utf8SequenceLength(at: offset)
            if n == 0 { return invalidUTF8(at: offset) }
            shown = "'" + String(decoding: UnsafeBufferPointer(start: base + offset, count: n), as: UTF8.self) + "'"
        }
        if b == UInt8(ascii: "'") { shown = "\"'\"" }
        return error("unexpected character \(shown)" + (expected.map { ", expected \($0)" } ?? ""), at: offset)
    }

    // MARK: scanning

    @inline(__always)
    mutating func skipWhitespace() {
        while i < count {
            let b = base[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    /// Length of the valid UTF-8 sequence starting with a non-ASCII byte at `offset`, or 0.
    @inline(__always)
    func utf8SequenceLength(at offset: Int) -> Int {
        let b0 = base[offset]
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            offset + k < count && base[offset + k] >= lo && base[offset + k] <= hi
        }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0:
            return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(1) && cont(2) ? 3 : 0
        case 0xED:
            return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0:
            return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4:
            return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// The offset of the first invalid UTF-8 byte at or after `from`, if any (only used to
    /// report errors in places where any non-ASCII byte is already an error).
    func firstInvalidUTF8(from: Int) -> Int? {
        var k = from
        while k < count {
            if base[k] < 0x80 {
                k += 1
                continue
            }
            let n = utf8SequenceLength(at: k)
            if n == 0 { return k }
            k += n
        }
        return nil
    }

    // MARK: grammar

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        if count >= 3 && base[0] == utf8BOM.0 && base[1] == utf8BOM.1 && base[2] == utf8BOM.2 {
            i = 3
        }
        skipWhitespace()
        if i >= count {
            throw error("unexpected end of input (the document is empty)", at: i)
        }
        let value = try parseValue()
        skipWhitespace()
        if i < count {
            if let bad = firstInvalidUTF8(from: i) { throw invalidUTF8(at: bad) }
            throw error("trailing characters after the document", at: i)
        }
        return value
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard i < count else { throw unexpected(at: i, expected: "a value") }
        switch base[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(at: i)
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n {
            if i + k >= count || base[i + k] != w[k] {
                throw unexpected(at: i + k)
            }
        }
        i += n
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > JSONParser.maxDepth {
            throw error("nesting deeper than \(JSONParser.maxDepth) levels", at: i, kind: .tooDeep)
        }
    }

    mutating func parseArray() throws(JSONError) -> JSONValue {
        try enter()
        i += 1  // [
        var values: [JSONValue] = []
        skipWhitespace()
        if i < count && base[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            if i < count && base[i] == UInt8(ascii: "]") {
                throw error("trailing comma before ']'", at: i)
            }
            values.append(try parseValue())
            skipWhitespace()
            guard i < count else { throw error("unexpected end of input, expected ',' or ']'", at: i) }
            let b = base[i]
            if b == UInt8(ascii: ",") {
                i += 1
            } else if b == UInt8(ascii: "]") {
                i += 1
                depth -= 1
                return .array(values)
            } else {
                throw unexpected(at: i, expected: "',' or ']'")
            }
        }
    }

    mutating func parseObject() throws(JSONError) -> JSONValue {
        try enter()
        i += 1  // {
        var pairs: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if i < count && base[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(pairs)
        }
        while true {
            skipWhitespace()
            guard i < count else { throw error("unexpected end of input, expected a string key", at: i) }
            if base[i] != UInt8(ascii: "\"") {
                if base[i] == UInt8(ascii: "}") { throw error("trailing comma before '}'", at: i) }
                throw unexpected(at: i, expected: "a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard i < count, base[i] == UInt8(ascii: ":") else {
                throw unexpected(at: i, expected: "':' after the key")
            }
            i += 1
            skipWhitespace()
            let value = try parseValue()
            pairs.append((key, value))
            skipWhitespace()
            guard i < count else { throw error("unexpected end of input, expected ',' or '}'", at: i) }
            let b = base[i]
            if b == UInt8(ascii: ",") {
                i += 1
            } else if b == UInt8(ascii: "}") {
                i += 1
                depth -= 1
                return .object(pairs)
            } else {
                throw unexpected(at: i, expected: "',' or '}'")
            }
        }
    }

    /// Parses the string whose opening quote is at `i`.
    mutating func parseString() throws(JSONError) -> String {
        let open = i
        var j = i + 1
        // Fast path: no escapes.
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\"") {
                let s = String(
                    decoding: UnsafeBufferPointer(start: base + open + 1, count: j - open - 1), as: UTF8.self)
                i = j + 1
                return s
            } else if b == UInt8(ascii: "\\") {
                return try parseEscapedString(open: open, from: j)
            } else if b < 0x20 {
                throw error("unescaped control character U+00\(hex2(b)) in string", at: j)
            } else if b < 0x80 {
                j += 1
            } else {
                let n = utf8SequenceLength(at: j)
                if n == 0 { throw invalidUTF8(at: j) }
                j += n
            }
        }
        throw error("unterminated string", at: open)
    }

    /// The slow path: the string starting at `open` has an escape at `from`.
    mutating func parseEscapedString(open: Int, from: Int) throws(JSONError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + open + 1, count: from - open - 1))
        var j = from
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\"") {
                i = j + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                guard j + 1 < count else { break }
                let e = base[j + 1]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    scratch.append(e)
                    j += 2
                case UInt8(ascii: "b"):
                    scratch.append(0x08)
                    j += 2
                case UInt8(ascii: "f"):
                    scratch.append(0x0C)
                    j += 2
                case UInt8(ascii: "n"):
                    scratch.append(0x0A)
                    j += 2
                case UInt8(ascii: "r"):
                    scratch.append(0x0D)
                    j += 2
                case UInt8(ascii: "t"):
                    scratch.append(0x09)
                    j += 2
                case UInt8(ascii: "u"):
                    let high = try hex4(at: j + 2, escapeAt: j)
                    var scalar: UInt32
                    if high >= 0xD800 && high <= 0xDBFF {
                        guard j + 7 < count, base[j + 6] == UInt8(ascii: "\\"), base[j + 7] == UInt8(ascii: "u") else {
                            throw error(
                                "lone surrogate \\u\(hex4String(high)) (a high surrogate must be followed by a \\u low surrogate)",
                                at: j)
                        }
                        let low = try hex4(at: j + 8, escapeAt: j + 6)
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw error(
                                "lone surrogate \\u\(hex4String(high)) (followed by \\u\(hex4String(low)), not a low surrogate)",
                                at: j)
                        }
                        scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        j += 12
                    } else if high >= 0xDC00 && high <= 0xDFFF {
                        throw error("lone surrogate \\u\(hex4String(high)) (a low surrogate without a high one)", at: j)
                    } else {
                        scalar = high
                        j += 6
                    }
                    appendUTF8(scalar)
                default:
                    if j + 1 < count && e >= 0x80 && utf8SequenceLength(at: j + 1) == 0 { throw invalidUTF8(at: j + 1) }
                    throw error("invalid escape \(describeEscape(at: j + 1)) in string", at: j)
                }
            } else if b < 0x20 {
                throw error("unescaped control character U+00\(hex2(b)) in string", at: j)
            } else if b < 0x80 {
                scratch.append(b)
                j += 1
            } else {
                let n = utf8SequenceLength(at: j)
                if n == 0 { throw invalidUTF8(at: j) }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + j, count: n))
                j += n
            }
        }
        throw error("unterminated string", at: open)
    }

    func describeEscape(at offset: Int) -> String {
        let b = base[offset]
        if b >= 0x20 && b < 0x7F { return "'\\" + String(UnicodeScalar(b)) + "'" }
        if b < 0x80 { return "'\\' followed by U+00\(hex2(b))" }
        let n = utf8SequenceLength(at: offset)
        return "'\\" + String(decoding: UnsafeBufferPointer(start: base + offset, count: n), as: UTF8.self) + "'"
    }

    func hex4(at offset: Int, escapeAt: Int) throws(JSONError) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            guard offset + k < count else { throw error("unterminated \\u escape", at: escapeAt) }
            let c = base[offset + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape: expected 4 hexadecimal digits", at: escapeAt)
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = i
        var j = i
        let negative = base[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        @inline(__always) func isDigit(_ k: Int) -> Bool {
            k < count && base[k] >= UInt8(ascii: "0") && base[k] <= UInt8(ascii: "9")
        }
        guard isDigit(j) else {
            throw unexpected(at: j, expected: "a digit after '-'")
        }
        var integer: Int64 = 0
        var overflow = false
        if base[j] == UInt8(ascii: "0") {
            j += 1
            if isDigit(j) { throw error("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while isDigit(j) {
                let d = Int64(base[j] - UInt8(ascii: "0"))
                if !overflow {
                    let (m, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                    if o1 || o2 { overflow = true } else { integer = s }
                }
                j += 1
            }
        }
        var isInteger = true
        if j < count && base[j] == UInt8(ascii: ".") {
            isInteger = false
            j += 1
            guard isDigit(j) else { throw unexpected(at: j, expected: "a digit after '.'") }
            while isDigit(j) { j += 1 }
        }
        if j < count && (base[j] == UInt8(ascii: "e") || base[j] == UInt8(ascii: "E")) {
            isInteger = false
            j += 1
            if j < count && (base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-")) { j += 1 }
            guard isDigit(j) else { throw unexpected(at: j, expected: "a digit in the exponent") }
            while isDigit(j) { j += 1 }
        }
        i = j
        if isInteger && !overflow {
            return .integer(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: j - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw error("number out of range: \(text.prefix(40))", at: start)
        }
        return .double(d)
    }
}

private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

func hex2(_ b: UInt8) -> String {
    String(decoding: [hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]], as: UTF8.self)
}

func hex4String(_ v: UInt32) -> String {
    hex2(UInt8((v >> 8) & 0xFF)) + hex2(UInt8(v & 0xFF))
}
