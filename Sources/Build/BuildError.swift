import Model

/// Why a build stopped before touching the output folder, beyond the errors of the stages
/// (`StoreError`, `SiteError`, `MustacheError`, `OutputError`), which pass through as they are.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    /// The store has errors (or, with `--strict`, warnings): `problems` lists them all.
    case invalidStore(store: String, problems: [Diagnostic], strict: Bool)

    public var description: String {
        switch self {
        case .invalidStore(let store, let problems, let strict):
            let strictNote =
                strict && problems.contains { $0.severity == .warning }
                ? " (--strict: warnings count as errors)" : ""
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "\(count) in \(store)\(strictNote); nothing was written"
        }
    }
}
