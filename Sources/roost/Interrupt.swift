import Support

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT), waited for: its handler writes a byte to a pipe, which `wait` reads.
/// Whichever thread the kernel gives the signal to runs the handler, so none can take it
/// and drop it (with the signal ignored and a libdispatch source to take it, a thread that
/// did not block it dropped it, and `roost serve` ran on after Ctrl-C).
struct Interrupt {
    /// The pipe's ends: set once, before the handler is installed, and only read after.
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)

    /// Installs the handler (from now on Ctrl-C no longer ends the process by itself).
    init() throws(InterruptError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw InterruptError(reason: errnoText()) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        Self.pipeEnds = (ends[0], ends[1])
        signal(SIGINT) { _ in
            // Only write(2) here: it is async-signal-safe.
            var byte: UInt8 = 1
            _ = write(Interrupt.pipeEnds.write, &byte, 1)
        }
        // A parent may start this process with the signal blocked (Foundation's `Process`
        // does); unblocked here, before the server's threads start, it is unblocked in them too.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }

    /// Returns once Ctrl-C was pressed (at once if it was since `init`).
    func wait() {
        var byte: UInt8 = 0
        while read(Self.pipeEnds.read, &byte, 1) != 1 {}
    }
}

/// Why Ctrl-C cannot be waited for.
struct InterruptError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "cannot wait for Ctrl-C: \(reason)" }
}
