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

    static let options =
        SiteOptions.sources + [Options.templates, Options.output, Options.baseURL] + SiteOptions.pages
        + SiteOptions.media + [Options.strict, Options.shard, Options.noCache, Options.quiet]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        var shardPart: Shard?
        if let text = try arguments.value(Options.shard) {
            guard let part = Shard(text) else {
                throw UsageError("--shard takes K/N with 1 ≤ K ≤ N, like 2/4; not '\(text)'")
            }
            shardPart = part
        }
        var options = BuildOptions(
            store: try arguments.required(Options.store),
            templates: try arguments.value(Options.templates),
            output: try arguments.required(Options.output),
            config: try arguments.siteConfig(),
            strict: arguments.flag(Options.strict),
            shard: shardPart, media: try arguments.mediaOptions(), usesCache: !arguments.flag(Options.noCache),
            projectFolder: arguments.projectFolder)
        options.endsProcess = true
        let isQuiet = arguments.flag(Options.quiet)
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
            for notice in report.notices { Console.error("note: \(ErrorHints.notice(notice))") }
            let shown = SitePipeline.problemsShown
            for warning in report.warnings.prefix(shown) { Console.error("warning: \(ErrorHints.warning(warning))") }
            if report.warnings.count > shown {
                Console.error("warning: … and \(report.warnings.count - shown) more; 'roost check' lists them all")
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
