/// `roost completions SHELL`: the completion script of bash, zsh or fish, made from the commands
/// and the option table (`Shell.script`), so it cannot offer what `--help` does not list.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "print the shell completion script of bash, zsh or fish"
    static let usage = "completions bash|zsh|fish"
    static let about = """
        Prints a script that completes roost's commands, each command's options and
        the values they take where those are known: --media's modes, the languages of
        the built-in theme, folders for --output and the other DIR options, .json
        files for --config. Install it where the shell looks:

          roost completions bash > ~/.local/share/bash-completion/completions/roost
          roost completions zsh > ~/.zfunc/_roost   (with fpath=(~/.zfunc $fpath))
          roost completions fish > ~/.config/fish/completions/roost.fish
        """
    static let options: [Option] = []
    static let operands = Option.Completion.words(Shell.allCases.map(\.rawValue))

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing the shell: \(Shell.names)")
        let name = arguments.positionals[0]
        guard let shell = Shell(rawValue: name) else {
            throw UsageError("unknown shell '\(name)': the scripts are for \(Shell.names)")
        }
        Console.out(shell.script())
        return ExitStatus.success
    }
}
