#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread of its own, detached, which holds `body` (and what it captured)
/// until it returns: for work that blocks, which a dispatch queue would hold a core's worker
/// for. Returns 0, or `pthread_create`'s error when the thread could not start (`body` is
/// then let go unrun).
public func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let made = pthread_create(
        &thread, nil,
        { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
    guard made == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return made
    }
    pthread_detach(thread)
    return 0
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
