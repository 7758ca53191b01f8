import DefaultSite
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
    static let theme = Option.flag("theme", "also write the built-in theme to DIR/templates/, for editing")
    static let force = Option.flag("force", "create the site in a DIR that is not empty")
    static let options = [theme, force]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing DIR")
        let manager = FileManager.default
        let destination = URL(fileURLWithPath: arguments.positionals[0])
        let existing = (try? manager.contentsOfDirectory(atPath: destination.path)) ?? []
        if !existing.isEmpty, !arguments.flag(force) {
            throw InitError("\(destination.path) is not empty; choose a new folder or pass --force")
        }
        let withTheme = arguments.flag(theme)
        try manager.createDirectory(at: destination, withIntermediateDirectories: true)
        try write(DefaultSite.store, to: destination.appendingPathComponent("content"))
        if withTheme {
            try write(DefaultSite.theme, to: destination.appendingPathComponent("templates"))
        }
        let name = destination.standardizedFileURL.lastPathComponent
        try Data(config(title: name, theme: withTheme).utf8).write(to: destination.appendingPathComponent("roost.json"))
        let readme = destination.appendingPathComponent("README.md")
        if !manager.fileExists(atPath: readme.path) {
            try Data(readmeStub(name: name, theme: withTheme).utf8).write(to: readme)
        }
        let parts = ["roost.json", "content/ (sample store)"] + (withTheme ? ["templates/ (the theme)"] : [])
        Console.out(
            "created \(destination.path): \(parts.joined(separator: ", ")), README.md\n"
                + "next: cd \(destination.path) && roost build, then open public/index.html")
        return ExitStatus.success
    }

    /// Writes `files` under `folder`, replacing whatever was there.
    static func write(_ files: [DefaultSite.File], to folder: URL) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.path) { try manager.removeItem(at: folder) }
        for file in files {
            let target = folder.appendingPathComponent(file.path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: target)
        }
    }

    /// `roost.json` (SPEC 10): the site's settings, with the defaults spelled out to edit.
    static func config(title: String, theme: Bool) -> String {
        var keys: [(key: String, value: JSONValue)] = [
            ("title", .string(title)), ("language", .string("en")), ("baseURL", .string("/")),
            ("store", .string("content")), ("output", .string("public")),
        ]
        if theme { keys.append(("templates", .string("templates"))) }
        return JSONWriter.string(.object(keys)) + "\n"
    }

    static func readmeStub(name: String, theme: Bool) -> String {
        let themeLine =
            theme
            ? "- `templates/`: the theme (Mustache), used instead of the one built into roost;\n"
                + "  `templates/static/` is copied to `public/static/`. Delete the folder to go back to the built-in theme.\n"
            : "- The theme is built into roost. To edit it: `roost init --theme OTHER` writes a site with\n"
                + "  the theme in `OTHER/templates/`; copy that folder here, and it replaces the built-in one.\n"
        return """
            # \(name)

            A Roost site: the data of a Twitter-like app as static pages.

            - `roost.json`: the site's settings (title, language, base URL, folders).
            - `content/`: the document store (users, tweets, likes, favorites), one JSON file per document.
              Replace it with your own export: `roost import export.json --to content --force`.
            \(themeLine)
            Commands:

                roost check              # report data problems
                roost build              # render into public/
                roost serve              # preview at http://127.0.0.1:8000/, rebuilt as files change

            """
    }
}

struct InitError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
