import Foundation

/// Runs the built `roost` binary, as a user would.
struct RoostProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The package's root, for the sample `content/` and `templates/`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The test bundle sits beside the products it was built with.
    static let binary: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("roost").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("roost")
    }()

    @discardableResult
    static func run(
        _ arguments: [String], in directory: URL = packageRoot, binary: URL = binary,
        environment: [String: String] = [:], removing: [String] = []
    ) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty || !removing.isEmpty {
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            for name in removing { merged[name] = nil }
            process.environment = merged
        }
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
