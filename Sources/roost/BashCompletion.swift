/// The bash completion script: `_roost`, the function `complete -F` calls, which hands each
/// command's words to `_roost_COMMAND`. Standalone (bash 4.0 or later; bash-completion's helpers
/// are not needed).
enum BashCompletion {
    static func script(for table: CompletionTable) -> String {
        var lines = [
            "# bash completion for roost \(table.version), written by 'roost completions bash' from its option table.",
            "# Install: roost completions bash > ~/.local/share/bash-completion/completions/roost",
            "",
        ]
        lines += helpers
        lines += main(table)
        for command in table.commands {
            lines += [""] + function(command, table: table)
        }
        lines += ["", "complete -F _roost roost"]
        return lines.joined(separator: "\n")
    }

    /// COMPREPLY from words, folders or files; each takes the word being completed first.
    private static let helpers = [
        "_roost_words() {",
        "    mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$2\")",
        "}",
        "",
        "_roost_folders() {",
        "    compopt -o filenames 2>/dev/null",
        "    mapfile -t COMPREPLY < <(compgen -d -- \"$1\")",
        "}",
        "",
        "# With a suffix (.json): folders, to go into, and the files that end in it.",
        "_roost_files() {",
        "    compopt -o filenames 2>/dev/null",
        "    if [[ -n $2 ]]; then",
        "        mapfile -t COMPREPLY < <(compgen -d -- \"$1\"; compgen -f -X '!*'\"$2\" -- \"$1\")",
        "    else",
        "        mapfile -t COMPREPLY < <(compgen -f -- \"$1\")",
        "    fi",
        "}",
        "",
    ]

    private static func main(_ table: CompletionTable) -> [String] {
        let first = table.commands.map(\.name) + table.topLevel.map { "--" + $0.name }
        var lines = [
            "_roost() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev",
            "    COMPREPLY=()",
            "    # bash splits --name=value at the '=' (COMP_WORDBREAKS): the option is the word before it.",
            "    if [[ $cur == = ]]; then",
            "        cur= prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    elif [[ ${COMP_WORDS[COMP_CWORD-1]} == = ]]; then",
            "        prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    else",
            "        prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    fi",
            "    if ((COMP_CWORD == 1)); then",
            "        _roost_words '\(first.joined(separator: " "))' \"$cur\"",
            "        return 0",
            "    fi",
            "    case ${COMP_WORDS[1]} in",
        ]
        for command in table.commands {
            lines.append("    \(command.name)) _roost_\(command.name) \"$cur\" \"$prev\" ;;")
        }
        lines += ["    esac", "    return 0", "}"]
        return lines
    }

    /// `_roost_build CUR PREV`: the value of the option before, else an option or an operand.
    private static func function(_ command: CompletionTable.Entry, table: CompletionTable) -> [String] {
        var groups: [(completion: Option.Completion, names: [String])] = []
        for option in command.options where option.takesValue {
            let completion = table.completion(of: option)
            if let index = groups.firstIndex(where: { $0.completion == completion }) {
                groups[index].names.append("--" + option.name)
            } else {
                groups.append((completion, ["--" + option.name]))
            }
        }
        var lines = ["_roost_\(command.name)() {"]
        if !groups.isEmpty {
            lines.append("    case $2 in")
            for group in groups {
                let action = reply(group.completion).map { "\($0); return 0" } ?? "return 0"
                lines.append("    \(group.names.joined(separator: " | "))) \(action) ;;")
            }
            lines.append("    esac")
        }
        let options = reply(.words(command.options.map { "--" + $0.name } + ["--help"]))!
        if let operand = reply(command.operands) {
            lines += ["    if [[ $1 == -* ]]; then", "        \(options)", "    else", "        \(operand)", "    fi"]
        } else {
            lines.append("    \(options)")
        }
        lines.append("}")
        return lines
    }

    /// The call that fills COMPREPLY for the word being completed (`$1`); nil when nothing is offered.
    private static func reply(_ completion: Option.Completion) -> String? {
        switch completion {
        case .nothing, .themeLanguages: nil
        case .words(let words): "_roost_words '\(words.joined(separator: " "))' \"$1\""
        case .folders: "_roost_folders \"$1\""
        case .files(let suffix?): "_roost_files \"$1\" '\(suffix)'"
        case .files(nil): "_roost_files \"$1\""
        }
    }
}
