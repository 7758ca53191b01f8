import Dispatch

extension Array {
    /// `(0..<count).map(element)` on all cores, in order: each element is made by one
    /// iteration of `DispatchQueue.concurrentPerform` (`chunk` neighbours per iteration,
    /// for cheap elements), and the array is complete when this returns.
    public init(parallelCount count: Int, chunk: Int = 1, _ element: @Sendable (Int) -> Element) {
        precondition(count >= 0 && chunk > 0)
        let iterations = (count + chunk - 1) / chunk
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            // Unchecked: one iteration per element, none read before all end.
            nonisolated(unsafe) let base = buffer.baseAddress
            DispatchQueue.concurrentPerform(iterations: iterations) { c in
                for i in (c * chunk)..<Swift.min(count, (c + 1) * chunk) {
                    (base! + i).initialize(to: element(i))
                }
            }
            initialized = count
        }
    }
}

extension Array where Element: Sendable {
    /// `map` on all cores, in order. For work of a few microseconds per element or more.
    public func parallelMap<R>(_ transform: @Sendable (Element) -> R) -> [R] {
        guard count > 256 else { return map(transform) }
        return [R](parallelCount: count, chunk: Swift.max(64, count / 32)) { [self] i in transform(self[i]) }
    }
}

extension Array {
    /// A list made in `parts` parts on all cores: `fill(p, start)` initializes the elements of
    /// part `p` from `start` (`p * stride` in the list), at most `stride` of them, and returns
    /// how many it made and what else it found of its part, or nil for that when it could not
    /// make its part whole. Every part but the last makes `stride` elements. Nil, and what the
    /// parts made let go, when one did not; else the list and each part's `extra`. (Into their
    /// place in one list: a list per part, joined after, copies every element once more.)
    public static func inParts<Extra: Sendable>(
        _ parts: Int, stride: Int,
        _ fill: @Sendable (_ part: Int, _ start: UnsafeMutablePointer<Element>) -> (made: Int, extra: Extra?)
    ) -> (list: [Element], extras: [Extra])? {
        precondition(parts >= 0 && stride > 0)
        var made: [(made: Int, extra: Extra?)] = []
        var whole = false
        let list = [Element](unsafeUninitializedCapacity: parts * stride) { buffer, initialized in
            nonisolated(unsafe) let base = buffer.baseAddress  // (each part initializes its own elements)
            made = [(made: Int, extra: Extra?)](parallelCount: parts) { p in fill(p, base! + p * stride) }
            whole = made.indices.allSatisfy { p in
                made[p].extra != nil && (p == parts - 1 ? made[p].made <= stride : made[p].made == stride)
            }
            if whole {
                initialized = made.reduce(0) { $0 + $1.made }
            } else {
                for (p, part) in made.enumerated() { (base! + p * stride).deinitialize(count: part.made) }
            }
        }
        return whole ? (list, made.map { $0.extra! }) : nil
    }
}
