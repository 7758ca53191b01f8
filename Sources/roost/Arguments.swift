/// The command line after the command name, read by the command's declared options:
/// `--name value`, `--name=value`, `--flag`, and positionals. A typo is a usage error
/// (exit 2) that names the nearest valid option, never ignored.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ arguments: some Sequence<String>, options: [Option]) throws(UsageError) {
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.drop { $0 == "-" })
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard argument.hasPrefix("--"), let option = byName[name], option.takesValue || inlineValue == nil else {
                let hint = Suggestion.hint(for: name, among: options.map(\.name), prefix: "--")
                throw UsageError("unknown option '\(argument.split(separator: "=").first ?? "")'\(hint)")
            }
            if option.takesValue {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("option '--\(name)' needs a value")
                }
                values[name, default: []].append(value)
            } else {
                flags.insert(name)
            }
        }
    }

    /// The last value given, or the option's default.
    func value(_ option: Option) -> String? { values[option.name]?.last ?? option.defaultValue }
    /// Every value given, or the default alone.
    func all(_ option: Option) -> [String] { values[option.name] ?? option.defaultValue.map { [$0] } ?? [] }
    func flag(_ option: Option) -> Bool { flags.contains(option.name) }
    /// True when the option was given (not only defaulted).
    func has(_ option: Option) -> Bool { values[option.name] != nil || flags.contains(option.name) }

    /// A value the command cannot do without.
    func required(_ option: Option, _ message: String) throws(UsageError) -> String {
        guard let value = value(option) else { throw UsageError(message) }
        return value
    }

    func integer(_ option: Option, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(
                "option '--\(option.name)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
            )
        }
        return n
    }

    /// No positionals beyond `count`.
    func expectPositionals(_ count: Int, missing: String) throws(UsageError) {
        if positionals.count < count { throw UsageError(missing) }
        if positionals.count > count { throw UsageError("unexpected argument '\(positionals[count])'") }
    }
}

/// A mistake on the command line: exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
