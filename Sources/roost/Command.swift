/// One `roost` subcommand.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for `roost --help`.
    static var summary: String { get }
    /// The whole `roost NAME --help` text.
    static var help: String { get }
    static var options: Set<String> { get }
    static var flags: Set<String> { get }
    /// Runs the command; returns the exit status (0 success, 1 data or build error).
    static func run(_ arguments: Arguments) throws -> Int32
}

/// Exit statuses of SPEC 5.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}
