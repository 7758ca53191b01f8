import Dispatch

extension Array {
    /// `(0..<count).map(element)` on all cores, in order: each element is made by one
    /// iteration of `DispatchQueue.concurrentPerform` (`chunk` neighbours per iteration,
    /// for cheap elements), and the array is complete when this returns.
    package init(parallelCount count: Int, chunk: Int = 1, _ element: @Sendable (Int) -> Element) {
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
    package func parallelMap<R>(_ transform: @Sendable (Element) -> R) -> [R] {
        guard count > 256 else { return map(transform) }
        return [R](parallelCount: count, chunk: Swift.max(64, count / 32)) { [self] i in transform(self[i]) }
    }
}
