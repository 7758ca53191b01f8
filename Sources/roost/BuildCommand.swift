import Build
import Model
import Site

/// `roost build`: the store rendered into the output folder.
enum BuildCommand: Command {
    static let name = "build"
    static let summary = "render the store into a static site"
    static let usage = "build [options]"
    static let about = """
        Renders the store into a static site: the feed, every profile with its Tweets,
        Replies and Likes tabs, favorites, tweet permalinks, hashtag pages, Atom feeds
        and a sitemap. Only files whose bytes changed are written; files an earlier
        build wrote and this one does not are removed (others are never touched). A
        build that fails leaves the output folder as it was.
        """

    static let output = Option.value("output", "DIR", default: "public", "where the site goes")
    static let baseURL = Option.value(
        "base-url", "URL", default: "/",
        "the URL path or absolute URL the site is served from")
    static let shard = Option.value(
        "shard", "K/N",
        """
        write only part K of N of the site (a stable split by URL), so N
        machines can each build a part; copied together, the parts are
        the whole site
        """)
    static let quiet = Option.flag("quiet", "print nothing but errors")
    static let language = Option.value(
        "language", "TAG", default: "en",
        "the language of the pages and of the theme's words (a table in the\ntheme's i18n/: en, ko)")
    static let options = [
        CommonOptions.store, CommonOptions.templates, output, baseURL, CommonOptions.pageSize,
        CommonOptions.viewer, language, CommonOptions.strict, shard, quiet,
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        var shardPart: Shard?
        if let text = arguments.value(shard) {
            guard let part = Shard(text) else {
                throw UsageError("--shard takes K/N with 1 ≤ K ≤ N, like 2/4; not '\(text)'")
            }
            shardPart = part
        }
        let options = BuildOptions(
            store: arguments.value(CommonOptions.store)!,
            templates: arguments.value(CommonOptions.templates)!,
            output: arguments.value(output)!,
            config: SiteConfig(
                baseURL: arguments.value(baseURL)!,
                pageSize: try arguments.integer(CommonOptions.pageSize, range: 1...10_000)!,
                viewer: arguments.value(CommonOptions.viewer),
                language: arguments.value(language)!),
            strict: arguments.flag(CommonOptions.strict),
            shard: shardPart)
        let isQuiet = arguments.flag(quiet)
        let observer = ConsoleObserver(progressBar: !isQuiet)
        defer { observer.finish() }
        let report: BuildReport
        do {
            report = try SiteBuild(options).run(observer: observer)
        } catch BuildError.invalidStore(let store, let problems, let strict) {
            for problem in problems { Console.error("error: \(problem)") }
            throw BuildError.invalidStore(store: store, problems: problems, strict: strict)
        }
        observer.finish()
        guard !isQuiet else { return ExitStatus.success }
        let seconds = String(format3: report.elapsed / .seconds(1))
        switch report.outcome {
        case .nothingChanged:
            Console.out(
                "\(options.output): nothing changed since the last build (store files, templates "
                    + "and options as they were); done in \(seconds) s")
        case .built(let summary):
            for warning in report.warnings.prefix(10) { Console.error("warning: \(warning)") }
            if report.warnings.count > 10 {
                Console.error("warning: … and \(report.warnings.count - 10) more; 'roost check' lists them all")
            }
            let part = options.shard.map { " (shard \($0.description))" } ?? ""
            Console.out(
                "\(options.output)\(part): \(report.pages) pages and \(report.staticFiles) static files; "
                    + "\(summary.written) written, \(summary.unchanged) unchanged, \(summary.removed) removed "
                    + "in \(seconds) s")
        }
        return ExitStatus.success
    }
}
