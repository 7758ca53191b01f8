import Foundation

/// `roost init DIR`: a new site folder with the sample store, the default theme and a README.
enum InitCommand: Command {
    static let name = "init"
    static let summary = "create a new site: sample store, default templates, README"
    static let usage = "init DIR [--force]"
    static let about = """
        Creates DIR with the sample store (content/), the default theme (templates/)
        and a README, ready for 'cd DIR && roost build'. Refuses a DIR that exists
        and is not empty, unless --force (then content/ and templates/ are replaced).
        """
    static let force = Option.flag("force", "create the site in a DIR that is not empty")
    static let options = [force]

    /// Where the sample store and theme come from: the Roost checkout this binary was built from,
    /// or `ROOST_SHARE` when set (a packaged install puts them there).
    static var shareFolder: URL {
        if let share = ProcessInfo.processInfo.environment["ROOST_SHARE"], !share.isEmpty {
            return URL(fileURLWithPath: share)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing DIR")
        let manager = FileManager.default
        let destination = URL(fileURLWithPath: arguments.positionals[0])
        let existing = (try? manager.contentsOfDirectory(atPath: destination.path)) ?? []
        if !existing.isEmpty, !arguments.flag(force) {
            throw InitError("\(destination.path) is not empty; choose a new folder or pass --force")
        }
        for part in ["content", "templates"] {
            let source = shareFolder.appendingPathComponent(part)
            guard manager.fileExists(atPath: source.path) else {
                throw InitError(
                    "\(source.path) not found: the sample site ships with Roost's source; set ROOST_SHARE to the folder holding content/ and templates/"
                )
            }
            let target = destination.appendingPathComponent(part)
            try? manager.removeItem(at: target)
            try manager.createDirectory(at: destination, withIntermediateDirectories: true)
            try manager.copyItem(at: source, to: target)
        }
        let readme = destination.appendingPathComponent("README.md")
        if !manager.fileExists(atPath: readme.path) {
            try Data(readmeStub(name: destination.lastPathComponent).utf8).write(to: readme)
        }
        Console.out(
            "created \(destination.path): content/ (sample store), templates/ (default theme), README.md\n"
                + "next: cd \(destination.path) && roost build && open public/index.html")
        return ExitStatus.success
    }

    static func readmeStub(name: String) -> String {
        """
        # \(name)

        A Roost site: the data of a Twitter-like app as static pages.

        - `content/`: the document store (users, tweets, likes, favorites), one JSON file per document.
          Replace it with your own export: `roost import export.json --to content --force`.
        - `templates/`: the theme (Mustache); `templates/static/` is copied to `public/static/`.

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
