/// "Did you mean …?" for a mistyped command or option: the nearest of the valid names by edit
/// distance, when it is near enough to be a typo (at most a third of the name's length).
public enum Suggestion {
    public static func nearest(to typed: String, among names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in names {
            let d = distance(Array(typed.lowercased().utf8), Array(name.lowercased().utf8))
            if best == nil || d < best!.distance { best = (name, d) }
        }
        guard let best, best.distance <= max(1, best.name.count / 3) else { return nil }
        return best.name
    }

    /// `"; did you mean '--store'?"`, or nothing.
    public static func hint(for typed: String, among names: [String], prefix: String = "") -> String {
        nearest(to: typed, among: names).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    public static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
