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

/// A failed system call's errno, as an error.
package struct ErrnoCode: Error, Equatable, Sendable {
    package let code: Int32
    package init(_ code: Int32) { self.code = code }
    package var text: String { errnoText(code) }
}
