import JSON

/// JSON string literals in the index's script files. JSON strings are JavaScript strings
/// (U+2028 and U+2029 are allowed in string literals since ES2019); `<` and `>` are escaped too,
/// so no file holds markup (`</script`, `<!--`, `<img …>`) whatever the store says.
package enum JSONText {
    package static func append(_ text: String, to out: inout [UInt8]) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            return JSONWriter.appendString(text, to: &out)
        }
        var escaped: [UInt8] = []
        JSONWriter.appendString(text, to: &escaped)
        for byte in escaped {
            switch byte {
            case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): out += Array("\\u003e".utf8)
            default: out.append(byte)
            }
        }
    }

    /// The length of `text`'s literal (`append`) when `bytes` start with it; nil otherwise.
    package static func length(of text: String, startOf bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let quote = UInt8(ascii: "\"")
        let plain = text.utf8.allSatisfy {
            $0 >= 0x20 && $0 != quote && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">")
        }
        guard plain else {
            var literal: [UInt8] = []
            append(text, to: &literal)
            return bytes.starts(with: literal) ? literal.count : nil
        }
        // (Written as it is, between quotes: no allocation for the many plain keys.)
        var text = text
        return text.withUTF8 { utf8 -> Int? in
            guard utf8.count + 2 <= bytes.count, bytes[0] == quote, bytes[utf8.count + 1] == quote,
                UnsafeBufferPointer(rebasing: bytes[1..<(utf8.count + 1)]).elementsEqual(utf8)
            else { return nil }
            return utf8.count + 2
        }
    }
}
