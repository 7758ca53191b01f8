import Dispatch

extension Array where Element: Sendable {
    // Public for the later stages (rendering pages), which have the same shape of work.
    /// `map` on all cores, in order. For work of a few microseconds per element or more.
    public func parallelMap<R>(_ transform: @Sendable (Element) -> R) -> [R] {
        guard count > 256 else { return map(transform) }
        let chunk = Swift.max(64, count / 32)
        let chunks = (count + chunk - 1) / chunk
        return [R](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each iteration writes its own disjoint range of `buffer`.
            nonisolated(unsafe) let base = buffer.baseAddress!
            self.withUnsafeBufferPointer { source in
                nonisolated(unsafe) let source = source
                DispatchQueue.concurrentPerform(iterations: chunks) { c in
                    let start = c * chunk
                    for i in start..<Swift.min(start + chunk, source.count) {
                        (base + i).initialize(to: transform(source[i]))
                    }
                }
            }
            initialized = count
        }
    }
}
