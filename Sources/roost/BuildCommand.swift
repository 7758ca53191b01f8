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

    static let shard = Option.value(
        "shard", "K/N",
        """
        write only part K of N of the site (a stable split by URL), so N
        machines can each build a part; copied together, the parts are
        the whole site
        """)
    static let quiet = Option.flag("quiet", "print nothing but errors")
    static let noCache = Option.flag(
        "no-cache",
        "read and decode every store file again, as a first build does;\nthe build cache is neither used nor written")
    static let options = [
        CommonOptions.config, CommonOptions.store, CommonOptions.templates, CommonOptions.output,
        CommonOptions.baseURL, CommonOptions.pageSize, CommonOptions.viewer, CommonOptions.title,
        CommonOptions.description, CommonOptions.language, CommonOptions.media, CommonOptions.cache,
        CommonOptions.offline, CommonOptions.refreshMedia, CommonOptions.mediaAllow, CommonOptions.strict, shard,
        noCache, quiet,
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
            templates: arguments.value(CommonOptions.templates),
            output: arguments.value(CommonOptions.output)!,
            config: try arguments.siteConfig(),
            strict: arguments.flag(CommonOptions.strict),
            shard: shardPart, media: try arguments.mediaOptions(), usesCache: !arguments.flag(noCache))
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
            for notice in report.notices { Console.error("note: \(notice)") }
            for warning in report.warnings.prefix(10) { Console.error("warning: \(warning)") }
            if report.warnings.count > 10 {
                Console.error("warning: … and \(report.warnings.count - 10) more; 'roost check' lists them all")
            }
            let part = options.shard.map { " (shard \($0.description))" } ?? ""
            if let media = report.media {
                Console.out(
                    "images: \(media.urls) (\(media.fromCache + media.notModified) from the cache, "
                        + "\(media.downloaded) downloaded, \(media.failed) not mirrored)")
            }
            if let files = report.storeFiles, files.cached > 0 {
                Console.out(
                    "store: \(files.read) \(files.read == 1 ? "file" : "files") read, \(files.cached) unchanged "
                        + "taken from the build cache"
                        + (report.snapshotReused ? "; the last build's snapshot updated, not derived again" : ""))
            }
            let images = report.media == nil ? "" : " (and \(report.mediaFiles) images in media/)"
            // Pages whose inputs did not change are kept without rendering them.
            let rendered = report.pagesRendered < report.pages ? " (\(report.pagesRendered) rendered)" : ""
            Console.out(
                "\(options.output)\(part): \(report.pages) pages\(rendered) and \(report.staticFiles) static files\(images); "
                    + "\(summary.written) written, \(summary.unchanged) unchanged, \(summary.removed) removed "
                    + "in \(seconds) s")
        }
        return ExitStatus.success
    }
}
