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

    /// The numbers of `code` (either form), as the browser reads them.
    package static func decode(_ code: some Collection<UInt8>) -> [Int32] {
        var numbers: [Int32] = []
        let count = code.first == UInt8(ascii: "~") ? (code.count - 1) * 6 : Int(Int32.max)
        _ = forEachNumber(in: code, count: count) { numbers.append($0) }
        return numbers
    }

    /// Whether `code` is a list `encode` can have written for `count`: either form, its
    /// numbers ascending and below `count`.
    package static func isValid(_ code: some Collection<UInt8>, count: Int) -> Bool {
        forEachNumber(in: code, count: count) { _ in }
    }

    /// Calls `body` with each number of `code` in order, until one is not as `encode` writes
    /// them; false then.
    @inline(__always)
    private static func forEachNumber(
        in code: some Collection<UInt8>, count: Int, _ body: (Int32) -> Void
    ) -> Bool {
        let read = code.withContiguousStorageIfAvailable { forEachNumber(in: $0, count: count, body) }
        return read ?? Array(code).withUnsafeBufferPointer { forEachNumber(in: $0, count: count, body) }
    }

    @inline(__always)
    private static func forEachNumber(in code: UnsafeBufferPointer<UInt8>, count: Int, _ body: (Int32) -> Void)
        -> Bool
    {
        digits.withUnsafeBufferPointer { digits in
            if code.first == UInt8(ascii: "~") {
                guard code.count - 1 == (count + 5) / 6 else { return false }
                for k in 0..<(code.count - 1) {
                    let bits = Int(digits[Int(code[k + 1])])
                    guard bits >= 0, k * 6 + (Int.bitWidth - bits.leadingZeroBitCount) <= count else { return false }
                    var left = bits
                    while left != 0 {
                        body(Int32(k * 6 + left.trailingZeroBitCount))
                        left &= left - 1
                    }
                }
                return true
            }
            var previous = -1
            var value = 0
            var inNumber = false
            for char in code {
                let digit = Int(digits[Int(char)])
                guard digit >= 0 else { return false }
                value = value * 32 + (digit & 31)
                // (A value past the count is refused before it can overflow.)
                guard previous + value + 1 < count else { return false }
                inNumber = digit >= 32
                if !inNumber {
                    previous += value + 1
                    body(Int32(previous))
                    value = 0
                }
            }
            return !inNumber
        }
    }

    /// Each byte's digit in `alphabet`, or -1.
    private static let digits: [Int8] = {
        var digits = [Int8](repeating: -1, count: 256)
        for (k, char) in alphabet.enumerated() { digits[Int(char)] = Int8(k) }
        return digits
    }()
}
