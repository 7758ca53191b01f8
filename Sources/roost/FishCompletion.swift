/// The fish completion script: one `complete` line per command and per option of each command,
/// with its help as the description.
enum FishCompletion {
    static func script(for table: CompletionTable) -> String {
        var lines = [
            "# fish completion for roost \(table.version), written by 'roost completions fish' from its option table.",
            "# Install: roost completions fish > ~/.config/fish/completions/roost.fish",
            "",
            // The command is the second word, whatever words later hold (`serve --store build`).
            "function __roost_needs_command",
            "    test (count (commandline -opc)) -eq 1",
            "end",
            "",
            "function __roost_using",
            "    set -l words (commandline -opc)",
            "    test (count $words) -ge 2; and test $words[2] = $argv[1]",
            "end",
            "",
            // No file names where roost takes none.
            "complete -c roost -f",
        ]
        for option in table.topLevel {
            lines.append("complete -c roost -n __roost_needs_command -l \(option.name) -d \(quoted(option.help))")
        }
        for command in table.commands {
            lines.append(
                "complete -c roost -n __roost_needs_command -a \(command.name) -d \(quoted(command.summary))")
        }
        for command in table.commands {
            lines.append("")
            let condition = "-c roost -n \(quoted("__roost_using \(command.name)"))"
            lines.append("complete \(condition) -s h -l help -d \(quoted("show the help of roost \(command.name)"))")
            for option in command.options {
                let value = option.takesValue ? " " + arguments(table.completion(of: option)) : ""
                lines.append(
                    "complete \(condition) -l \(option.name)\(value) -d \(quoted(option.help.oneLine()))")
            }
            if command.operands != .nothing {
                lines.append("complete \(condition) \(operands(command.operands))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `complete`'s arguments for an option's value: required, with no file names (`-x`) or
    /// with them (`-r`), and what it offers (as for operands).
    private static func arguments(_ completion: Option.Completion) -> String {
        let required = completion == .files(suffix: nil) ? "-r" : "-x"
        let offered = operands(completion)
        return offered.isEmpty ? required : required + " " + offered
    }

    /// `complete`'s arguments for the words that are not options.
    private static func operands(_ completion: Option.Completion) -> String {
        switch completion {
        case .nothing, .themeLanguages: ""
        case .words(let words): "-a \(quoted(words.joined(separator: " ")))"
        case .folders: "-a '(__fish_complete_directories (commandline -ct))'"
        case .files(let suffix?): "-k -a \(quoted("(__fish_complete_suffix \(suffix))"))"
        case .files(nil): "-F"
        }
    }

    /// In fish's single quotes: only `\` and `'` are escaped.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
