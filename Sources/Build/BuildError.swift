import Model

/// Why a build stopped before touching the output folder, beyond the errors of the stages
/// (`StoreError`, `SiteError`, `MustacheError`, `OutputError`), which pass through as they are.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    /// The store has errors (or, with `--strict`, warnings): `problems` lists them all.
    case invalidStore(store: String, problems: [Diagnostic], strict: Bool)
    /// The output folder is the store or the theme, or inside one: a build would write into
    /// what it reads.
    case outputInsideInput(output: String, input: String, kind: String)
    /// `--media mirror`: the cache folder cannot be made or written.
    case mediaCache(String)
    /// The build cache (`DocumentCache`) cannot be written; the build goes on without it.
    case cache(String)

    public var description: String {
        switch self {
        case .invalidStore(let store, let problems, let strict):
            let strictNote =
                strict && problems.contains { $0.severity == .warning }
                ? " (--strict: warnings count as errors)" : ""
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "\(count) in \(store)\(strictNote); nothing was written"
        case .outputInsideInput(let output, let input, let kind):
            return "the output folder \(output) is inside the \(kind) \(input); choose an output folder outside it "
                + "(--output public)"
        case .mediaCache(let reason):
            return "the media cache cannot be used: \(reason) (choose another folder with --cache DIR)"
        case .cache(let reason):
            return "the build cache cannot be written: \(reason) (choose another folder with --cache DIR, "
                + "or build with --no-cache)"
        }
    }
}
