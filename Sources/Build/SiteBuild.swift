import Dispatch
import Firestore
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
package struct SiteBuild: Sendable {
    package let options: BuildOptions
    /// The time file stamps are trusted by (see `BuildInputs.isSettled`).
    let clock: BuildClock

    package init(_ options: BuildOptions) {
        self.init(options, clock: .system)
    }

    package init(_ options: BuildOptions, clock: BuildClock) {
        self.options = options
        self.clock = clock
    }

    @discardableResult
    package func run(observer: some BuildObserver = SilentBuild()) throws -> BuildReport {
        let start = ContinuousClock.now
        // (A problem with the theme or the output's place is told before one with the store.)
        let found = Result { try StoreAddress.source(for: options.store) }
        let listings = (try? found.get()).flatMap { BuildInputs.knownListings(options, source: $0) }
        // (Thousands of folders' names: let go with the process, not one by one.)
        defer { if options.endsProcess, let listings { Heap.keepUntilExit(listings) } }
        let pipeline = try SitePipeline(config: options.config, theme: try theme(), media: options.media)
        var source = try found.get()
        if let database = source as? FirestoreSource { source = database.reporting(observer.documentsRead) }
        let inputs = try BuildInputs(options, source: source, theme: pipeline.theme, listings: listings, clock: clock)
        defer { _ = inputs.listingWrite?.finish() }
        observer.phaseEnded(.stampInputs)
        let hasOutput = isDirectory(options.output)
        // A build whose inputs moved since the last one (as the manifest's head tells) starts
        // reading the build cache now, beside the manifest's parse, rather than after it.
        let cachesFiles = BuildInputs.cachesFiles(options, source: source)
        let startPrefetch = {
            CachePrefetch(
                folder: options.media.cache, identity: StoreIdentity(source),
                walk: inputs.storeFiles.flatMap { files in inputs.storeFolders.map { (files, $0) } })
        }
        var prefetch: CachePrefetch? =
            cachesFiles
                && (!hasOutput || refreshesMedia
                    || !inputs.match(previous: SiteWriter.recordedInputs(outputDirectory: options.output)))
            ? startPrefetch() : nil
        // With an output folder already there, take it (and its lock) now: if the last build
        // was made from the same inputs and its files are intact, there is nothing to do.
        // Without one, it is created only once the store has been read without errors.
        var openedWriter: SiteWriter?
        if hasOutput {
            let writer = try SiteWriter(outputDirectory: options.output)
            // (`--refresh-media` asks every image's server again, whatever the store.)
            if !refreshesMedia, inputs.match(previous: writer.previousInputs), writer.previousOutputIsIntact() {
                writer.abandon()
                if options.endsProcess { Heap.keepUntilExit(writer) }
                observer.phaseEnded(.checkOutput)
                var report = BuildReport(
                    outcome: .nothingChanged, pages: 0, staticFiles: 0, warnings: [],
                    notices: inputs.listingWrite?.finish().map { [.cache($0)] } ?? [],
                    elapsed: ContinuousClock.now - start)
                report.storeWalk = inputs.storeWalk
                return report
            }
            openedWriter = writer
        }
        // The build cache's files, read on other threads at once if not already, and handed to
        // the read: what it does not take is let go with it (the kept snapshot, decoded, is big).
        if cachesFiles, prefetch == nil { prefetch = startPrefetch() }
        // A read that will likely bring the kept snapshot up to date waits for its decoding:
        // meanwhile this core checks the last build's files, which the render will keep, then
        // hands the rest of the check to another thread at once: the read's own work after
        // the decoding (the search cache, say) is on this thread alone.
        if let writer = openedWriter, let prefetch, prefetch.updatesByWalk {
            writer.checkPreviousFiles(while: { !prefetch.snapshotIsDecoded })
            writer.checkPreviousFiles()
        }
        let read = try readStore(source, inputs, prefetch: prefetch.take(), observer: observer)
        // Otherwise the last build's files are checked while the renderer is made (mostly on
        // one core), for the render to keep them: when the snapshot was brought up to date, as
        // after an edit of a few documents. One derived again (a user renamed, say) has many
        // pages rendered anew, whose files would be checked in vain: `keep` checks what it keeps.
        // (A check started above goes on whatever the read did, so that none is left half-made.)
        if read.snapshotReused { openedWriter?.checkPreviousFiles() }
        var notices = self.notices + read.notices
        if let database = source as? FirestoreSource {
            notices.append(.documentsRead(database.documentsRead, database: database.location))
        }
        // (A build that ends, or fails, leaves no write behind it.)
        let snapshotWrite = read.snapshotWrite
        defer { _ = snapshotWrite?.finish() }
        // The decoded documents are gone: give their memory back to the system, or the
        // allocator keeps it, scattered, under everything that follows (at a million tweets,
        // hundreds of megabytes of the build's peak).
        Heap.trim()
        var warnings = try check(Diagnostic.adding(skippedLinks: inputs.storeLinks, to: read.snapshot.diagnostics))
        let media = try pipeline.mirror(read.snapshot, progress: observer.mediaProgress)
        if let media {
            warnings += media.warnings
            observer.phaseEnded(.mirrorImages)
        }
        let context = read.kept.map { contextInputs($0, of: read.snapshot, theme: pipeline.theme) }
        let cachedFingerprints = read.kept.flatMap { keptFingerprints($0, tweetCount: read.snapshot.tweets.count) }
        var renderer = try renderer(
            pipeline, read.snapshot, images: media?.images ?? SiteImages(), captions: read.captionCache,
            search: read.searchCache, kept: context?.parts,
            keptCards: cachedFingerprints.flatMap { kept in read.kept?.edits.map { KeptCards(kept, changed: $0.tweets) }
            },
            notices: &notices, observer: observer)
        let searchWrite = read.searchCache.flatMap { Self.writeSearchCache($0, of: renderer) }
        defer { _ = searchWrite?.finish() }
        let contextWrite = context.flatMap { writeContextCache($0, of: renderer) }
        defer { _ = contextWrite?.finish() }

        let (fingerprints, fingerprintWrite, fingerprintsReused) = pageFingerprints(
            of: renderer, kept: read.kept, cached: cachedFingerprints)
        defer { _ = fingerprintWrite?.finish() }
        let writer = try openedWriter ?? SiteWriter(outputDirectory: options.output)
        let published = try publish(
            renderer: &renderer, fingerprints: fingerprints, theme: pipeline.theme, media: media, into: writer,
            observer: observer)
        // An image that could not be had is asked for again by the next build, even if nothing
        // else changed.
        let retryMedia = refreshesMedia || !(media?.warnings.isEmpty ?? true)
        for write in [inputs.listingWrite, snapshotWrite, searchWrite, contextWrite, fingerprintWrite] {
            if let problem = write?.finish() { notices.append(.cache(problem)) }
        }
        let (storeFiles, storeListing, snapshotReused) = (read.files, read.listing, read.snapshotReused)
        let searchReused = read.searchCache?.reused ?? false
        let summary = try Self.commit(
            writer, inputs: retryMedia ? nil : inputs.token, releasing: (consume renderer, consume read),
            keepingUntilExit: options.endsProcess)
        observer.phaseEnded(.commit)
        if options.endsProcess { Heap.keepUntilExit((writer, inputs)) }
        var report = BuildReport(
            outcome: .built(summary), pages: published.pages, staticFiles: published.staticFiles,
            warnings: warnings, notices: notices, elapsed: ContinuousClock.now - start)
        report.pagesRendered = published.rendered
        report.mediaFiles = published.mediaFiles
        report.media = media?.statistics
        report.storeFiles = storeFiles
        report.storeListing = storeListing
        report.storeWalk = inputs.storeWalk
        report.snapshotReused = snapshotReused
        report.searchReused = searchReused
        report.fingerprintsReused = fingerprintsReused
        return report
    }

    /// The theme: the folder `options.templates` names (or the project's `templates/`), else
    /// the built-in one. An output folder inside the store or the theme is refused first.
    private func theme() throws -> Theme {
        let themeFolder = Theme.folder(given: options.templates, in: options.projectFolder)
        for (input, kind) in [(options.store, "store"), (themeFolder, "theme")] {
            if let input, FolderNesting.isInside(options.output, input) {
                throw BuildError.outputInsideInput(output: options.output, input: input, kind: kind)
            }
        }
        if options.usesCache || options.config.media == .mirror,
            FolderNesting.isInside(options.media.cache, options.output)
        {
            throw BuildError.cacheInsideOutput(cache: options.media.cache, output: options.output)
        }
        return try themeFolder.map { try Theme(folder: $0) } ?? Theme.builtIn
    }

    /// What reading the store gave the build.
    private struct StoreRead: Sendable {
        var snapshot: Snapshot
        var notices: [BuildNotice] = []
        /// Store files read, and taken from the build cache (nil without the cache).
        var files: (read: Int, cached: Int)?
        var listing = BuildReport.StoreListing.whole
        var snapshotReused = false
        var snapshotWrite: CacheWrite?
        var captionCache: CaptionInputs?
        var searchCache: SearchInputs?
        /// The snapshot kept for the next build: its store, basis, and the captions edited
        /// since when it was updated.
        var kept: KeptSnapshot?
    }

    /// The snapshot a build keeps (`CachedStoreRead.snapshotBasis`), for the caches kept with it.
    struct KeptSnapshot: Sendable {
        let identity: StoreIdentity
        let basis: UInt64
        let edits: CachedStoreRead.CaptionEdits?
        /// `CachedStoreRead.hasKeptRelations`.
        let hasKeptRelations: Bool
    }

    /// The context cache of the store being built: where it goes, for which snapshot, theme
    /// and language, and the parts it held, brought up to date (nil: none serves).
    struct ContextInputs: Sendable {
        let path: String
        let kept: KeptSnapshot
        let key: ContextCache.Key
        let parts: ContextParts?
    }

    /// The search cache of the store being built: where it goes, for which snapshot, and the
    /// postings it held for it (nil: none serves).
    struct SearchInputs: Sendable {
        let path: String
        let identity: StoreIdentity
        /// The kept snapshot's basis (`SnapshotCache.Basis.digest`).
        let basis: UInt64
        /// The postings of the kept snapshot it updated, brought up to date with the captions
        /// edited since, or those made of the same inputs as a snapshot derived again.
        let postings: SearchPostings?
        /// The captions edited since the kept snapshot, when it was updated (not derived again).
        let edits: CachedStoreRead.CaptionEdits?
        /// The inputs' digest (`SearchIndex.inputDigest`) of a snapshot derived again.
        let derivedDigest: UInt64?
        /// The postings were taken from the cache (not made from every tweet).
        var reused: Bool { postings != nil }
        /// The cache is written for the kept snapshot: none served it, or a derived one took
        /// postings kept under another basis.
        var needsWrite: Bool { postings == nil || derivedDigest != nil }
    }

    /// The caption cache of the store being built: where it goes, and what it held.
    struct CaptionInputs: Sendable {
        let path: String
        let identity: StoreIdentity
        let cache: CaptionCache?
    }

    /// The store's snapshot: through the build cache (`CachedStoreRead`), or read whole.
    private func readStore(
        _ source: any DocumentSource, _ inputs: BuildInputs, prefetch: CachePrefetch?, observer: some BuildObserver
    ) throws -> StoreRead {
        guard options.usesCache else {
            let snapshot = try Snapshot.read(from: source, phases: { observer.phaseEnded(BuildPhase($0)) }).0
            return StoreRead(snapshot: snapshot)
        }
        let read = try CachedStoreRead(
            source: source, cacheFolder: options.media.cache,
            walk: inputs.storeFiles.map { ($0, inputs.storeFolders, inputs.stampedAt) },
            seen: inputs.storeSeen.flatMap { seen in inputs.storeFolders.map { (seen, $0) } }, prefetch: prefetch,
            clock: clock, phases: observer.phaseEnded)
        let path = CaptionCache.path(folder: options.media.cache, identity: read.identity)
        let captions =
            if let prefetch { prefetch.takeCaptions() } else { CaptionCache.load(path: path, identity: read.identity) }
        return StoreRead(
            snapshot: read.snapshot, notices: read.problem.map { [.cache($0)] } ?? [],
            files: (read.readFiles, read.reusedFiles),
            listing: read.listing, snapshotReused: read.snapshotReused, snapshotWrite: read.snapshotWrite,
            captionCache: CaptionInputs(
                path: path, identity: read.identity, cache: captions),
            searchCache: searchInputs(read),
            kept: read.snapshotBasis.map {
                KeptSnapshot(
                    identity: read.identity, basis: $0, edits: read.captionEdits,
                    hasKeptRelations: read.hasKeptRelations)
            })
    }

    /// The context parts kept with the snapshot `kept`, for this theme and language, with the
    /// langs of the captions edited since made again.
    private func contextInputs(_ kept: KeptSnapshot, of snapshot: Snapshot, theme: Theme) -> ContextInputs {
        let path = ContextCache.path(folder: options.media.cache, identity: kept.identity)
        let key = ContextCache.Key(basis: kept.basis, theme: theme.fingerprint, language: options.config.language)
        // (A snapshot derived now has no parts kept yet.)
        let parts = kept.edits.flatMap { edits in
            ContextCache.load(path: path, identity: kept.identity, key: key, tweetCount: snapshot.tweets.count)?
                .replacingLangs(
                    ofTweets: edits.tweets, captions: edits.tweets.map { snapshot.tweets[$0].caption },
                    siteLanguage: options.config.language)
        }
        return ContextInputs(path: path, kept: kept, key: key, parts: parts)
    }

    /// Writes the renderer's context parts for the kept snapshot, on another thread, unless
    /// they were taken from the cache (an updated snapshot's with the caption edits undone).
    private func writeContextCache(_ context: ContextInputs, of renderer: SiteRenderer) -> CacheWrite? {
        guard context.parts == nil else { return nil }
        let made = renderer.contextParts
        let language = options.config.language
        return CacheWrite { () throws(BuildError) in
            let parts =
                context.kept.edits.map {
                    made.replacingLangs(ofTweets: $0.tweets, captions: $0.oldCaptions, siteLanguage: language)
                } ?? made
            try ContextCache.write(
                path: context.path, identity: context.kept.identity, key: context.key, parts: parts)
        }
    }

    /// Every page's fingerprint, in plan order: with a snapshot updated from the kept one in
    /// tweets' content alone, from the fingerprint cache where it serves (only the pages that
    /// show a changed card made again); otherwise all made, and kept for the next build
    /// (written on another thread) when the snapshot has the kept one's relations.
    private func pageFingerprints(of renderer: SiteRenderer, kept: KeptSnapshot?, cached: KeptFingerprints?) -> (
        [UInt64], write: CacheWrite?, reused: Bool
    ) {
        guard let kept, kept.hasKeptRelations else { return (renderer.pageFingerprints(), nil, false) }
        let path = FingerprintCache.path(folder: options.media.cache, identity: kept.identity)
        if let cached, let fingerprints = renderer.pageFingerprints(taking: cached) {
            return (fingerprints, nil, true)
        }
        let made = renderer.keptFingerprints()
        let write = CacheWrite { () throws(BuildError) in
            try FingerprintCache.write(path: path, identity: kept.identity, basis: kept.basis, kept: made)
        }
        return (made.pages, write, false)
    }

    /// The fingerprints kept with the snapshot `kept`, when it was updated in tweets' content
    /// alone (a snapshot derived now has none kept yet).
    private func keptFingerprints(_ kept: KeptSnapshot, tweetCount: Int) -> KeptFingerprints? {
        guard kept.edits != nil, kept.hasKeptRelations else { return nil }
        return FingerprintCache.load(
            path: FingerprintCache.path(folder: options.media.cache, identity: kept.identity),
            identity: kept.identity, basis: kept.basis, tweetCount: tweetCount)
    }

    /// The search cache of a read that kept its snapshot: with an updated snapshot, the
    /// postings of the one it updated, brought up to date; with one derived again, those made
    /// of the same inputs (a stored counter changed leaves every key where it was).
    private func searchInputs(_ read: CachedStoreRead) -> SearchInputs? {
        guard let basis = read.snapshotBasis else { return nil }
        let path = SearchCache.path(folder: options.media.cache, identity: read.identity)
        let snapshot = read.snapshot
        let load = { (match: SearchCache.Match) in
            SearchCache.load(
                path: path, identity: read.identity, match: match, tweetCount: snapshot.tweets.count,
                userCount: snapshot.users.count)
        }
        guard let edits = read.captionEdits else {
            let digest = SearchIndex.inputDigest(of: snapshot)
            return SearchInputs(
                path: path, identity: read.identity, basis: basis, postings: load(.digest(digest)), edits: nil,
                derivedDigest: digest)
        }
        let postings = load(.basis(basis))?.replacingCaptions(
            ofTweets: edits.tweets, oldKeys: edits.oldCaptions.map(SearchIndex.captionKeys),
            newKeys: edits.tweets.map { SearchIndex.captionKeys(snapshot.tweets[$0].caption) }, in: snapshot)
        return SearchInputs(
            path: path, identity: read.identity, basis: basis, postings: postings, edits: edits, derivedDigest: nil)
    }

    /// Writes the postings of the kept snapshot, on another thread, when the cache does not
    /// hold them under its basis: a derived snapshot's are the renderer's; an updated one's,
    /// the renderer's with the caption edits undone (the cache was not usable).
    private static func writeSearchCache(_ search: SearchInputs, of renderer: SiteRenderer) -> CacheWrite? {
        guard search.needsWrite, let postings = renderer.search.postings else { return nil }
        let snapshot = renderer.snapshot
        return CacheWrite { () throws(BuildError) in
            var (kept, digest) = (postings, search.derivedDigest)
            if let edits = search.edits {
                kept = postings.replacingCaptions(
                    ofTweets: edits.tweets,
                    oldKeys: edits.tweets.map { SearchIndex.captionKeys(snapshot.tweets[$0].caption) },
                    newKeys: edits.oldCaptions.map(SearchIndex.captionKeys), in: snapshot)
                let old = Dictionary(uniqueKeysWithValues: zip(edits.tweets, edits.oldCaptions))
                digest = SearchIndex.inputDigest(of: snapshot) { old[$0] ?? snapshot.tweets[$0].caption }
            }
            // (Without edits the snapshot was derived again, and its digest made already.)
            let made = digest ?? SearchIndex.inputDigest(of: snapshot)
            try SearchCache.write(
                path: search.path, identity: search.identity, basis: search.basis, digest: made, postings: kept)
        }
    }

    /// The renderer, from the caption cache's search keys and renders where it has them; the
    /// cache written again when enough of it is new (its problem, if any, a notice).
    private func renderer(
        _ pipeline: SitePipeline, _ snapshot: Snapshot, images: SiteImages, captions: CaptionInputs?,
        search: SearchInputs?, kept: ContextParts?, keptCards: KeptCards?, notices: inout [BuildNotice],
        observer: some BuildObserver
    ) throws -> SiteRenderer {
        let known = captions?.cache
        let matched = known?.entries(of: snapshot.tweets)
        let keysOf: @Sendable (Int) -> [String] = { t in
            known?.keys(entry: matched![t]) ?? SearchIndex.captionKeys(snapshot.tweets[t].caption)
        }
        // With the postings at hand, the captions' keys are not needed (but for a cache rewrite).
        let captionKeys: [[String]]? =
            search?.postings != nil
            ? nil : [[String]](parallelCount: snapshot.tweets.count, chunk: Self.captionChunk, keysOf)
        let index = search?.postings.map { SearchIndex(postings: $0, snapshot: snapshot) }
        let renderer = try pipeline.renderer(
            of: snapshot, images: images, captionKeys: captionKeys, search: index,
            renders: matched.flatMap { known?.renders(matched: $0) }, kept: kept, keptCards: keptCards,
            phases: observer.phaseEnded)
        guard let captions else { return renderer }
        let distinct = CaptionCache.distinct(snapshot.tweets, matched: matched, entryCount: known?.entryCount ?? 0)
        // No cache, or one made in another context: none of it serves.
        let drift =
            matched.flatMap { known?.drift(matched: $0, distinct: distinct, context: renderer.captionContext) }
            ?? distinct.count
        if CacheFile.isWorthRewriting(drift: drift, live: distinct.count) {
            do throws(BuildError) {
                try CaptionCache.write(
                    path: captions.path, identity: captions.identity, context: renderer.captionContext,
                    captions: snapshot.tweets.map(\.caption), distinct: distinct,
                    keys: { captionKeys?[$0] ?? keysOf($0) },
                    renders: renderer.captionRender(ofTweet:))
            } catch {
                notices.append(.cache(error.description))
            }
            observer.phaseEnded(.writeCaptionCache)
        }
        return renderer
    }

    /// Tweets per task where captions' keys are made on all cores, and pages per task where
    /// they are rendered: enough to pay for the task, few enough to share the work evenly.
    private static let captionChunk = 64
    private static let pageChunk = 64

    /// What a build published into the output folder, before the commit.
    private struct Published {
        var pages = 0
        var rendered = 0
        var staticFiles = 0
        var mediaFiles = 0
    }

    /// The publisher of `roost build`: every page of the plan (of `--shard`) handed to the
    /// writer, rendered only when its fingerprint (`fingerprints`, in plan order) differs from
    /// the last build's; the theme's
    /// static files and the mirrored images. The writer is abandoned on any failure.
    private func publish(
        renderer: inout SiteRenderer, fingerprints: [UInt64], theme: Theme, media: MirroredMedia?,
        into writer: SiteWriter, observer: some BuildObserver
    ) throws -> Published {
        // (The plan's pages are picked where they are: a copy is some 120 MB at a million tweets.)
        let shard = options.shard
        let inShard: @Sendable (Page) -> Bool = { shard?.contains($0.path) ?? true }
        var published = Published()
        published.pages = shard == nil ? fingerprints.count : renderer.plan.pages.count(where: inShard)
        var staticFiles = theme.staticFiles
        if let shard { staticFiles = staticFiles.filter { shard.contains(Theme.staticFolder + $0.path) } }
        published.staticFiles = staticFiles.count
        writer.expect(files: published.pages + staticFiles.count)
        observer.phaseEnded(.fingerprints)
        observer.renderingStarted(pages: published.pages)
        do {
            // The term shards are made already (some 180 MB at a million tweets): staged first
            // and let go, not held through the rest of the render.
            published.rendered += try render(
                fingerprints, where: { $0.isSearchTermShard && inShard($0) }, with: renderer, into: writer,
                observer: observer)
            renderer = renderer.droppingSearchTermShards()
            published.rendered += try render(
                fingerprints, where: { !$0.isSearchTermShard && inShard($0) }, with: renderer, into: writer,
                observer: observer)
            for file in staticFiles {
                _ = try writer.write(Theme.staticFolder + file.path, file.bytes)
            }
            observer.phaseEnded(.renderAndStage)
            if let media {
                published.mediaFiles = try media.write(into: writer, shard: options.shard)
                observer.phaseEnded(.stageImages)
            }
        } catch {
            writer.abandon()
            throw error
        }
        return published
    }

    /// Commits the writer while `released` (the snapshot and what was made from it, not needed
    /// past the render) is freed on the other core: the commit runs on one thread and adds a
    /// few megabytes to the render's peak at a million tweets. The heap is trimmed once both
    /// are done. With `keepingUntilExit` (the process ends after the build), nothing is freed.
    private static func commit<Released: Sendable>(
        _ writer: SiteWriter, inputs: String?, releasing released: consuming Released, keepingUntilExit: Bool
    ) throws -> WriteSummary {
        if keepingUntilExit {
            Heap.keepUntilExit(released)
            return try writer.commit(inputs: inputs)
        }
        let group = DispatchGroup()
        Heap.release(released, in: group)
        defer {
            group.wait()
            Heap.trim()
        }
        return try writer.commit(inputs: inputs)
    }

    private var refreshesMedia: Bool { options.config.media == .mirror && options.media.refresh }

    /// What the build leaves out on purpose, said once.
    private var notices: [BuildNotice] {
        options.config.hasAbsoluteBase ? [] : [.noSitemap(baseURL: options.config.baseURL)]
    }

    /// The warnings, when the build may go on; throws the problems that stop it (errors, and
    /// warnings with `--strict`).
    private func check(_ diagnostics: [Diagnostic]) throws(BuildError) -> [Diagnostic] {
        let (fatal, warnings) = SitePipeline.problems(in: diagnostics, strict: options.strict)
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
        let rendered = Atomic<Int>(0)
        let chunk = Self.pageChunk
        // (The observer hears a chunk's pages at once: a call a page contended for its lock.)
        try parallelForEach(count: (pages.count + chunk - 1) / chunk, chunk: 1) { c in
            var finished = 0
            for i in (c * chunk)..<min(pages.count, (c + 1) * chunk) {
                let (page, fingerprint) = (pages[i], fingerprints[i])
                guard include(page) else { continue }
                if try !writer.keep(page.path, fingerprint: fingerprint) {
                    _ = try writer.write(page.path, try renderer.render(page), fingerprint: fingerprint)
                    rendered.add(1, ordering: .relaxed)
                }
                finished += 1
            }
            if finished > 0 { observer.pagesFinished(finished) }
        }
        return rendered.load(ordering: .relaxed)
    }
}

private func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}
