/// Writes `JSONValue`s as UTF-8 JSON: keys in the order given, strings escaped per RFC 8259
/// (`"`, `\`, and control characters; everything else, `/` and non-ASCII included, as is).
///
/// Pretty output indents by two spaces, puts `": "` after keys and writes empty arrays
/// and objects as `[]` and `{}`; it does not end with a newline. Doubles are written in
/// Swift's shortest round-tripping form (`1.0`, `1e-05`), so they parse back as the same
/// Double; a non-finite double (which the parser never produces) is written as `null`.
package enum JSONWriter {
    package static func write(_ value: JSONValue, pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(value, to: &out, pretty: pretty, indent: 0)
        return out
    }

    package static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        String(decoding: write(value, pretty: pretty), as: UTF8.self)
    }

    /// Appends `value` to `out`; `indent` is the current nesting level.
    package static func append(_ value: JSONValue, to out: inout [UInt8], pretty: Bool = true, indent: Int = 0) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let n):
            out.append(contentsOf: String(n).utf8)
        case .double(let d):
            if d.isFinite {
                out.append(contentsOf: d.description.utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s):
            appendString(s, to: &out)
        case .array(let values):
            if values.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (k, v) in values.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                append(v, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (k, pair) in pairs.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                appendString(pair.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                append(pair.value, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ level: Int) {
        out.append(0x0A)
        for _ in 0..<(level * 2) { out.append(0x20) }
    }

    /// Appends `s` as a quoted, escaped JSON string.
    package static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""):
                out.append(UInt8(ascii: "\\"))
                out.append(b)
            case UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(b)
            case 0x0A:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "n"))
            case 0x0D:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "r"))
            case 0x09:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "t"))
            case 0x08:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "b"))
            case 0x0C:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "f"))
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(contentsOf: hex2(b).lowercased().utf8)
            default:
                out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
