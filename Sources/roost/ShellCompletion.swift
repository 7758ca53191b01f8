import Build
import Site

/// A shell `roost completions` writes a script for.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// `bash, zsh or fish`.
    static let names = allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue

    /// The completion script of roost's commands for this shell: made from `Roost.commands` and
    /// their options, so it completes what `--help` lists, nothing else.
    func script(for commands: [any Command.Type] = Roost.commands) -> String {
        let table = CompletionTable(commands: commands)
        switch self {
        case .bash: return BashCompletion.script(for: table)
        case .zsh: return ZshCompletion.script(for: table)
        case .fish: return FishCompletion.script(for: table)
        }
    }
}

/// What the three scripts complete, taken from the commands once: their names and summaries, their
/// options and what each value completes with (the theme's languages looked up here).
struct CompletionTable {
    struct Entry {
        let name: String
        let summary: String
        let options: [Option]
        /// What the arguments that are not options complete with.
        let operands: Option.Completion
    }

    let commands: [Entry]
    /// What `roost` takes before a command.
    let topLevel: [(name: String, help: String)] = [
        ("help", "show roost's commands"), ("version", "show roost's version"),
    ]
    /// Put in each script's first lines: which roost wrote it.
    let version = RoostVersion.current

    init(commands: [any Command.Type]) {
        self.commands = commands.map { command in
            Entry(
                name: command.name, summary: command.summary, options: command.options,
                operands: Self.resolved(command.operands))
        }
    }

    /// What `option`'s value completes with, `.themeLanguages` resolved to words.
    func completion(of option: Option) -> Option.Completion {
        Self.resolved(option.completion)
    }

    /// Every word a script offers: command names, option names and value words. They go into
    /// the scripts unquoted, so each must be a plain word (a test checks it).
    var words: [String] {
        var words = commands.map(\.name) + topLevel.map { "--" + $0.name }
        for command in commands {
            words += command.options.map { "--" + $0.name }
            for completion in command.options.map(completion(of:)) + [command.operands] {
                if case .words(let list) = completion { words += list }
            }
        }
        return words
    }

    private static func resolved(_ completion: Option.Completion) -> Option.Completion {
        guard completion == .themeLanguages else { return completion }
        let languages = (try? Theme.builtIn.localized.languages) ?? [LocalizedTemplates.fallbackLanguage]
        return .words(languages)
    }
}

extension String {
    /// A help text on one line, cut after a word before `limit` characters: what a shell shows
    /// beside a completion.
    func oneLine(limit: Int = 76) -> String {
        let words = split(whereSeparator: \.isWhitespace)
        var line = ""
        for word in words {
            guard line.count + 1 + word.count <= limit else { return line + " ..." }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line
    }
}
