import Model

/// Why a build stopped before touching the output folder, beyond the errors of the stages
/// (`StoreError`, `SiteError`, `MustacheError`, `OutputError`), which pass through as they are.
package enum BuildError: Error, Sendable, CustomStringConvertible {
    /// The store has errors (or, when `strict`, warnings): `problems` lists them all.
    case invalidStore(store: String, problems: [Diagnostic], strict: Bool)
    /// The output folder is the store or the theme, or inside one: a build would write into
    /// what it reads.
    case outputInsideInput(output: String, input: String, kind: String)
    /// The cache folder is the output or inside it: its files (which name local paths) would be
    /// published with the site, and the site's commit would remove them as files it did not write.
    case cacheInsideOutput(cache: String, output: String)
    /// Mirrored media: the cache folder cannot be made or written.
    case mediaCache(String)
    /// The build cache (`DocumentCache`) cannot be written; the build goes on without it.
    case cache(String)

    package var description: String {
        switch self {
        case .invalidStore:
            return "\(problemSummary)\(countsWarnings ? " (warnings count as errors)" : ""); nothing was written"
        case .outputInsideInput(let output, let input, let kind):
            return "the output folder \(output) is inside the \(kind) \(input); choose an output folder outside it"
        case .cacheInsideOutput(let cache, let output):
            return "the cache folder \(cache) is inside the output folder \(output); choose a cache folder outside it"
        case .mediaCache(let reason):
            return "the media cache cannot be used: \(reason)"
        case .cache(let reason):
            return "the build cache cannot be written: \(reason)"
        }
    }

    /// `3 problems in content`, for `invalidStore`.
    package var problemSummary: String {
        guard case .invalidStore(let store, let problems, _) = self else { return description }
        return "\(problems.count == 1 ? "1 problem" : "\(problems.count) problems") in \(store)"
    }

    /// True for `invalidStore` when warnings are among the problems because the build is strict.
    package var countsWarnings: Bool {
        guard case .invalidStore(_, let problems, let strict) = self else { return false }
        return strict && problems.contains { $0.severity == .warning }
    }
}
