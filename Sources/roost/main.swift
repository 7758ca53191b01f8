import Site
import Support

#if canImport(Glibc)
import Glibc
#endif

/// `roost COMMAND [options]`: see `roost --help`.
enum Roost {
    static let commands: [any Command.Type] = [
        BuildCommand.self, ServeCommand.self, CheckCommand.self, InitCommand.self, ImportCommand.self,
        GenerateCommand.self, CompletionsCommand.self, ManualCommand.self,
    ]

    /// What roost is, in `--help` and the manual's NAME.
    static let tagline = "a static site generator for the data of a Twitter-like app"

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  \($0.name.padding(width))  \($0.summary)" }.joined(separator: "\n")
        return """
            roost \(RoostVersion.current): \(tagline).

            usage: roost COMMAND [options]

            commands:
            \(lines)

            Run 'roost COMMAND --help' for a command's options.
            """
    }

    /// Runs the command line (without the program name); returns the exit status.
    static func run(_ argv: [String]) -> Int32 {
        guard let first = argv.first else {
            Console.error(help)
            return ExitStatus.usage
        }
        switch first {
        case "--help", "-h", "help":
            Console.out(help)
            return ExitStatus.success
        case "--version":
            Console.out("roost \(RoostVersion.current)")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let hint = Suggestion.hint(for: first, among: commands.map { $0.name })
            Console.error("roost: unknown command '\(first)'\(hint)\n\n\(help)")
            return ExitStatus.usage
        }
        let rest = argv.dropFirst()
        if rest.contains("--help") || rest.contains("-h") {
            Console.out(command.help)
            return ExitStatus.success
        }
        do {
            var arguments = try Arguments(rest, options: command.options)
            if command.options.contains(where: { $0.name == Options.config.name }) {
                try arguments.readProjectFile(options: command.options)
            }
            return try command.run(arguments)
        } catch let error as UsageError {
            Console.error("roost \(command.name): \(error)\nRun 'roost \(command.name) --help' for usage.")
            return ExitStatus.usage
        } catch {
            Console.error("roost \(command.name): \(ErrorHints.message(for: error))")
            return ExitStatus.failure
        }
    }
}

Heap.padGrowth()
exit(Roost.run(Array(CommandLine.arguments.dropFirst())))
