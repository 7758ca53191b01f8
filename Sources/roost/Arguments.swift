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
    /// The folder of the settings file (`ProjectFile.folder(of:)`; empty: the current folder).
    /// The defaults of the paths it may set are relative to it, as the paths it sets are: with
    /// `--config other/roost.json`, the store is `other/content`, the theme `other/templates/`
    /// when there is one, and the output `other/public`, as they are when run in `other`.
    /// (Paths on the command line stay relative to the current folder.)
    private(set) var projectFolder = ""

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
            if let given = values[Options.config.name]?.last {
                project = try ProjectFile(path: given, keys: Options.projectKeys)
                projectFolder = ProjectFile.folder(of: given)
            } else {
                project = try ProjectFile.inCurrentFolder(keys: Options.projectKeys)
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

    /// The last value given, else the one from `roost.json`, else the option's default; checked
    /// against the option's type (a whole number in its range, one of its choices…).
    func value(_ option: Option) throws(UsageError) -> String? {
        guard let text = values[option.name]?.last ?? configured[option.name]?.last ?? defaultValue(option) else {
            return nil
        }
        try option.check(text, fromConfig: isConfigured(option))
        return text
    }
    /// Every value given, else those from `roost.json`, else the default alone.
    func all(_ option: Option) -> [String] {
        values[option.name] ?? configured[option.name] ?? defaultValue(option).map { [$0] } ?? []
    }
    /// The option's default; a path `roost.json` may set, in the project's folder.
    private func defaultValue(_ option: Option) -> String? {
        guard let value = option.defaultValue, option.type == .path, option.configKey != nil else {
            return option.defaultValue
        }
        return ProjectFile.path(value, in: projectFolder)
    }
    func flag(_ option: Option) -> Bool { flags.contains(option.name) }
    /// True when the option's value is `roost.json`'s (not given on the command line).
    func isConfigured(_ option: Option) -> Bool { values[option.name] == nil && configured[option.name] != nil }
    /// True when the option was given (not only defaulted).
    func has(_ option: Option) -> Bool { values[option.name] != nil || flags.contains(option.name) }

    /// A value the command cannot do without: the option's default, or `missing` when it has none.
    func required(_ option: Option, missing: String = "") throws(UsageError) -> String {
        guard let value = try value(option) else {
            throw UsageError(missing.isEmpty ? "missing '\(option.synopsis)'" : missing)
        }
        return value
    }

    /// An option that takes a whole number (`Option.ValueType.wholeNumber`), read and checked.
    func integer(_ option: Option) throws(UsageError) -> Int {
        Int(try required(option))!
    }

    /// An option that takes a number (`Option.ValueType.number`), read and checked.
    func number(_ option: Option) throws(UsageError) -> Double {
        Double(try required(option))!
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
        let text = try required(Options.baseURL)
        let base: String
        do {
            base = try BaseURL.normalized(text)
        } catch {
            throw UsageError((isConfigured(Options.baseURL) ? "roost.json: baseURL: " : "") + error.description)
        }
        let media = MediaMode(rawValue: try required(Options.media))!
        // Every page's <title> and the feeds' <title>: HTML refuses an empty one.
        let title = try required(Options.title)
        if title.allSatisfy(\.isWhitespace) {
            throw Options.title.invalid(
                title, expected: "a name that is not empty", notingConfig: isConfigured(Options.title))
        }
        return SiteConfig(
            baseURL: base, pageSize: try integer(Options.pageSize), viewer: try value(Options.viewer),
            title: title, description: try value(Options.description),
            language: try required(Options.language), media: media)
    }

    /// Where and how `--media mirror` keeps images, and which networks it may reach.
    func mediaOptions() throws(UsageError) -> MediaOptions {
        var options = MediaOptions(
            cache: try required(Options.cache), offline: flag(Options.offline), refresh: flag(Options.refreshMedia))
        for text in all(Options.mediaAllow) {
            guard let network = IPNetwork(text) else {
                throw Options.mediaAllow.invalid(
                    text, expected: "a network such as 127.0.0.1/32, 192.168.1.0/24 or ::1/128",
                    notingConfig: isConfigured(Options.mediaAllow))
            }
            options.allow.append(network)
        }
        return options
    }
}
