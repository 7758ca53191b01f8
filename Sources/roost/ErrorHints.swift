import Build
import Model
import Preview
import Site
import Store
import Synthetic

/// What the user reads for a library error: the library says what went wrong, and this adds
/// the hint that names the option to change (`use --force to replace its contents`), from the
/// options' declarations.
enum ErrorHints {
    static func message(for error: any Error) -> String {
        switch error {
        case let error as BuildError: message(for: error)
        case let error as StoreError: message(for: error)
        case let error as GenerateError: message(for: error)
        case let error as SiteFolderError: message(for: error)
        case PreviewError.portInUse: "\(error); choose another with \(Options.port.synopsis)"
        case let error as SiteError where error.isAboutTheViewer:
            // `viewer 'x': …` says which setting; here it is the option.
            "--\(error)"
        default: "\(error)"
        }
    }

    /// A build's warning, with the hint it calls for.
    static func warning(_ warning: Diagnostic) -> String {
        guard warning.kind == .imageAddressRefused else { return "\(warning)" }
        return "\(warning) (\(Options.mediaAllow.synopsis) permits it)"
    }

    /// A build's notice, with the hint it calls for.
    static func notice(_ notice: BuildNotice) -> String {
        switch notice {
        case .noSitemap(let base):
            "no sitemap.xml: a sitemap needs absolute URLs, and the base URL '\(base)' is a path; "
                + "give an absolute one (--\(Options.baseURL.name) https://example.com/) to write it"
        case .cache(let text): text + cacheHint
        case .documentsRead: "\(notice)"
        }
    }

    private static let cacheHint =
        " (choose another folder with \(Options.cache.synopsis), or build with \(Options.noCache.synopsis))"

    private static func message(for error: BuildError) -> String {
        switch error {
        case .invalidStore where error.countsWarnings:
            "\(error.problemSummary) (\(Options.strict.synopsis): warnings count as errors); nothing was written"
        case .invalidStore: "\(error)"
        case .outputInsideInput: "\(error) (--\(Options.output.name) \(Options.output.defaultValue!))"
        case .cacheInsideOutput: "\(error) (\(Options.cache.synopsis))"
        case .mediaCache: "\(error) (choose another folder with \(Options.cache.synopsis))"
        case .cache: "\(error)\(cacheHint)"
        }
    }

    private static func message(for error: StoreError) -> String {
        guard case .destinationNotEmpty = error else { return "\(error)" }
        return "\(error); use \(Options.force.synopsis) to replace its contents"
    }

    private static func message(for error: GenerateError) -> String {
        switch error {
        case .notEmpty: "\(error) (use \(Options.force.synopsis) to replace its contents)"
        case .fileExists: "\(error) (use \(Options.force.synopsis) to replace it)"
        case .isADirectory(let path):
            "\(path) is a folder; a --\(Options.to.name) path ending in .json names the single file to write"
        default: "\(error)"
        }
    }

    private static func message(for error: SiteFolderError) -> String {
        guard case .notEmpty = error else { return "\(error)" }
        return "\(error) or pass \(Options.force.synopsis)"
    }
}
