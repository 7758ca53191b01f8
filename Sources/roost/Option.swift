import Build
import Support

/// One command-line option, declared once (in `Options`): parsing, its default, its range or
/// choices, its `roost.json` key, its usage errors and its line in `--help` all come from
/// this declaration. A command may word its help for what the option means there
/// (`helping`), or let a shared option repeat (`repeating`); the option stays the same.
struct Option: Sendable, Hashable {
    /// What a value is: how it is checked, and what its `roost.json` key holds.
    enum ValueType: Sendable, Hashable {
        /// Any text.
        case text
        /// A file or folder (in `roost.json`, relative to the file).
        case path
        /// A whole number in the range.
        case wholeNumber(ClosedRange<Int>)
        /// A number, decimals allowed, in the range.
        case number(ClosedRange<Double>)
        /// One of these words (`--media link|mirror|none`).
        case choice([String])
    }

    /// What a shell offers for a value (`roost completions`).
    enum Completion: Sendable, Hashable {
        /// Nothing to offer: any text, a number.
        case nothing
        /// One of these words.
        case words([String])
        /// Folders.
        case folders
        /// Files and folders; with a suffix (`.json`), only the files that end in it (and folders, to go into).
        case files(suffix: String?)
        /// The languages the built-in theme has a translation table for (found when a script is written:
        /// reading the theme costs more than a build that never completes anything should pay).
        case themeLanguages
    }

    enum Kind: Sendable, Hashable {
        /// `--name VALUE` (the last one given wins, unless the option repeats).
        case value(placeholder: String, type: ValueType)
        /// `--name`, no value.
        case flag
    }

    let name: String
    let kind: Kind
    /// `--name VALUE` any number of times: every value counts.
    private(set) var repeats = false
    /// What the value is used for; may run over several lines (`\n`).
    private(set) var help: String
    /// Used when the option is not given (shown in `--help`).
    let defaultValue: String?
    /// The key of `roost.json` that sets it when the command line does not (SPEC 10).
    let configKey: String?
    /// What a shell completes its value with.
    let completion: Completion

    /// `completes` is needed only where the type does not say it: choices complete as their words,
    /// a `.path` shown as `DIR` as folders, any other `.path` as files and folders.
    static func value(
        _ name: String, _ placeholder: String, _ type: ValueType = .text, default defaultValue: String? = nil,
        config: String? = nil, repeats: Bool = false, completes completion: Completion? = nil, _ help: String
    ) -> Option {
        Option(
            name: name, kind: .value(placeholder: placeholder, type: type), repeats: repeats, help: help,
            defaultValue: defaultValue, configKey: config,
            completion: completion ?? Self.completion(of: type, placeholder: placeholder))
    }

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, kind: .flag, help: help, defaultValue: nil, configKey: nil, completion: .nothing)
    }

    private static func completion(of type: ValueType, placeholder: String) -> Completion {
        switch type {
        case .choice(let words): .words(words)
        case .path: placeholder == "DIR" ? .folders : .files(suffix: nil)
        case .text, .wholeNumber, .number: .nothing
        }
    }

    /// The same option, its help worded for one command.
    func helping(_ help: String) -> Option {
        var option = self
        option.help = help
        return option
    }

    /// The same option, its value given any number of times (`serve --store A --store B`).
    func repeating() -> Option {
        var option = self
        option.repeats = true
        return option
    }

    /// The same option, its value shown as `placeholder` (`--to DIR|FILE.json`).
    func showing(_ placeholder: String) -> Option {
        guard case .value(_, let type) = kind else { return self }
        return Option(
            name: name, kind: .value(placeholder: placeholder, type: type), repeats: repeats, help: help,
            defaultValue: defaultValue, configKey: configKey, completion: completion)
    }

    var takesValue: Bool { kind != .flag }

    var type: ValueType? {
        guard case .value(_, let type) = kind else { return nil }
        return type
    }

    /// `--store PATH`.
    var synopsis: String {
        switch kind {
        case .value(let placeholder, _): "--\(name) \(placeholder)"
        case .flag: "--\(name)"
        }
    }

    /// What its `roost.json` key holds, when it has one.
    var configEntry: ProjectFile.Key? {
        guard let configKey, let type else { return nil }
        if repeats { return ProjectFile.Key(configKey, .textList) }
        switch type {
        case .text, .choice: return ProjectFile.Key(configKey, .text)
        case .path: return ProjectFile.Key(configKey, .path)
        case .wholeNumber: return ProjectFile.Key(configKey, .wholeNumber)
        case .number: return nil
        }
    }

    /// The usage error of a value this option does not take: `option '--media' (roost.json:
    /// media) takes link, mirror or none, not 'x'`.
    func invalid(_ text: String, expected: String, notingConfig: Bool = false, hint: String = "") -> UsageError {
        let source = notingConfig ? configKey.map { " (roost.json: \($0))" } ?? "" : ""
        return UsageError("option '--\(name)'\(source) takes \(expected), not '\(text)'\(hint)")
    }

    /// `text` checked against the option's type: nil when it does not fit (the error says why).
    /// `fromConfig`: the value is `roost.json`'s, which the error then names.
    func check(_ text: String, fromConfig: Bool = false) throws(UsageError) {
        switch type {
        case .wholeNumber(let range):
            guard let n = Int(text), range.contains(n) else {
                throw invalid(
                    text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                    notingConfig: fromConfig)
            }
        case .number(let range):
            guard let x = Double(text), range.contains(x) else {
                throw invalid(
                    text,
                    expected: "a number from \(Self.decimal(range.lowerBound)) to \(Self.decimal(range.upperBound))",
                    notingConfig: fromConfig)
            }
        case .choice(let choices):
            guard choices.contains(text) else {
                let list = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
                throw invalid(
                    text, expected: list, notingConfig: fromConfig, hint: Suggestion.hint(for: text, among: choices))
            }
        case .path:
            // An empty path is the current folder to the file system: never what was meant.
            if text.isEmpty { throw invalid(text, expected: "a path", notingConfig: fromConfig) }
        case .text, nil:
            break
        }
    }

    /// `3` for 3.0, `0.5` for 0.5: a number as one types it.
    static func decimal(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}

extension Array where Element == Option {
    /// The `options:` table of a command's help: each synopsis, then its help (and default),
    /// continuation lines aligned.
    var helpTable: String {
        let width = (map(\.synopsis.count).max() ?? 0) + 2
        return map { option in
            var lines = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let value = option.defaultValue { lines[lines.count - 1] += " (default: \(value))" }
            if option.repeats { lines[lines.count - 1] += "; repeatable" }
            let indent = String(repeating: " ", count: width + 2)
            return "  " + option.synopsis.padding(width) + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }

    /// The same options, `option` among them repeating.
    func repeating(_ option: Option) -> [Option] {
        map { $0.name == option.name ? $0.repeating() : $0 }
    }
}
