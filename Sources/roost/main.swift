#if canImport(Glibc)
import Glibc
#endif

/// `roost COMMAND [options]`: see `roost --help`.
enum Roost {
    static let version = "0.1.0"
    static let commands: [any Command.Type] = [
        BuildCommand.self, ServeCommand.self, CheckCommand.self, InitCommand.self, ImportCommand.self, GenerateCommand.self,
    ]
}

func mainHelp() -> String {
    let commands = Roost.commands
    let width = commands.map { $0.name.count }.max() ?? 0
    let lines = commands.map { "  \($0.name.padding(width))  \($0.summary)" }.joined(separator: "\n")
    return """
    roost \(Roost.version): a static site generator for the data of a Twitter-like app.

    usage: roost COMMAND [options]

    commands:
    \(lines)

    Run 'roost COMMAND --help' for a command's options.
    """
}

func run(_ argv: [String]) -> Int32 {
    guard let first = argv.first else {
        Console.error(mainHelp())
        return ExitStatus.usage
    }
    switch first {
    case "--help", "-h", "help":
        Console.out(mainHelp())
        return ExitStatus.success
    case "--version":
        Console.out("roost \(Roost.version)")
        return ExitStatus.success
    default:
        break
    }
    guard let command = Roost.commands.first(where: { $0.name == first }) else {
        Console.error("roost: unknown command '\(first)'\n\n\(mainHelp())")
        return ExitStatus.usage
    }
    let rest = argv.dropFirst()
    if rest.contains("--help") || rest.contains("-h") {
        Console.out(command.help)
        return ExitStatus.success
    }
    do {
        let arguments = try Arguments(rest, options: command.options, flags: command.flags)
        return try command.run(arguments)
    } catch let error as UsageError {
        Console.error("roost \(command.name): \(error)\nRun 'roost \(command.name) --help' for usage.")
        return ExitStatus.usage
    } catch {
        Console.error("roost \(command.name): \(error)")
        return ExitStatus.failure
    }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
