import Dispatch
import Synchronization

/// A value made on another thread while the caller goes on, waited for where it is needed:
/// work that does not depend on what the caller does first (a build's cache files read while
/// the store is walked) fills the cores the caller leaves idle.
///
/// Dropping it waits for the work to end, so that nothing it made outlives the caller's
/// scope unseen (an output folder's lock, say, is given back by the value's own deinit).
package final class Background<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let result = Slot()

    private final class Slot: Sendable {
        let value = Mutex<Value?>(nil)
    }

    package init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [result] in
            let value = make()
            result.value.withLock { $0 = value }
        }
    }

    /// The value, once made (waits for it).
    package var value: Value {
        done.wait()
        return result.value.withLock { $0! }
    }

    deinit { done.wait() }
}
