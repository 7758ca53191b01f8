import Build
import Firestore
import Foundation
import Output
import Site
import Testing

@testable import roost

/// `roost manual`: roost(1), which groff renders without a warning and which lists every
/// command and option `--help` lists.
@Suite("roost: the manual page")
struct ManualPageTests {
    /// The page as the binary prints it, written to `folder/roost.1`.
    static func page(in folder: URL) throws -> URL {
        let printed = try RoostProcess.run(["manual"])
        #expect(printed.status == 0 && printed.stderr.isEmpty, "\(printed.stderr)")
        let file = folder.appendingPathComponent("roost.1")
        try Data(printed.stdout.utf8).write(to: file)
        return file
    }

    @Test func isTheSameBytesOnEveryRun() throws {
        let first = try RoostProcess.run(["manual"])
        let second = try RoostProcess.run(["manual"])
        #expect(first.status == 0 && first.stdout == second.stdout)
        #expect(first.stdout == ManualPage.source() + "\n")
        // No date: the version says which roost it describes.
        #expect(first.stdout.contains("\n.TH ROOST 1 \"\" \"roost \(Roff.escaped(RoostVersion.current))\" "))
        let help = try RoostProcess.run(["--help"])
        #expect(help.stdout.contains("  manual       print the roost(1) manual page (roff)"))
    }

    @Test(.enabled(if: ShellTools.groff != nil, "groff is not installed"))
    func groffHasNothingToWarnAbout() throws {
        let folder = try ShellTools.temporaryFolder("manual")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try Self.page(in: folder)
        let checked = try ShellTools.run(ShellTools.groff, ["-ww", "-man", "-Tutf8", "-z", page.path])
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(checked.stderr)")
    }

    @Test(.enabled(if: ShellTools.man != nil, "man is not installed"))
    func manRendersIt() throws {
        let folder = try ShellTools.temporaryFolder("manual")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try Self.page(in: folder)
        let rendered = try ShellTools.run(ShellTools.man, ["--warnings", "-l", page.path])
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        for heading in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(rendered.stdout.contains("\n\(heading)\n"), "\(heading)")
        }
    }

    /// Every option of every command, in that command's section of the page (as roff has it, and as
    /// groff prints it) and in its `--help`.
    @Test(.enabled(if: ShellTools.groff != nil, "groff is not installed"))
    func everyOptionIsInThePageAndInHelp() throws {
        let source = ManualPage.source()
        let folder = try ShellTools.temporaryFolder("manual")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try Self.page(in: folder)
        // Plain text (-P -cbou: no overstriking), in lines long enough for every usage.
        let text = try ShellTools.run(ShellTools.groff, ["-man", "-Tascii", "-rLL=200n", "-P", "-cbou", page.path])
            .stdout
        for command in Roost.commands {
            let heading = ".SS \"roost \(Roff.escaped(command.usage, literal: true))\"\n"
            #expect(source.contains(heading), "\(command.name)")
            let section = source.components(separatedBy: heading).last!.components(separatedBy: "\n.S").first!
            let help = try RoostProcess.run([command.name, "--help"]).stdout
            #expect(text.contains("   roost \(command.usage)\n"), "\(command.name)")
            for option in command.options {
                #expect(section.contains(".TP\n\\fB\(Roff.escaped("--" + option.name))\\fR"), "\(option.name)")
                #expect(text.contains("       \(option.synopsis)"), "\(command.name): \(option.synopsis)")
                #expect(help.contains("  \(option.synopsis)"), "\(command.name) --help: \(option.name)")
            }
        }
        // And so every option of the table: each is some command's.
        var listed: Set<String> = []
        for command in Roost.commands { listed.formUnion(command.options.map(\.name)) }
        #expect(listed == Set(Options.all.map(\.name)))
    }

    @Test func filesEnvironmentAndExitStatuses() throws {
        let source = ManualPage.source()
        for file in [ProjectFile.fileName, Options.cache.defaultValue! + "/", Manifest.fileName] {
            #expect(source.contains("\n.I \(Roff.escaped(file, literal: true))\n"), "\(file)")
        }
        for key in Options.projectKeys.map(\.name) {
            #expect(source.contains("\\fB\(key)\\fR"), "\(key)")
        }
        for status in [ExitStatus.success, ExitStatus.failure, ExitStatus.usage] {
            #expect(source.contains(".TP\n.B \(status)\n"), "\(status)")
        }
        // Every ROOST_ variable the sources read is described.
        let sources = RoostProcess.packageRoot.appendingPathComponent("Sources")
        var variables: Set<String> = []
        for case let path as String in FileManager.default.enumerator(atPath: sources.path)!
        where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in text.matches(of: /ROOST_[A-Z_]+/) { variables.insert(String(match.output)) }
        }
        #expect(variables == [PhaseTimer.variable, ListenPlan.variable])
        let environment = try #require(source.firstRange(of: ".SH ENVIRONMENT\n")).upperBound
        let section = source[environment...].split(separator: "\n.SH ", maxSplits: 1).first ?? ""
        for variable in variables {
            #expect(section.contains(".TP\n.B \(Roff.escaped(variable, literal: true))\n"), "\(variable)")
        }
    }

    @Test func textIsEscapedForRoff() {
        #expect(
            Roff.escaped("--media mirror's single-file (--no-cache) 2022-2023")
                == #"\-\-media mirror's single-file (\-\-no\-cache) 2022-2023"#)
        #expect(Roff.escaped(#"a\b … 한"#) == #"a\eb \[u2026] \[uD55C]"#)
        #expect(Roff.escaped("~/.local/bash-completion", literal: true) == #"~/.local/bash\-completion"#)
        #expect(Roff.lines(".example.test\n'quoted'\n  indented") == [#"\&.example.test"#, #"\&'quoted'"#, "indented"])
    }
}
