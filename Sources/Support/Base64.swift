/// Base64 (RFC 4648): the standard alphabet with `=` padding (section 4), as REST JSON and
/// export files give a bytes value; base64url without padding (section 5), as JWTs use it
/// (RFC 7515 section 2).
public enum Base64 {
    public enum Form: Sendable {
        case standard, url
    }

    private static let standardAlphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: some Collection<UInt8>, _ form: Form = .standard) -> String {
        let alphabet = form == .standard ? standardAlphabet : urlAlphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var group: UInt32 = 0
        var held = 0
        for byte in bytes {
            group = group << 8 | UInt32(byte)
            held += 1
            if held == 3 {
                for k in 0..<4 { out.append(alphabet[Int(group >> UInt32(18 - 6 * k) & 0x3F)]) }
                group = 0
                held = 0
            }
        }
        // One byte left makes two characters, two make three; the standard form pads to four.
        if held > 0 {
            let last = group << (8 * UInt32(3 - held))
            for k in 0...held { out.append(alphabet[Int(last >> UInt32(18 - 6 * k) & 0x3F)]) }
            if form == .standard { out += repeatElement(UInt8(ascii: "="), count: 3 - held) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
