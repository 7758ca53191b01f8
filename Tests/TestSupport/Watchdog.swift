import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child started by a bash script (the watchdog) whose standard input is a pipe this process
/// alone holds the write end of, `lifeline`: its closing (`end()`, or this process ending
/// however it ends) is the script's signal to end the child. Signals would not do: test
/// threads block them, and children inherit that.
struct Watchdog: @unchecked Sendable {  // Process: used only by whoever holds the Watchdog.
    let process: Process
    let lifeline: Int32

    /// Runs `script` under `/bin/bash -c` with `arguments` (`$0` is `name`); `what` names it in
    /// errors.
    static func start(script: String, name: String, arguments: [String], what: String) throws(EmulatorError)
        -> Watchdog
    {
        var ends: [Int32] = [0, 0]
        // Close on exec at once (Glibc's module has no pipe2): no other child gets a copy of the
        // write end, which would keep the pipe open.
        guard pipe(&ends) == 0 else { throw EmulatorError("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, name] + arguments
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            close(ends[0])
            close(ends[1])
            throw EmulatorError("cannot run /bin/bash for \(what)'s watchdog: \(error)")
        }
        // The child has its copy of the read end.
        close(ends[0])
        return Watchdog(process: process, lifeline: ends[1])
    }

    /// Tells the watchdog to end its child (it does within a second) and waits for it.
    func end() {
        close(lifeline)
        process.waitUntilExit()
    }

    /// Connects to 127.0.0.1:`port` and lets go: 0 when something took the connection, else
    /// the errno (`ECONNREFUSED`: nothing listens).
    static func connectionError(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        return connected ? 0 : errno
    }
}
