#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's message for an errno value ("No such file or directory"), for error messages.
public func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// A failed system call's errno, as an error.
public struct ErrnoCode: Error, Equatable, Sendable {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    public var text: String { errnoText(code) }
}
