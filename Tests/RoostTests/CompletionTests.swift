import Build
import Foundation
import Testing

@testable import roost

/// `roost completions bash|zsh|fish`: scripts the shells accept, which complete what the option
/// table declares. bash's function is driven as bash drives it (COMP_WORDS, COMP_CWORD); fish's
/// through `complete -C`.
@Suite("roost: shell completions")
struct CompletionTests {
    /// The script as the binary prints it, written to `folder`.
    static func script(_ shell: Shell, in folder: URL) throws -> URL {
        let printed = try RoostProcess.run(["completions", shell.rawValue])
        #expect(printed.status == 0 && printed.stderr.isEmpty, "\(printed.stderr)")
        #expect(printed.stdout == shell.script() + "\n")
        let file = folder.appendingPathComponent("roost.\(shell.rawValue)")
        try Data(printed.stdout.utf8).write(to: file)
        return file
    }

    /// What `_roost` puts in COMPREPLY for `words` (split as bash splits them: `--media=mi` is
    /// `--media`, `=`, `mi`), the last word the one being completed.
    static func bashCompletions(_ words: [String], script: URL, in folder: URL) throws -> [String] {
        let code = #"source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _roost; printf '%s\n' "${COMPREPLY[@]}""#
        let result = try ShellTools.run(ShellTools.bash, ["-c", code, script.path] + words, in: folder)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A folder with a subfolder, a `.json` file and another file, for the file completions.
    static func filesFolder() throws -> URL {
        let folder = try ShellTools.temporaryFolder("completion")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("roost.json"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return folder
    }

    @Test func anUnknownShellIsAUsageErrorNamingTheThree() throws {
        let result = try RoostProcess.run(["completions", "tcsh"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown shell 'tcsh': the scripts are for bash, zsh or fish"))
        let missing = try RoostProcess.run(["completions"])
        #expect(missing.status == 2 && missing.stderr.contains("bash, zsh or fish"))
        let help = try RoostProcess.run(["--help"])
        #expect(help.stdout.contains("  completions  print the shell completion script of bash, zsh or fish"))
    }

    @Test(.enabled(if: ShellTools.bash != nil, "bash is not installed"))
    func bashCompletesCommandsOptionsAndValues() throws {
        let folder = try Self.filesFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try Self.script(.bash, in: folder)
        #expect(try ShellTools.run(ShellTools.bash, ["-n", script.path]).status == 0)
        let cases: [([String], [String])] = [
            (["roost", "bu"], ["build"]),
            (["roost", "build", "--me"], ["--media", "--media-allow"]),
            (["roost", "build", "--media", ""], ["link", "mirror", "none"]),
            (["roost", "build", "--media", "=", ""], ["link", "mirror", "none"]),
            (["roost", "build", "--media", "=", "mi"], ["mirror"]),
            (["roost", "serve", "--allow"], ["--allow-host"]),
            (["roost", "build", "--language", ""], try Theme.builtIn.localized.languages),
            (["roost", "build", "--output", ""], ["site"]),
            (["roost", "build", "--config", ""], ["site", "roost.json"]),
            (["roost", "build", "--page-size", ""], []),
            (["roost", "init", ""], ["site"]),
            (["roost", "completions", ""], ["bash", "zsh", "fish"]),
            (["roost", "generate", "--se"], ["--seed"]),
            (["roost", "check", "--strict", "--j"], ["--json"]),
        ]
        for (words, expected) in cases {
            #expect(try Self.bashCompletions(words, script: script, in: folder) == expected, "\(words)")
        }
        let files = try Self.bashCompletions(["roost", "import", ""], script: script, in: folder)
        #expect(files.sorted() == ["notes.txt", "roost.bash", "roost.json", "site"])
    }

    @Test(.enabled(if: ShellTools.zsh != nil, "zsh is not installed"))
    func zshAcceptsTheScriptAndRegistersIt() throws {
        let folder = try ShellTools.temporaryFolder("completion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try Self.script(.zsh, in: folder)
        let checked = try ShellTools.run(ShellTools.zsh, ["-n", script.path])
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(checked.stderr)")
        // Sourced after compinit, it registers _roost for roost (and defines a function per command).
        let code =
            #"autoload -Uz compinit && compinit -u -D && source "$1" && print -r -- $_comps[roost] $+functions[_roost_build]"#
        let loaded = try ShellTools.run(ShellTools.zsh, ["-f", "-c", code, "zsh", script.path], in: folder)
        #expect(loaded.stdout == "_roost 1\n" && loaded.stderr.isEmpty, "\(loaded.stdout) \(loaded.stderr)")
    }

    @Test(.enabled(if: ShellTools.fish != nil, "fish is not installed"))
    func fishAcceptsTheScriptAndCompletes() throws {
        let folder = try Self.filesFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try Self.script(.fish, in: folder)
        let checked = try ShellTools.run(ShellTools.fish, ["--no-execute", script.path])
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(checked.stderr)")
        let cases: [(String, [String])] = [
            ("roost bu", ["build"]),
            ("roost build --me", ["--media", "--media-allow"]),
            ("roost build --media ", ["link", "mirror", "none"]),
            ("roost serve --store build --allow", ["--allow-host"]),
            ("roost build --output ", ["site/"]),
            ("roost completions ", ["bash", "fish", "zsh"]),
        ]
        for (line, expected) in cases {
            let result = try ShellTools.run(
                ShellTools.fish, ["-c", "source $argv[1]; complete -C $argv[2]", script.path, line], in: folder)
            let words = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
            #expect(words.sorted() == expected.sorted() && result.stderr.isEmpty, "\(line): \(result.stdout)")
        }
    }

    /// Every option of every command is in each script, for that command.
    @Test func everyOptionIsInEachScript() {
        let bash = Shell.bash.script()
        let zsh = Shell.zsh.script()
        let fish = Shell.fish.script()
        for command in Roost.commands {
            let start = "\n_roost_\(command.name)() {\n"
            let bashFunction = bash.components(separatedBy: start)[1].components(separatedBy: "\n}\n")[0]
            let zshFunction = zsh.components(separatedBy: start)[1].components(separatedBy: "\n}\n")[0]
            for option in command.options {
                #expect(bashFunction.contains("--\(option.name) "), "bash: \(command.name) --\(option.name)")
                #expect(zshFunction.contains("--\(option.name)"), "zsh: \(command.name) --\(option.name)")
                #expect(
                    fish.contains("-n '__roost_using \(command.name)' -l \(option.name) "),
                    "fish: \(command.name) --\(option.name)")
            }
        }
    }

    /// The words go into the scripts unquoted: each must be a plain word.
    @Test func everyWordIsPlain() {
        let words = CompletionTable(commands: Roost.commands).words
        #expect(words.contains("mirror") && words.contains("ko") && words.contains("--refresh-media"))
        for word in words {
            #expect(
                !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) },
                "\(word)")
        }
    }

    @Test func valuesCompleteAsTheirDeclarationsSay() {
        #expect(Options.media.completion == .words(["link", "mirror", "none"]))
        #expect(Options.output.completion == .folders && Options.templates.completion == .folders)
        #expect(Options.store.completion == .files(suffix: nil))
        #expect(Options.config.completion == .files(suffix: ".json"))
        #expect(Options.language.completion == .themeLanguages)
        #expect(Options.pageSize.completion == .nothing && Options.strict.completion == .nothing)
        // A command's wording of an option keeps its completion.
        let to = GenerateCommand.options.first { $0.name == Options.to.name }
        #expect(to?.completion == .folders)
    }
}
