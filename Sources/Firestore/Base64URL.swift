/// Base64url without padding (RFC 4648 §5, as JWTs use it, RFC 7515 §2).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var group: UInt32 = 0
        var held = 0
        for byte in bytes {
            group = group << 8 | UInt32(byte)
            held += 1
            if held == 3 {
                appendSextets(of: group, count: 4, to: &out)
                group = 0
                held = 0
            }
        }
        // One byte left makes two characters, two make three; padding is left off.
        if held > 0 { appendSextets(of: group << (8 * UInt32(3 - held)), count: held + 1, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `count` 6-bit groups of the 24-bit `group`, as characters.
    private static func appendSextets(of group: UInt32, count: Int, to out: inout [UInt8]) {
        for k in 0..<count {
            out.append(alphabet[Int(group >> UInt32(18 - 6 * k) & 0x3F)])
        }
    }
}
