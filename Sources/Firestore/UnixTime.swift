#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The wall clock in unix seconds: what JWT claims and token lifetimes count in.
package func unixSecondsNow() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec)
}
