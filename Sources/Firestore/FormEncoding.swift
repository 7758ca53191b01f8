/// An `application/x-www-form-urlencoded` body, as token endpoints take it.
enum FormEncoding {
    /// `name=value&…`, every byte but the unreserved ones (RFC 3986: letters, digits,
    /// `-._~`) percent-encoded, so no value can break the form whatever it holds.
    static func body(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (k, field) in fields.enumerated() {
            if k > 0 { out.append(UInt8(ascii: "&")) }
            appendEncoded(field.name, to: &out)
            out.append(UInt8(ascii: "="))
            appendEncoded(field.value, to: &out)
        }
        return out
    }

    private static func appendEncoded(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }
}
