import Foundation
import Testing

/// The shells and man tools the completion and manual tests run: found on PATH, so a test that
/// needs a missing one is skipped, and says so, rather than passing (`scripts/install-deps --test`
/// installs them).
enum ShellTools {
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static let bash = find("bash")
    static let zsh = find("zsh")
    static let fish = find("fish")
    static let groff = find("groff")
    static let man = find("man")

    /// Runs `tool` (which the test's trait made sure is there).
    static func run(_ tool: URL?, _ arguments: [String], in folder: URL? = nil) throws -> RoostProcess.Result {
        let tool = try #require(tool)
        return try RoostProcess.run(arguments, in: folder ?? RoostProcess.packageRoot, binary: tool)
    }

    /// A new empty folder, removed by the caller.
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roost-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
