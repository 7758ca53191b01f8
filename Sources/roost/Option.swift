/// One command-line option, declared once: parsing, its default and its line in `--help`
/// all come from this declaration.
struct Option: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `--name VALUE` (the last one given wins).
        case value(placeholder: String)
        /// `--name VALUE`, any number of times.
        case repeated(placeholder: String)
        /// `--name`, no value.
        case flag
    }

    let name: String
    let kind: Kind
    /// What the value is used for; may run over several lines (`\n`).
    let help: String
    /// Used when the option is not given (shown in `--help`).
    let defaultValue: String?

    static func value(
        _ name: String, _ placeholder: String, default defaultValue: String? = nil,
        _ help: String
    ) -> Option {
        Option(name: name, kind: .value(placeholder: placeholder), help: help, defaultValue: defaultValue)
    }

    static func repeated(
        _ name: String, _ placeholder: String, default defaultValue: String? = nil,
        _ help: String
    ) -> Option {
        Option(name: name, kind: .repeated(placeholder: placeholder), help: help, defaultValue: defaultValue)
    }

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, kind: .flag, help: help, defaultValue: nil)
    }

    var takesValue: Bool { kind != .flag }

    /// `--store PATH`.
    var synopsis: String {
        switch kind {
        case .value(let placeholder), .repeated(let placeholder): "--\(name) \(placeholder)"
        case .flag: "--\(name)"
        }
    }
}

/// The options several commands share, declared once.
enum CommonOptions {
    static let store = Option.value("store", "PATH", default: "content", "a directory store or a single-file export")
    static let templates = Option.value(
        "templates", "DIR",
        "the theme folder (default: templates/ when the current folder\nhas one, else the theme built into roost)")
    static let pageSize = Option.value("page-size", "N", default: "20", "tweets per page")
    static let viewer = Option.value("viewer", "HANDLE", "render the site as this user sees it: their likes filled")
    static let strict = Option.flag("strict", "fail on warnings (dangling references), not only on errors")
    static let force = Option.flag("force", "replace the contents of a non-empty destination")
}

extension Array where Element == Option {
    /// The `options:` table of a command's help: each synopsis, then its help (and default),
    /// continuation lines aligned.
    var helpTable: String {
        let width = (map(\.synopsis.count).max() ?? 0) + 2
        return map { option in
            var lines = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let value = option.defaultValue { lines[lines.count - 1] += " (default: \(value))" }
            if case .repeated = option.kind { lines[lines.count - 1] += "; repeatable" }
            let indent = String(repeating: " ", count: width + 2)
            return "  " + option.synopsis.padding(width) + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }
}
