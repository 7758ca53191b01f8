import Dispatch
import Model
import Output
import Search
import Site
import Store
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The whole pipeline of `build`: store → snapshot → plan → render → output.
/// Everything that can fail on the input is checked before the output folder is touched.
///
///     let report = try SiteBuild(BuildOptions(store: "content", output: "public")).run()
public struct SiteBuild: Sendable {
    public let options: BuildOptions

    public init(_ options: BuildOptions) {
        self.options = options
    }

    public func run(observer: some BuildObserver = SilentBuild()) throws -> BuildReport {
        let start = ContinuousClock.now
        let themeFolder = Theme.folder(given: options.templates)
        for (input, kind) in [(options.store, "store"), (themeFolder, "theme")] {
            if let input, FolderNesting.isInside(options.output, input) {
                throw BuildError.outputInsideInput(output: options.output, input: input, kind: kind)
            }
        }
        let theme = try themeFolder.map { try Theme(folder: $0) } ?? Theme.builtIn
        let templates = try theme.templates(language: options.config.language)
        let inputs = try BuildInputs(options, theme: theme)
        observer.phaseEnded("stamp inputs")
        // With an output folder already there, take it (and its lock) now: if the last build
        // was made from the same inputs and its files are intact, there is nothing to do.
        // Without one, it is created only once the store has been read without errors.
        var openedWriter: SiteWriter?
        if isDirectory(options.output) {
            let writer = try SiteWriter(outputDirectory: options.output)
            // (`--refresh-media` asks every image's server again, whatever the store.)
            if !refreshesMedia, inputs.match(previous: writer.previousInputs), writer.previousOutputIsIntact() {
                writer.abandon()
                observer.phaseEnded("check output")
                return BuildReport(
                    outcome: .nothingChanged, pages: 0, staticFiles: 0, warnings: [], notices: [],
                    elapsed: ContinuousClock.now - start)
            }
            openedWriter = writer
        }
        let snapshot: Snapshot
        var cacheNotices: [String] = []
        var storeFiles: (read: Int, cached: Int)?
        var storeListing = BuildReport.StoreListing.whole
        var snapshotReused = false
        var snapshotWrite: SnapshotWrite?
        // (A build that ends, or fails, leaves no write behind it.)
        defer { _ = snapshotWrite?.finish() }
        var captionCache: (path: String, identity: StoreIdentity, cache: CaptionCache?)?
        if options.usesCache {
            let read = try CachedStoreRead(
                store: options.store, cacheFolder: options.media.cache,
                walk: inputs.storeFiles.map { ($0, inputs.storeFolders, inputs.stampedAt) },
                phases: observer.phaseEnded)
            snapshot = read.snapshot
            storeFiles = (read.readFiles, read.reusedFiles)
            storeListing = read.listing
            snapshotReused = read.snapshotReused
            snapshotWrite = read.snapshotWrite
            if let problem = read.problem { cacheNotices.append(problem) }
            let path = CaptionCache.path(folder: options.media.cache, identity: read.identity)
            captionCache = (path, read.identity, CaptionCache.load(path: path, identity: read.identity))
        } else {
            snapshot = try Snapshot.read(at: options.store, phases: observer.phaseEnded).0
        }
        // The decoded documents are gone: give their memory back to the system, or the
        // allocator keeps it, scattered, under everything that follows (at a million tweets,
        // hundreds of megabytes of the build's peak).
        Heap.trim()
        var warnings = try check(snapshot.diagnostics)

        var media: MirroredMedia?
        if options.config.media == .mirror {
            media = try MirroredMedia.mirror(
                MirroredMedia.references(in: snapshot), options: options.media, progress: observer.mediaProgress)
            warnings += media!.warnings
            observer.phaseEnded("mirror images")
        }

        let known = captionCache?.cache
        let matched = known?.entries(of: snapshot.tweets)
        let captionKeys = [[String]](parallelCount: snapshot.tweets.count, chunk: 64) { t in
            known?.keys(entry: matched![t]) ?? SearchIndex.captionKeys(snapshot.tweets[t].caption)
        }
        let search = SearchIndex(snapshot: snapshot, captionKeys: captionKeys)
        observer.phaseEnded("search index")
        var renderer = try SiteRenderer(
            snapshot: snapshot, config: options.config, templates: templates,
            templateFolder: theme.origin, stylesheet: theme.stylesheet, images: media?.images ?? SiteImages(),
            search: consume search, renders: matched.flatMap { known?.renders(matched: $0) })
        observer.phaseEnded("captions")  // (cards are rendered with the first page that shows them)
        if let (path, identity, cache) = captionCache {
            let distinct = CaptionCache.distinct(snapshot.tweets, matched: matched, entryCount: cache?.entryCount ?? 0)
            // No cache, or one made in another context: none of it serves.
            let drift =
                matched.flatMap { cache?.drift(matched: $0, distinct: distinct, context: renderer.captionContext) }
                ?? distinct.count
            if CacheFile.isWorthRewriting(drift: drift, live: distinct.count) {
                let captions = snapshot.tweets.map(\.caption)
                do throws(BuildError) {
                    try CaptionCache.write(
                        path: path, identity: identity, context: renderer.captionContext, captions: captions,
                        distinct: distinct, keys: captionKeys, renders: renderer.captionRender(ofTweet:))
                } catch {
                    cacheNotices.append(error.description)
                }
                observer.phaseEnded("write caption cache")
            }
        }
        _ = consume captionKeys  // (a million tweets' keys: not held through the render)

        let writer = try openedWriter ?? SiteWriter(outputDirectory: options.output)
        // Pages whose fingerprint matches the last build's are kept without rendering them.
        // (The plan's pages are picked where they are: a copy is some 120 MB at a million tweets.)
        let fingerprints = renderer.pageFingerprints()
        let shard = options.shard
        let inShard: @Sendable (Page) -> Bool = { shard?.contains($0.path) ?? true }
        let pageCount = shard == nil ? fingerprints.count : renderer.plan.pages.count(where: inShard)
        var staticFiles = theme.staticFiles
        if let shard { staticFiles = staticFiles.filter { shard.contains(Theme.staticFolder + $0.path) } }
        writer.expect(files: pageCount + staticFiles.count)
        observer.phaseEnded("fingerprints")
        observer.renderingStarted(pages: pageCount)
        var mediaFiles = 0
        var rendered = 0
        do {
            // The term shards are made already (some 180 MB at a million tweets): staged first
            // and let go, not held through the rest of the render.
            rendered += try render(
                fingerprints, where: { $0.isSearchTermShard && inShard($0) }, with: renderer, into: writer,
                observer: observer)
            renderer = renderer.droppingSearchTermShards()
            rendered += try render(
                fingerprints, where: { !$0.isSearchTermShard && inShard($0) }, with: renderer, into: writer,
                observer: observer)
            for file in staticFiles {
                _ = try writer.write(Theme.staticFolder + file.path, file.bytes)
            }
            observer.phaseEnded("render and stage")
            if let media {
                mediaFiles = try media.write(into: writer, shard: options.shard)
                observer.phaseEnded("stage images")
            }
        } catch {
            writer.abandon()
            throw error
        }
        // An image that could not be had is asked for again by the next build, even if nothing
        // else changed.
        let retryMedia = refreshesMedia || !(media?.warnings.isEmpty ?? true)
        // The snapshot and what was made from it are not needed past the render. They are
        // freed on the other core while this one commits (the commit runs on one thread, and
        // adds a few megabytes to the render's peak at a million tweets), and the heap is
        // trimmed once both are done.
        if let problem = snapshotWrite?.finish() { cacheNotices.append(problem) }
        let released = DispatchGroup()
        Heap.release((consume renderer, consume snapshot, consume captionCache, consume known), in: released)
        defer {
            released.wait()
            Heap.trim()
        }
        let summary = try writer.commit(inputs: retryMedia ? nil : inputs.token)
        observer.phaseEnded("commit")
        var report = BuildReport(
            outcome: .built(summary), pages: pageCount, staticFiles: staticFiles.count,
            warnings: warnings, notices: notices + cacheNotices, elapsed: ContinuousClock.now - start)
        report.pagesRendered = rendered
        report.mediaFiles = mediaFiles
        report.media = media?.statistics
        report.storeFiles = storeFiles
        report.storeListing = storeListing
        report.snapshotReused = snapshotReused
        return report
    }

