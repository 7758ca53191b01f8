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
}
