/// One result slot per iteration of a `DispatchQueue.concurrentPerform`: each index is
/// written by exactly one iteration, so no lock is needed; read them after it returns.
final class ParallelSlots<Element>: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Element>

    init(count: Int, repeating empty: Element) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: empty)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
}
