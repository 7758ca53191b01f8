import Build
import Firestore
import Site

/// roost(1) in roff (the man(7) macros), made from the commands and their options as `--help`
/// shows them, so the page cannot say something else. No date in it: the same binary writes the
/// same bytes on every run (the version says which roost it describes).
enum ManualPage {
    static func source(for commands: [any Command.Type] = Roost.commands) -> String {
        var lines = [
            #".\" roost(1), written by 'roost manual' from roost's commands and option table: edit those, not this."#,
            ".TH ROOST 1 \"\" \"roost \(Roff.escaped(RoostVersion.current))\" \"User Commands\"",
            // Left-aligned, no hyphenation: option names and paths stay whole, as they are typed.
            ".ad l",
            ".nh",
            ".SH NAME",
            "roost \\- \(Roff.escaped(Roost.tagline))",
            ".SH SYNOPSIS",
        ]
        for command in commands {
            let usage = command.usage.dropFirst(command.name.count)
            lines += ["\\fBroost \(command.name)\\fR\(Roff.escaped(String(usage), literal: true))", ".br"]
        }
        lines += [#"\fBroost \-\-help\fR | \fB\-\-version\fR"#, ".SH DESCRIPTION"]
        lines += Roff.paragraphs(description)
        lines.append(".SH COMMANDS")
        for command in commands {
            lines += section(command)
        }
        lines += exitStatus + environment + files(commands) + exampleLines
        return lines.joined(separator: "\n")
    }

    private static let description = """
        Roost renders a store of a Twitter-like app's data (users, tweets, likes and
        favorite places, as a folder of JSON documents or a single-file export of
        Firestore) into a static site, previews it live, and checks the data.

        Every command takes --help (or -h), which prints what this page says of it;
        roost --help lists the commands and roost --version prints the version.
        Results go to standard output, problems to standard error.
        """

    /// One command: its usage, what it does, its options, and the lines after them.
    private static func section(_ command: any Command.Type) -> [String] {
        var lines = [".SS \"roost \(Roff.escaped(command.usage, literal: true))\""]
        lines += Roff.paragraphs(command.about)
        for option in command.options {
            lines += [".TP", tag(option)]
            var help = Roff.lines(option.help)
            var notes = option.defaultValue.map { ["default: \(Roff.escaped($0, literal: true))"] } ?? []
            if option.repeats { notes.append("repeatable") }
            if let key = option.configKey { notes.append("roost.json: \\fB\(Roff.escaped(key))\\fR") }
            if !notes.isEmpty { help.append("(\(notes.joined(separator: "; ")))") }
            lines += help
        }
        if let epilogue = command.epilogue {
            lines += Roff.paragraphs(epilogue.prefix(1).uppercased() + epilogue.dropFirst() + ".")
        }
        return lines
    }

    /// `\fB\-\-store\fR \fIPATH\fR`.
    private static func tag(_ option: Option) -> String {
        let name = "\\fB\(Roff.escaped("--" + option.name))\\fR"
        guard case .value(let placeholder, _) = option.kind else { return name }
        return name + " \\fI\(Roff.escaped(placeholder))\\fR"
    }

    private static var exitStatus: [String] {
        let statuses = [
            (ExitStatus.success, "Success."),
            (
                ExitStatus.failure,
                "A data or build error: a store that cannot be read or has errors, a theme that does not parse, "
                    + "an output folder that cannot be written (roost check: errors, or warnings with --strict)."
            ),
            (
                ExitStatus.usage,
                "A usage error: an unknown command or option, a missing or invalid value, an unusable roost.json."
            ),
        ]
        return [".SH \"EXIT STATUS\""] + statuses.flatMap { [".TP", ".B \($0.0)", Roff.escaped($0.1)] }
    }

    private static let environment = [
        ".SH ENVIRONMENT",
        ".TP",
        ".B \(Roff.escaped(PhaseTimer.variable, literal: true))",
        Roff.escaped(
            "When set (to anything), build and check print the wall and CPU time of each phase to standard "
                + "error (build also the memory), for profiling."),
        ".TP",
        ".B \(Roff.escaped(ListenPlan.variable, literal: true))",
        Roff.escaped(
            "The queries serve follows a firestore:// store by: groups (the four collection groups, the default "
                + "on Google's servers) or users (the users and tweets collections and each user's likes and "
                + "favorites, the default on the emulator, which resends a changed query whole). For comparing "
                + "them (scripts/bench live)."),
    ]

    private static func files(_ commands: [any Command.Type]) -> [String] {
        var readers: [String] = []
        for command in commands where command.options.contains(where: { $0.name == Options.config.name }) {
            readers.append(command.name)
        }
        let keys = Options.all.compactMap { option in
            option.configKey.map { "\\fB\(Roff.escaped($0))\\fR (\(Roff.escaped("--" + option.name)))" }
        }
        let cache = (Options.cache.defaultValue ?? MediaOptions.defaultCache) + "/"
        return [
            ".SH FILES",
            ".TP",
            ".I \(Roff.escaped(ProjectFile.fileName, literal: true))",
            Roff.escaped(
                "The site's settings, read by \(readers.joined(separator: ", ")) from the current folder, or from "
                    + "the file --config names: a JSON object whose keys stand for options (the command line wins; "
                    + "paths are relative to the file). Its keys:"),
            keys.joined(separator: ", ") + ".",
            ".TP",
            ".I \(Roff.escaped(cache, literal: true))",
            Roff.escaped(
                "The build cache, unless --cache names another folder: decoded store files, rendered captions, "
                    + "the last build's model, and the images --media mirror downloaded. Deleting it is always safe."),
            ".TP",
            // Output's Manifest.fileName (roost does not depend on Output itself).
            ".I .roost\\-manifest",
            Roff.escaped(
                "In the output folder: what the last build wrote, so that the next one removes only the files it "
                    + "wrote and no longer produces; nothing else in the folder is ever deleted."),
        ]
    }

    private static let examples: [(title: String, commands: String)] = [
        ("A new site, built and previewed:", "roost init mysite\ncd mysite\nroost build\nroost serve"),
        ("A site whose pages make no request to another host:", "roost build --media mirror --strict"),
        ("The problems of an export, as JSON:", "roost check --store export.json --json"),
        ("An export turned into a directory store:", "roost import export.json --to content"),
        ("A large synthetic store, as one file:", "roost generate --users 1000 --tweets 100000 --seed 7 --to big.json"),
        (
            "The completions and the manual installed for one user:",
            "roost completions bash > ~/.local/share/bash-completion/completions/roost\n"
                + "roost manual > ~/.local/share/man/man1/roost.1"
        ),
    ]

    private static var exampleLines: [String] {
        var lines = [".SH EXAMPLES"]
        for example in examples {
            lines += [".PP", Roff.escaped(example.title), ".PP", ".RS 4", ".nf"]
            lines += Roff.lines(example.commands, literal: true) + [".fi", ".RE"]
        }
        return lines
    }
}

/// Text as roff reads it.
enum Roff {
    /// Backslashes as `\e`, the dashes of options as `\-` (a minus, which copies as `-`; a hyphen
    /// may not), with `literal` (a command to type) every dash; other characters beyond ASCII as
    /// `\[uXXXX]` (troff reads its input as Latin-1).
    static func escaped(_ text: String, literal: Bool = false) -> String {
        var escaped = ""
        var inOption = false
        var previous: Character?
        for character in text {
            let startsOption = character == "-" && !(previous?.isLetter ?? false) && !(previous?.isNumber ?? false)
            if character == "-" && (literal || inOption || startsOption) {
                inOption = true
                escaped += "\\-"
            } else if character == "\\" {
                escaped += "\\e"
            } else if !character.isASCII {
                inOption = false
                escaped += character.unicodeScalars.map { "\\[u\(hex($0))]" }.joined()
            } else {
                inOption = inOption && (character.isLetter || character.isNumber)
                escaped.append(character)
            }
            previous = character
        }
        return escaped
    }

    /// Lines of text, each escaped, and one that would start with `.` or `'` (a request) made a
    /// text line with `\&`; leading spaces dropped (they would break the filled line).
    static func lines(_ text: String, literal: Bool = false) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let escaped = escaped(String(line.drop { $0 == " " }), literal: literal)
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }
    }

    /// Paragraphs (blank lines between them) as `.PP`s; a paragraph whose lines are indented (commands
    /// to type) kept line by line, indented.
    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").flatMap { paragraph -> [String] in
            let isIndented = paragraph.split(separator: "\n").allSatisfy { $0.hasPrefix(" ") }
            guard isIndented else { return [".PP"] + lines(paragraph) }
            return [".PP", ".RS 4", ".nf"] + lines(paragraph, literal: true) + [".fi", ".RE"]
        }
    }

    /// At least four hexadecimal digits, capitals, as `\[u…]` wants them.
    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
