import Build
import Site
import Support

/// The command line after the command name, read by the command's declared options:
/// `--name value`, `--name=value`, `--flag`, and positionals. A typo is a usage error
/// (exit 2) that names the nearest valid option, never ignored.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// Values from `roost.json`, by option name: used where the command line gives none.
    private(set) var configured: [String: [String]] = [:]

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

    /// Reads `--config FILE`, or `roost.json` in the current folder when there is one, and
    /// takes its settings. A file that cannot be used is a usage error naming it.
    mutating func readProjectFile(options: [Option]) throws(UsageError) {
        do throws(ProjectFileError) {
            let project: ProjectFile?
            if let given = values[CommonOptions.config.name]?.last {
                project = try ProjectFile(path: given)
            } else {
                project = try ProjectFile.inCurrentFolder()
            }
            if let project { fill(from: project, options: options) }
        } catch {
            throw UsageError(error.description)
        }
    }

    /// Takes the settings of `project` for the options that have a key there (SPEC 10: the
    /// command line wins).
    mutating func fill(from project: ProjectFile, options: [Option]) {
        for option in options {
            if let key = option.configKey, let value = project.values[key] { configured[option.name] = value }
        }
    }

    /// The last value given, else the one from `roost.json`, else the option's default.
    func value(_ option: Option) -> String? {
        values[option.name]?.last ?? configured[option.name]?.last ?? option.defaultValue
    }
    /// Every value given, else those from `roost.json`, else the default alone.
    func all(_ option: Option) -> [String] {
        values[option.name] ?? configured[option.name] ?? option.defaultValue.map { [$0] } ?? []
    }
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

extension Arguments {
    /// What pages say, from the common options (and `roost.json`); the base URL checked.
    func siteConfig() throws(UsageError) -> SiteConfig {
        let base: String
        do {
            base = try BaseURL.normalized(value(CommonOptions.baseURL) ?? "/")
        } catch {
            throw UsageError(error.description)
        }
        let mode = value(CommonOptions.media) ?? MediaMode.link.rawValue
        guard let media = MediaMode(rawValue: mode) else {
            let modes = MediaMode.allCases.map(\.rawValue)
            throw UsageError(
                "option '--media' (roost.json: media) takes \(modes.dropLast().joined(separator: ", ")) or \(modes.last!), not '\(mode)'"
                    + Suggestion.hint(for: mode, among: modes))
        }
        return SiteConfig(
            baseURL: base, pageSize: try integer(CommonOptions.pageSize, range: 1...10_000)!,
            viewer: value(CommonOptions.viewer), title: value(CommonOptions.title)!,
            description: value(CommonOptions.description), language: value(CommonOptions.language)!,
            media: media)
    }

    /// Where and how `--media mirror` keeps images, and which networks it may reach.
    func mediaOptions() throws(UsageError) -> MediaOptions {
        var options = MediaOptions(
            cache: value(CommonOptions.cache) ?? MediaOptions.defaultCache, offline: flag(CommonOptions.offline),
            refresh: flag(CommonOptions.refreshMedia))
        for text in all(CommonOptions.mediaAllow) {
            guard let network = IPNetwork(text) else {
                throw UsageError(
                    "option '--media-allow' (roost.json: mediaAllow) takes a network such as 127.0.0.1/32, "
                        + "192.168.1.0/24 or ::1/128, not '\(text)'")
            }
            options.allow.append(network)
        }
        return options
    }
}
