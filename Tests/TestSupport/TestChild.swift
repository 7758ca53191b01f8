import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// This test binary run again as a child process that runs only the test `filter`, with
/// `variable` set to `value` in its environment: for tests that kill a writer with SIGKILL
/// at an arbitrary moment (the child test is enabled only when the variable is set).
package final class TestChild {
    private let process = Process()

    package init(filter: String, variable: String, value: String) throws {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw CocoaError(.fileReadUnknown) }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: value]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The child's pid: what files it names after itself are called.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGKILL and waits; true when the child died of it (it was still running).
    package func kill() -> Bool {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }
}
