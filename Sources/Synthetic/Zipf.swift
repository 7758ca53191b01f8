import Support

/// A Zipf-like distribution over ranks 0..<n: rank k has weight 1 / (k + 1 + q)^s.
/// Drawing is a binary search in the cumulative weights.
struct Zipf: Sendable {
    private let cumulative: [Double]

    init(count n: Int, exponent s: Double = 1, offset q: Double = 0) {
        var cumulative = [Double]()
        cumulative.reserveCapacity(n)
        var total = 0.0
        for k in 0..<n {
            let base = Double(k + 1) + q
            total += s == 1 ? 1 / base : 1 / power(base, s)
            cumulative.append(total)
        }
        self.cumulative = cumulative
    }

    var count: Int { cumulative.count }

    /// A rank, popular ranks first.
    func draw(_ random: inout SplitMix64) -> Int {
        let target = random.unit() * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) >> 1
            if cumulative[mid] > target { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
