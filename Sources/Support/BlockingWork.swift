import Dispatch
import Synchronization

/// `body(i)` for every `i` in `0..<count`, on threads of its own, started at once, while the
/// caller goes on: for calls that wait on the device rather than use a core, which a dispatch
/// queue would run only as many at once as there are cores. (Removing a file whose blocks are
/// on disk waits for their discard, on a file system mounted with `discard`.) `wait()` waits
/// for every call to end; dropped without it, the calls are made all the same.
public final class BlockingWork: Sendable {
    private let next = Atomic<Int>(0)
    private let count: Int
    private let body: @Sendable (Int) -> Void
    private let done = DispatchGroup()

    /// At most `threads` threads, fewer when `count` is small. Should a thread not start, the
    /// calls left are made in `wait()`.
    public init(count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        precondition(count >= 0 && threads > 0)
        self.count = count
        self.body = body
        for _ in 0..<min(threads, count) {
            // Each thread holds the work until it ends.
            done.enter()
            let made = startDetachedThread { [self] in
                run()
                done.leave()
            }
            guard made == 0 else {
                done.leave()
                break
            }
        }
    }

    /// Makes calls until none is left.
    private func run() {
        while true {
            let i = next.add(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            body(i)
        }
    }

    /// Waits for every call to end, making those no thread took. Again is harmless.
    public func wait() {
        run()
        done.wait()
    }

    // (Its threads hold it: it ends after them. Calls none took are made here.)
    deinit { run() }
}
