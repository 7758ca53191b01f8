/// The zsh completion script, for a folder of `$fpath` (as `_roost`): `_roost` picks the command,
/// `_roost_COMMAND` describes its options to `_arguments`, with each option's help as its description.
enum ZshCompletion {
    static func script(for table: CompletionTable) -> String {
        var lines = [
            "#compdef roost",
            "# zsh completion for roost \(table.version), written by 'roost completions zsh' from its option table.",
            "# Install: roost completions zsh > ~/.zfunc/_roost, with fpath=(~/.zfunc $fpath) before compinit",
            "# in ~/.zshrc.",
            "",
        ]
        lines += main(table)
        for command in table.commands {
            lines += [""] + function(command, table: table)
        }
        // Autoloaded from $fpath, the file is _roost's body: it runs the function it has just defined.
        // Sourced, it registers it.
        lines += [
            "",
            "if [[ $funcstack[1] == _roost ]]; then",
            "    _roost \"$@\"",
            "else",
            "    compdef _roost roost",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    private static func main(_ table: CompletionTable) -> [String] {
        var lines = [
            "_roost() {",
            "    local curcontext=$curcontext state line",
            "    local -a commands",
            "    commands=(",
        ]
        for command in table.commands {
            lines.append("        \(quoted(command.name + ":" + command.summary))")
        }
        lines += ["    )", "    _arguments -C \\"]
        for option in table.topLevel {
            lines.append("        \(quoted("(- 1 *)--\(option.name)[\(described(option.help))]")) \\")
        }
        lines += [
            "        '1: :->command' \\",
            "        '*:: :->argument'",
            "    case $state in",
            "    command)",
            "        _describe -t commands 'roost command' commands",
            "        ;;",
            "    argument)",
            "        curcontext=${curcontext%:*:*}:roost-$words[1]:",
            "        case $words[1] in",
        ]
        for command in table.commands {
            lines.append("        \(command.name)) _roost_\(command.name) ;;")
        }
        lines += ["        esac", "        ;;", "    esac", "}"]
        return lines
    }

    private static func function(_ command: CompletionTable.Entry, table: CompletionTable) -> [String] {
        var specs = [
            "'(- *)'{-h,--help}" + quoted("[show the help of roost \(command.name)]")
        ]
        for option in command.options {
            let description = "[\(described(option.help.oneLine()))]"
            guard case .value(let placeholder, _) = option.kind else {
                specs.append(quoted("--\(option.name)\(description)"))
                continue
            }
            let repeats = option.repeats ? "*" : ""
            let message = placeholder.replacingOccurrences(of: ":", with: "\\:")
            specs.append(
                quoted("\(repeats)--\(option.name)=\(description):\(message):\(action(table.completion(of: option)))"))
        }
        if command.operands != .nothing {
            specs.append(quoted("1: :\(action(command.operands))"))
        }
        return ["_roost_\(command.name)() {", "    _arguments \\"]
            + specs.enumerated().map { index, spec in
                "        " + spec + (index == specs.count - 1 ? "" : " \\")
            } + ["}"]
    }

    /// What `_arguments` does for a value: `_files -/`, `(link mirror none)`, or a space (nothing, the message alone).
    private static func action(_ completion: Option.Completion) -> String {
        switch completion {
        case .nothing, .themeLanguages: " "
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .folders: "_files -/"
        case .files(let suffix?): "_files -g \"*\(suffix)\""
        case .files(nil): "_files"
        }
    }

    /// A description inside `[...]`: its brackets and backslashes escaped.
    private static func described(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "[" || character == "]" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// In single quotes, for the shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
