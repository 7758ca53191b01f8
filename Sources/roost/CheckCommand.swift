import Firestore
import JSON
import Model
import Store
import Support

/// `roost check`: every data problem of the store, grouped and counted.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "report data problems without building"
    static let usage = "check [--store PATH] [--json] [--strict]"
    static let about = """
        Reads the store and reports every problem, grouped by kind, one line per
        document: missing or mistyped fields, dangling references (likes of missing
        tweets or by missing users, tweets by missing users, replies to missing
        tweets, favorites of missing users), stored like counters that differ from
        the likes counted, usernames that share a handle, coordinates that are not
        numbers, symbolic links in the store (never followed). Nothing is written.
        """
    static let options =
        SiteOptions.sources + [Options.json, Options.strict.helping("exit 1 on warnings too, not only on errors")]
    static let epilogue: String? = "exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage error"

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        let path = try arguments.required(Options.store)
        var phases = PhaseTimer()
        let snapshot: Snapshot
        let source: Snapshot.Source
        var links: [String] = []
        do {
            let store = try StoreAddress.source(for: path)
            (snapshot, source) = try Snapshot.read(from: store, phases: { phases.end($0.rawValue) })
            // The readers skip links silently; the walk a build makes names them, as here.
            if store.layout == .documentPerEntry { links = try store.stamp(recording: false).links }
        } catch {
            // A script reading the report gets one for a store that cannot be read too.
            if arguments.flag(Options.json) {
                Console.out(CheckReport.unreadable(storePath: path, message: ErrorHints.message(for: error)))
            }
            throw error
        }
        defer { phases.report() }
        defer { Heap.keepUntilExit(snapshot) }  // the process exits next: no freeing a million tweets one by one
        let report = CheckReport(
            storePath: path, source: source, snapshot: snapshot,
            diagnostics: Diagnostic.adding(skippedLinks: links, to: snapshot.diagnostics))
        Console.out(arguments.flag(Options.json) ? report.json : report.text)
        let failing = report.count(.error) + (arguments.flag(Options.strict) ? report.count(.warning) : 0)
        return failing > 0 ? ExitStatus.failure : ExitStatus.success
    }
}

/// What `check` prints: diagnostics grouped by severity, then kind.
struct CheckReport {
    let storePath: String
    let source: Snapshot.Source
    let snapshot: Snapshot
    /// The snapshot's, and those of the store's folders (`Diagnostic.skippedLink`).
    let diagnostics: [Diagnostic]

    func count(_ severity: Diagnostic.Severity) -> Int {
        diagnostics.count { $0.severity == severity }
    }

    private var counts: [(String, Int)] {
        [
            ("documents", source.documentCount), ("users", snapshot.users.count), ("tweets", snapshot.tweets.count),
            ("likes", snapshot.likes.count), ("favorites", snapshot.userActivity.reduce(0) { $0 + $1.favorites.count }),
            ("hashtags", snapshot.tags.count),
        ]
    }

    private static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    var text: String {
        var lines = [
            "\(storePath): \(source.format.description); "
                + counts.map { Self.plural($0.1, String($0.0.dropLast())) }.joined(separator: ", ")
        ]
        for severity in Diagnostic.Severity.allCases {
            let found = diagnostics.filter { $0.severity == severity }
            guard !found.isEmpty else { continue }
            lines.append("")
            lines.append("\(severity.rawValue)s (\(found.count)):")
            var kind: Diagnostic.Kind?
            for diagnostic in found {
                if diagnostic.kind != kind {
                    kind = diagnostic.kind
                    lines.append("  \(diagnostic.kind.title) (\(found.count { $0.kind == diagnostic.kind })):")
                }
                lines.append("    \(diagnostic)")
            }
        }
        lines.append("")
        lines.append(Diagnostic.Severity.allCases.map { Self.plural(count($0), $0.rawValue) }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// The report of a store that could not be read: no counts, one error.
    static func unreadable(storePath: String, message: String) -> String {
        document(
            storePath: storePath, format: .null, counts: .null, tallies: (1, 0, 0),
            diagnostics: [
                diagnostic(severity: "error", kind: "unreadable-store", path: storePath, field: nil, message: message)
            ])
    }

    var json: String {
        Self.document(
            storePath: storePath, format: .string(source.format.description),
            counts: .object(counts.map { ($0.0, .integer(Int64($0.1))) }),
            tallies: (count(.error), count(.warning), count(.notice)),
            diagnostics: diagnostics.map {
                Self.diagnostic(
                    severity: $0.severity.rawValue, kind: $0.kind.rawValue, path: $0.path, field: $0.field,
                    message: $0.message)
            })
    }

    /// The report's one shape, read or not.
    private static func document(
        storePath: String, format: JSONValue, counts: JSONValue, tallies: (errors: Int, warnings: Int, notices: Int),
        diagnostics: [JSONValue]
    ) -> String {
        JSONWriter.string(
            .object([
                ("store", .string(storePath)), ("format", format), ("counts", counts),
                ("errors", .integer(Int64(tallies.errors))), ("warnings", .integer(Int64(tallies.warnings))),
                ("notices", .integer(Int64(tallies.notices))), ("diagnostics", .array(diagnostics)),
            ]))
    }

    private static func diagnostic(severity: String, kind: String, path: String, field: String?, message: String)
        -> JSONValue
    {
        .object([
            ("severity", .string(severity)), ("kind", .string(kind)), ("path", .string(path)),
            ("field", field.map(JSONValue.string) ?? .null), ("message", .string(message)),
        ])
    }
}
