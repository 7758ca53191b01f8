#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's message for an errno value ("No such file or directory"), for error messages.
package func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
