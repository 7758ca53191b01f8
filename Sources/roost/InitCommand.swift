import Build
import Foundation
import JSON

/// `roost init DIR`: a new site folder with `roost.json`, the sample store and a README, all
/// from inside the binary (`DefaultSite`); with `--theme`, the built-in theme too.
enum InitCommand: Command {
    static let name = "init"
    static let summary = "create a new site: roost.json, a sample store, a README"
    static let usage = "init DIR [--theme] [--force]"
    static let about = """
        Creates DIR with roost.json (the site's settings), the sample store (content/)
        and a README, ready for 'cd DIR && roost build'. The theme is built into roost;
        --theme also writes it to templates/ for editing (a templates/ folder replaces
        the built-in theme). Refuses a DIR that exists and is not empty, unless --force
        (then roost.json and content/, and with --theme templates/, are replaced).
        """
    static let options = [Options.theme, Options.force.helping("create the site in a DIR that is not empty")]
    static let operands = Option.Completion.folders

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing DIR")
        guard !arguments.positionals[0].isEmpty else { throw UsageError("DIR is empty; name the folder to create") }
        let folder = SiteFolder(path: arguments.positionals[0], withTheme: arguments.flag(Options.theme))
        try folder.create(settings: settings(of: folder), replacing: arguments.flag(Options.force))
        let path = URL(fileURLWithPath: folder.path).path
        Console.out(
            "created \(path): \(folder.contents.joined(separator: ", ")), README.md\n"
                + "next: cd \(path) && roost build, then open \(Options.output.defaultValue!)/index.html")
        return ExitStatus.success
    }

    /// `roost.json` (SPEC 10): the site's name, and the defaults of the main options spelled
    /// out to edit.
    static func settings(of folder: SiteFolder) -> [(key: String, value: JSONValue)] {
        var settings = [setting(Options.title, folder.name)]
        for option in [Options.language, Options.baseURL, Options.store, Options.output] {
            settings.append(setting(option, option.defaultValue!))
        }
        if folder.withTheme { settings.append(setting(Options.templates, Theme.defaultFolder)) }
        return settings
    }

    private static func setting(_ option: Option, _ text: String) -> (key: String, value: JSONValue) {
        guard case .wholeNumber = option.type, let n = Int64(text) else { return (option.configKey!, .string(text)) }
        return (option.configKey!, .integer(n))
    }
}
