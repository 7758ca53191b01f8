/// Punycode (RFC 3492): a Unicode host label as ASCII, as IDNA writes it after `xn--`, so
/// that a base URL with a Korean host name is a valid URI.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    /// The encoding of `label` (without the `xn--` prefix).
    static func encode(_ label: String) -> String {
        let input = label.unicodeScalars.map(\.value)
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar($0)!) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            let m = Int(input.filter { Int($0) >= n }.min()!)
            delta += (m - n) * (handled + 1)
            n = m
            for c in input {
                if Int(c) < n { delta += 1 }
                guard Int(c) == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ d: Int) -> Character {
        Character(Unicode.Scalar(UInt8(d < 26 ? 97 + d : 22 + d)))  // a–z, then 0–9
    }

    private static func adapt(_ delta: Int, _ count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
