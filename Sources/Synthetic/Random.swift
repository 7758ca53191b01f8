import Support

/// Support's SplitMix64, one generator per document: any document can get its own from
/// (seed, stream, index), so the store is the same whatever the number of threads or the
/// order in which documents are written.
extension SplitMix64 {
    /// An independent generator for item `index` of `stream` under `seed`.
    init(seed: UInt64, stream: Stream, index: Int = 0) {
        let a = SplitMix64.finalize(seed &+ SplitMix64.increment &* (stream.rawValue &+ 1))
        self.init(state: SplitMix64.finalize(a ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)))
    }

    /// The streams: one per kind of decision, so that adding draws to one leaves the others unchanged.
    enum Stream: UInt64 {
        case users = 1
        case structure, tags, popularity, likers, likeDocument, tweet, favorites
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform in a...b.
    mutating func between(_ a: Int, _ b: Int) -> Int { a + below(b - a + 1) }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Exponentially distributed with the given mean.
    mutating func exponential(mean: Double) -> Double { -mean * log1pNeg(unit()) }

    /// Fisher–Yates.
    mutating func shuffle<T>(_ items: inout [T]) {
        var i = items.count - 1
        while i > 0 {
            items.swapAt(i, below(i + 1))
            i -= 1
        }
    }
}

/// log(1 - u) for u in [0, 1), without Foundation.
@inline(__always) func log1pNeg(_ u: Double) -> Double {
    naturalLog(1.0 - u)
}

#if canImport(Glibc)
import Glibc
@inline(__always) func naturalLog(_ x: Double) -> Double { Glibc.log(x) }
@inline(__always) func power(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
#elseif canImport(Darwin)
import Darwin
@inline(__always) func naturalLog(_ x: Double) -> Double { Darwin.log(x) }
@inline(__always) func power(_ x: Double, _ y: Double) -> Double { Darwin.pow(x, y) }
#endif
