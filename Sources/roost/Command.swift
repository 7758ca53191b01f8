/// One `roost` subcommand: what it takes, declared once, and what it does.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for `roost --help`.
    static var summary: String { get }
    /// After `usage: roost `: the command and its arguments.
    static var usage: String { get }
    /// What the command does, for its `--help`.
    static var about: String { get }
    static var options: [Option] { get }
    /// What a shell completes the arguments that are not options with (`init DIR`: folders).
    static var operands: Option.Completion { get }
    /// Lines after the options table (exit statuses, notes), if any.
    static var epilogue: String? { get }
    /// The whole `roost NAME --help` text (made from the above).
    static var help: String { get }
    /// Runs the command; returns the exit status (0 success, 1 data or build error).
    static func run(_ arguments: Arguments) throws -> Int32
}

extension Command {
    static var epilogue: String? { nil }
    static var operands: Option.Completion { .nothing }

    static var help: String {
        var text = "usage: roost \(usage)\n\n\(about)"
        if !options.isEmpty { text += "\n\noptions:\n\(options.helpTable)" }
        if let epilogue { text += "\n\n" + epilogue }
        return text
    }
}

/// Exit statuses of SPEC 5.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}
