#if canImport(Glibc)
import Glibc
#endif

/// The wall clock a build trusts file stamps by, in nanoseconds since 1970 (the time file
/// stamps are in): a file changed within `BuildInputs.racyWindow` of it may keep its stamp
/// through another change, so it is not trusted yet.
package struct BuildClock: Sendable {
    package let now: @Sendable () -> Int64

    package init(now: @escaping @Sendable () -> Int64) { self.now = now }

    /// The system's.
    package static let system = BuildClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The system's, `seconds` ahead: the files written a moment ago are already settled, as
    /// if that long had passed (tests, instead of waiting for the window to pass).
    package static func ahead(by seconds: Double) -> BuildClock {
        BuildClock { system.now() + Int64(seconds * 1e9) }
    }
}
