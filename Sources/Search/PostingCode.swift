/// How a sorted list of numbers (tweet or user numbers) is written in a shard: the shorter
/// of two forms, both in the 64 characters `[0-9A-Za-z_-]`, so a list is a plain JS string.
///
/// - Gaps: each number minus the one before minus 1 (the first as it is), each written in
///   base 32, most significant digit first; every digit but a number's last is offset by 32.
///   A run of consecutive numbers is a run of `0`.
/// - Bits: `~` and then 6 bits per character (bit `j` of character `k` is number `6k + j`);
///   never longer than `count / 6` characters, so a word in every tweet costs about 17 KB at
///   100,000 tweets.
package enum PostingCode {
    package static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8)

    /// `numbers` (ascending, each in `0..<count`) in the shorter form.
    package static func encode(_ numbers: [Int32], count: Int) -> [UInt8] {
        let alphabet = Self.alphabet
        let bitsLength = 1 + (count + 5) / 6
        var gaps: [UInt8] = []
        gaps.reserveCapacity(min(bitsLength + 8, numbers.count * 2))
        var previous: Int32 = -1
        for n in numbers {
            let value = Int(n - previous - 1)
            previous = n
            var shift = 0
            while value >> (shift + 5) > 0 { shift += 5 }
            while shift > 0 {
                gaps.append(alphabet[((value >> shift) & 31) + 32])
                shift -= 5
            }
            gaps.append(alphabet[value & 31])
            if gaps.count > bitsLength { break }
        }
        if gaps.count <= bitsLength { return gaps }
        var bits = [UInt8](repeating: 0, count: (count + 5) / 6)
        for n in numbers { bits[Int(n) / 6] |= UInt8(1) << UInt8(n % 6) }
        return [UInt8(ascii: "~")] + bits.map { alphabet[Int($0)] }
    }

    /// The numbers of `code` (either form): what the browser does, for tests.
    package static func decode(_ code: [UInt8]) -> [Int32] {
        var numbers: [Int32] = []
        if code.first == UInt8(ascii: "~") {
            for (k, char) in code.dropFirst().enumerated() {
                let bits = alphabet.firstIndex(of: char)!
                for j in 0..<6 where bits & (1 << j) != 0 { numbers.append(Int32(k * 6 + j)) }
            }
            return numbers
        }
        var previous: Int32 = -1
        var value = 0
        for char in code {
            let digit = alphabet.firstIndex(of: char)!
            if digit >= 32 {
                value = value * 32 + digit - 32
            } else {
                value = value * 32 + digit
                previous += Int32(value) + 1
                numbers.append(previous)
                value = 0
            }
        }
        return numbers
    }
}
