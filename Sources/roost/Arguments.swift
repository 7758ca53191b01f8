/// The command line after the command name: `--name value`, `--name=value`, `--flag`, and positionals.
/// Each command declares what it takes, so a typo is a usage error (exit 2), never ignored.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - options: names (without `--`) that take a value.
    ///   - flags: names that take none.
    init(_ arguments: some Sequence<String>, options: Set<String>, flags: Set<String>) throws(UsageError) {
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if argument.hasPrefix("-"), argument != "-", !onlyPositionals {
                    throw UsageError("unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if options.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("option '--\(name)' needs a value")
                }
                values[name, default: []].append(value)
            } else if flags.contains(name), inlineValue == nil {
                self.flags.insert(name)
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    /// The last value given for an option, or the default.
    func value(_ name: String, default fallback: String) -> String { values[name]?.last ?? fallback }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("option '--\(name)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }
}

/// A mistake on the command line: exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
