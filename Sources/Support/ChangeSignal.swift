import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets threads wait for a change of state that is kept elsewhere, in a `Mutex` (which has
/// no way to wait): whoever changes the state calls `notify()` after it; a waiter says what
/// it waits for. No change made after a waiter looked at the state can be missed.
// Unchecked: the pthread pair is used only through its calls, which are thread-safe.
public final class ChangeSignal: @unchecked Sendable {
    /// Counts `notify()` calls: a waiter sleeps only while it is unchanged.
    private let changes = Atomic<UInt64>(0)
    // A condition variable and the pthread mutex it needs (a Swift `Mutex` cannot serve),
    // allocated so that they never move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // timeouts unaffected by changes of the wall clock
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Wakes every waiter to look at the state again. Call after each change.
    public func notify() {
        changes.add(1, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)  // a waiter between its look and its sleep holds it: it then sees the new count
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Returns true as soon as `isSatisfied()` is, looking again after each `notify()`; false
    /// when `timeout` (if any) passes first.
    public func wait(timeout: Duration? = nil, until isSatisfied: () -> Bool) -> Bool {
        let deadline = timeout.map(Self.monotonicDeadline)
        while true {
            let seen = changes.load(ordering: .sequentiallyConsistent)
            if isSatisfied() { return true }
            var timedOut = false
            pthread_mutex_lock(mutex)
            while !timedOut, changes.load(ordering: .sequentiallyConsistent) == seen {
                if var deadline {
                    timedOut = pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
            pthread_mutex_unlock(mutex)
            if timedOut { return isSatisfied() }
        }
    }

    /// `timeout` from now on the monotonic clock, as `pthread_cond_timedwait` wants it.
    private static func monotonicDeadline(_ timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}