    private var refreshesMedia: Bool { options.config.media == .mirror && options.media.refresh }

    /// What the build leaves out on purpose, said once.
    private var notices: [String] {
        options.config.hasAbsoluteBase
            ? []
            : [
                "no sitemap.xml: a sitemap needs absolute URLs, and the base URL '\(options.config.baseURL)' is a path; "
                    + "give an absolute one (--base-url https://example.com/) to write it"
            ]
    }

    /// The warnings, when the build may go on; throws the problems that stop it (errors, and
    /// warnings with `--strict`).
    private func check(_ diagnostics: [Diagnostic]) throws(BuildError) -> [Diagnostic] {
        let errors = diagnostics.filter { $0.severity == .error }
        let warnings = diagnostics.filter { $0.severity == .warning }
        let fatal = errors + (options.strict ? warnings : [])
        if !fatal.isEmpty { throw .invalidStore(store: options.store, problems: fatal, strict: options.strict) }
        return warnings
    }

    /// Renders and hands over the pages of the renderer's plan that `include` picks (with
    /// their `fingerprints`, in plan order), on all cores; returns how many were rendered (not kept).
    private func render(
        _ fingerprints: [UInt64], where include: @Sendable (Page) -> Bool, with renderer: SiteRenderer,
        into writer: SiteWriter, observer: some BuildObserver
    ) throws -> Int {
        let pages = renderer.plan.pages
        let failure = Mutex<(any Error)?>(nil)
        let rendered = Atomic<Int>(0)
        let chunk = 64
        let chunks = (pages.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            for i in (c * chunk)..<min(pages.count, (c + 1) * chunk) {
                if failure.withLock({ $0 != nil }) { return }
                do {
                    let (page, fingerprint) = (pages[i], fingerprints[i])
                    guard include(page) else { continue }
                    if try !writer.keep(page.path, fingerprint: fingerprint) {
                        _ = try writer.write(page.path, try renderer.render(page), fingerprint: fingerprint)
                        rendered.add(1, ordering: .relaxed)
                    }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    return
                }
                observer.pageFinished()
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return rendered.load(ordering: .relaxed)
    }
}

private func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}
