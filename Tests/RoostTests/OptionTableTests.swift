import Build
import Foundation
import Preview
import Testing

@testable import roost

/// The option table (`Options`): every option declared once, and what is derived from it.
@Suite("roost: the option table")
struct OptionTableTests {
    /// Every option a command takes, with the command's name.
    static var listed: [(command: String, option: Option)] {
        Roost.commands.flatMap { command in command.options.map { (command.name, $0) } }
    }

    @Test func eachNameIsDeclaredOnce() {
        let names = Options.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        for (command, option) in Self.listed {
            // A command may word the help, show another placeholder or let it repeat: the rest
            // is the declaration's.
            let declared = Options.all.first { $0.name == option.name }
            #expect(declared != nil, "\(command): --\(option.name) is not in Options.all")
            guard let declared else { continue }
            #expect(declared.defaultValue == option.defaultValue && declared.configKey == option.configKey)
            #expect(declared.type == option.type && declared.takesValue == option.takesValue)
            #expect(declared.completion == option.completion, "\(command): --\(option.name)")
        }
        for command in Roost.commands {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
        }
    }

    /// In the sources, each name appears in one declaration only (`Option.value("store"`).
    @Test func eachNameHasOneDeclarationInTheSources() throws {
        let folder = RoostProcess.packageRoot.appendingPathComponent("Sources/roost")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let text = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
            .replacingOccurrences(of: #"\(\s+"#, with: "(", options: .regularExpression)
        for option in Options.all {
            let declarations = ["Option.value(\"\(option.name)\"", "Option.flag(\"\(option.name)\""].map {
                text.components(separatedBy: $0).count - 1
            }
            #expect(declarations.reduce(0, +) == 1, "--\(option.name): \(declarations)")
        }
    }

    @Test func projectKeysAreTheOptionsConfigKeys() {
        let keys = Options.projectKeys.map(\.name)
        let configured = Options.all.compactMap(\.configKey)
        #expect(keys == configured)
        #expect(Set(keys).count == keys.count)
        let kinds = Dictionary(uniqueKeysWithValues: Options.projectKeys.map { ($0.name, $0.kind) })
        #expect(kinds["pageSize"] == .wholeNumber && kinds["store"] == .path && kinds["title"] == .text)
        #expect(kinds["mediaAllow"] == .textList && kinds["allowHosts"] == .textList && kinds["media"] == .text)
    }

    @Test func aFileKeyIsTakenByItsOption() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roost-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("roost.json")
        try Data(#"{"pageSize": 7, "store": "data", "mediaAllow": ["10.0.0.0/8"]}"#.utf8).write(to: file)
        let project = try ProjectFile(path: file.path, keys: Options.projectKeys)
        var arguments = try Arguments([], options: BuildCommand.options)
        arguments.fill(from: project, options: BuildCommand.options)
        #expect(try arguments.integer(Options.pageSize) == 7)
        #expect(try arguments.value(Options.store) == folder.appendingPathComponent("data").path)
        #expect(arguments.all(Options.mediaAllow) == ["10.0.0.0/8"])
        #expect(try arguments.value(Options.output) == Options.output.defaultValue)
    }

    @Test func helpComesFromTheDeclarations() throws {
        for command in Roost.commands {
            for option in command.options {
                let first = String(option.help.split(separator: "\n").first ?? "")
                #expect(command.help.contains("  \(option.synopsis)"), "\(command.name): \(option.synopsis)")
                #expect(command.help.contains(first), "\(command.name): \(first)")
            }
            let printed = try RoostProcess.run([command.name, "--help"])
            #expect(printed.stdout == command.help + "\n", "\(command.name)")
        }
        let serve = ServeCommand.help
        #expect(serve.contains("(default: content); repeatable"))
        #expect(!BuildCommand.help.contains("repeatable\n  --templates"))
    }

    @Test func valuesAreCheckedByTheirType() throws {
        let arguments = try Arguments(
            ["--page-size", "0", "--media", "mirorr", "--likes-per-tweet", "2.5"],
            options: BuildCommand.options + [Options.likesPerTweet])
        #expect(throws: UsageError.self) { try arguments.integer(Options.pageSize) }
        do {
            _ = try arguments.value(Options.media)
            Issue.record("--media mirorr was taken")
        } catch {
            #expect(
                error.description
                    == "option '--media' takes link, mirror or none, not 'mirorr'; did you mean 'mirror'?"
            )
        }
        #expect(try arguments.number(Options.likesPerTweet) == 2.5)
    }

    @Test func libraryErrorsGetTheirFlagHints() {
        #expect(
            ErrorHints.message(for: BuildError.mediaCache("x: Not a directory"))
                == "the media cache cannot be used: x: Not a directory (choose another folder with --cache DIR)")
        #expect(
            ErrorHints.notice(.cache(BuildError.cache("no room").description))
                == "the build cache cannot be written: no room (choose another folder with --cache DIR, "
                + "or build with --no-cache)")
        #expect(
            ErrorHints.notice(.noSitemap(baseURL: "/"))
                == "no sitemap.xml: a sitemap needs absolute URLs, and the base URL '/' is a path; "
                + "give an absolute one (--base-url https://example.com/) to write it")
        #expect(
            ErrorHints.message(for: PreviewError.portInUse(host: "127.0.0.1", port: 8000))
                == "127.0.0.1:8000 is already in use; choose another with --port N")
        #expect(
            ErrorHints.message(for: SiteFolderError.notEmpty(path: "site"))
                == "site is not empty; choose a new folder or pass --force")
    }
}
