#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor that closes itself when its owner is done with it, so code with
/// several ways out (each error of a set-up) need not close by hand on each.
public struct FileDescriptor: ~Copyable {
    public let raw: Int32

    /// Takes ownership of `raw`, the result of `open`, `openat`, `dup`, …: nil when it is
    /// negative (the call failed, and `errno` says why).
    public init?(_ raw: Int32) {
        guard raw >= 0 else { return nil }
        self.raw = raw
    }

    deinit { close(raw) }

    /// Hands the descriptor on: the caller closes it.
    public consuming func release() -> Int32 {
        let raw = raw
        discard self
        return raw
    }
}
