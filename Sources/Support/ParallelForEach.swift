import Dispatch
import Synchronization

/// `body(i)` for every `i` in `0..<count`, on all cores: `chunk` neighbouring indices per
/// iteration of `DispatchQueue.concurrentPerform`. The first error wins: once a call throws,
/// the chunks after its own stop before their next index, and the error is rethrown when all
/// have ended. "First" is in index order, not in time (of two chunks that throw, the earlier
/// one's error), so which error a run reports does not depend on the threads' timing.
public func parallelForEach<E: Error>(count: Int, chunk: Int, _ body: @Sendable (Int) throws(E) -> Void) throws(E) {
    precondition(count >= 0 && chunk > 0)
    // The earliest chunk that threw, and its error.
    let earliest = Atomic<Int>(Int.max)
    let failure = Mutex<(chunk: Int, error: E)?>(nil)
    DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { c in
        for i in (c * chunk)..<Swift.min(count, (c + 1) * chunk) {
            if earliest.load(ordering: .relaxed) < c { return }
            do throws(E) {
                try body(i)
            } catch {
                failure.withLock { if $0.map({ c < $0.chunk }) ?? true { $0 = (c, error) } }
                earliest.min(c, ordering: .relaxed)
                return
            }
        }
    }
    if let failure = failure.withLock({ $0 }) { throw failure.error }
}
