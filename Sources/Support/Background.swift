import Dispatch
import Synchronization

/// A value made on another thread while the caller goes on, waited for where it is needed:
/// independent work (a build's cache files, each read on a thread of its own) fills the
/// cores the caller leaves idle.
///
/// Dropping it waits for the work to end, so that nothing it made outlives the caller's
/// scope unseen (a value not taken is freed with it, not later on another thread).
public final class Background<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let result = Slot()

    private final class Slot: Sendable {
        let value = Mutex<Value?>(nil)
    }

    public init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [result] in
            let value = make()
            result.value.withLock { $0 = value }
        }
    }

    /// Whether the value is made (waits for nothing).
    public var isDone: Bool { done.wait(timeout: .now()) == .success }

    /// The value, once made (waits for it).
    public var value: Value {
        done.wait()
        return result.value.withLock { $0! }
    }

    deinit { done.wait() }
}
