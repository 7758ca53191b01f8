import Model
import Site
import Store
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Reading the store through the build cache (`DocumentCache`): the files whose stamp is
/// the one the cache recorded are taken from it, the others are read and decoded, and the
/// cache is written again for the next build when what it lacks costs enough (see `init`).
/// The snapshot is the one `Snapshot.read` makes: it does not depend on the order of the
/// documents. It is kept too (`SnapshotCache`); when only tweets' content changed since, the
/// next read updates it instead of decoding the store and deriving one: by its walk, without
/// the document cache (`updateByWalk`), or through the document cache (`update`).
struct CachedStoreRead {
    let snapshot: Snapshot
    /// Store files (a single-file store is one) taken from the cache, and read.
    let reusedFiles: Int
    let readFiles: Int
    /// Which of the store's folders were listed.
    let listing: BuildReport.StoreListing
    /// Which store was read.
    let identity: StoreIdentity
    /// Why the cache could not be written, when it could not (the build goes on without it).
    let problem: String?
    /// True when the snapshot the last build derived was taken from the cache and brought up
    /// to date (`SnapshotCache`), not derived again.
    let snapshotReused: Bool
    /// The snapshot derived, being written for the next build: to be finished before the
    /// build ends (its problem, if any, is a notice).
    let snapshotWrite: CacheWrite?
    /// Which basis the kept snapshot has (`SnapshotCache.Basis.digest`): the one updated, or
    /// the one being written; nil when none is kept.
    let snapshotBasis: UInt64?
    /// When the kept snapshot was updated: the tweets whose captions it replaced, by index,
    /// and their captions in it.
    let captionEdits: CaptionEdits?
    /// The snapshot is the kept one (`snapshotBasis`), or that one with tweets' content alone
    /// edited: every relation, so every page's place and what it lists, is the kept one's.
    let hasKeptRelations: Bool

    /// Tweets whose captions an update of the kept snapshot replaced.
    struct CaptionEdits: Sendable {
        let tweets: [Int]
        let oldCaptions: [String]
    }

    /// What the walk makes of one store file.
    private struct Item: Sendable {
        let document: DecodedDocument
        /// The cache's entry it came from, or the file it was read from now and its stamp.
        let origin: Origin
    }

    private enum Origin: Sendable {
        case cached(Int)
        case read(file: String, stamp: FileStamp?)
    }

    /// What one way of reading the store gathered, before the cache is written and the
    /// snapshot derived (or updated).
    private struct Gathered {
        /// A single file's documents, or a directory store's read without a cache.
        var decoded: [DecodedDocument] = []
        /// A directory store's documents, each with the cache entry it came from or the file
        /// it was read from now (`decoded` and a parallel array of origins would hold both
        /// twice while one was made from the other).
        var items: [Item] = []
        var folders: FolderLayouts?
        var listing = BuildReport.StoreListing.whole
        /// In the folders listed again, when not the whole store.
        var listedFiles = 0
        /// Files read, and taken from the cache.
        var readCount = 0
        var reused = 0
        var problem: String?
        /// The last build's snapshot, brought up to date.
        var updated: SnapshotUpdate?
        /// The document cache on disk once this read is done (`DocumentCache.checksum`), for
        /// the basis of the snapshot written after it.
        var documentCache: UInt64?
        /// The cache was written as the store was read (a directory store's first build).
        var writtenWhileRead = false

        /// The decoded documents, handed over (none is held twice while the snapshot is made).
        mutating func takeDecoded() -> [DecodedDocument] {
            var taken: [DecodedDocument] = []
            swap(&taken, &decoded)
            return taken
        }

        mutating func takeItems() -> [Item] {
            var taken: [Item] = []
            swap(&taken, &items)
            return taken
        }
    }

    /// What every way of reading needs to know of this read.
    private struct Context {
        let source: any DocumentSource
        let isDirectory: Bool
        let identity: StoreIdentity
        /// The document cache's file, and the snapshot's.
        let path: String
        let snapshotPath: String
        let walk: (files: StoreFileStamps, folders: FolderLayouts?, startedAt: Int64)?
        /// What the walk saw of each file (`StoreStamp.seen`), and of the folders: kept with a
        /// snapshot derived from the folders it saw.
        let seen: (files: [UInt64], folders: FolderLayouts)?
        /// Where the kept snapshot is being opened and decoded, if it is (`CachePrefetch`).
        let prefetch: CachePrefetch?
        /// Whether a stamp is old enough to be trusted: a file changed in the same clock tick
        /// as it was stamped might keep its stamp (git's "racily clean" files); such files are
        /// cached without documents, under a stamp that matches nothing, and read again next time.
        let settled: @Sendable (FileStamp?) -> Bool
    }

    /// The four ways of reading, by what is there: a directory store without a usable cache
    /// (read whole, the cache written as it goes), with one (through it), a single file the
    /// cache has as it is (taken from it), or any other single file (read).
    private enum ReadPlan {
        case firstRead
        case throughCache(DocumentCache)
        case singleFileFromCache([DecodedDocument])
        case singleFile
    }

    /// `walk`: the store's files and folders as the inputs' walk just saw them (files are not
    /// stat-ed again), and when that walk started; `seen`: what it kept of each file for a
    /// snapshot derived now (`StoreStamp.seen`, made on a first build too).
    init(
        source: any DocumentSource, cacheFolder: String,
        walk: (files: StoreFileStamps, folders: FolderLayouts?, startedAt: Int64)?,
        seen: (files: [UInt64], folders: FolderLayouts)? = nil, prefetch: CachePrefetch? = nil,
        clock: BuildClock = .system, phases: (BuildPhase) -> Void
    ) throws(StoreError) {
        let isDirectory = source.layout == .documentPerEntry
        let identity = StoreIdentity(source)
        // Stamps are trusted by when they were taken: a walk's, by when it began.
        let readStart = walk?.startedAt ?? clock.now()
        let context = Context(
            source: source, isDirectory: isDirectory, identity: identity,
            path: DocumentCache.path(folder: cacheFolder, identity: identity),
            snapshotPath: SnapshotCache.path(folder: cacheFolder, identity: identity), walk: walk, seen: seen,
            prefetch: prefetch,
            settled: { stamp in stamp.map { BuildInputs.isSettled(newest: $0.newest, at: readStart) } ?? false })
        var cache: DocumentCache?
        let stamp = isDirectory ? nil : source.stamp(ofEntry: "")
        var gathered: Gathered
        if isDirectory, let update = Self.updateByWalk(context) {
            try source.checkShape()
            gathered = Gathered(readCount: update.read, reused: (walk?.files.count ?? 0) - update.read)
            gathered.updated = update
            gathered.listing = .folders(0)
        } else {
            cache =
                if let prefetch { prefetch.takeDocuments() } else {
                    DocumentCache.load(path: context.path, identity: identity, writer: CacheFile.writer)
                }
            switch Self.plan(isDirectory: isDirectory, cache: cache, stamp: stamp) {
            case .firstRead: gathered = try Self.firstRead(context)
            case .throughCache(let cache): gathered = try Self.readThrough(cache, context)
            case .singleFileFromCache(let documents):
                gathered = Gathered(decoded: documents, readCount: 0, reused: 1, documentCache: cache?.checksum)
            case .singleFile:
                let read = try source.read(
                    stamps: nil, reusing: nil, transform: { document, _ in DecodedDocument(document) })
                gathered = Gathered(decoded: read.values, readCount: 1, reused: 0, documentCache: cache?.checksum)
            }
        }
        (self.identity, listing, readFiles, reusedFiles) = (
            identity, gathered.listing, gathered.readCount, gathered.reused
        )
        phases(.readStore)

        let written = Self.writeCacheIfWorthIt(
            &gathered, cache: cache, singleFile: isDirectory ? nil : stamp, context, phases: phases)
        snapshotReused = gathered.updated != nil
        if let updated = gathered.updated {
            snapshot = updated.snapshot
            problem = gathered.problem
            snapshotWrite = updated.walkWrite
            snapshotBasis = updated.basis
            captionEdits = updated.edits
            hasKeptRelations = !updated.likesMoved
            phases(.updateSnapshot)
            return
        }
        // The files read, not taken from the document cache as it now is (none, once written).
        var read: [UInt64: FileStamp] = [:]
        if !written {
            for item in gathered.items {
                guard case .read(let file, let stamp) = item.origin else { continue }
                read[StableHash.fnv1a(file)] =
                    stamp.flatMap { context.settled($0) ? $0 : nil } ?? DocumentCache.unsettled
            }
        }
        snapshot =
            gathered.items.isEmpty
            ? Snapshot(decoded: gathered.takeDecoded()) : Snapshot(documentsOf: gathered.takeItems(), \.document)
        phases(.derive)
        problem = gathered.problem
        captionEdits = nil
        hasKeptRelations = true
        if isDirectory, let documentCache = gathered.documentCache, let folders = gathered.folders {
            let basis = SnapshotCache.Basis(documents: documentCache, read: read, folders: folders.digest)
            // What the walk saw is kept with it when the walk saw the folders the read found.
            let walk = context.seen.flatMap { seen in
                seen.folders == folders ? SnapshotCache.Walk(folders: folders.digest, files: seen.files) : nil
            }
            snapshotWrite = SnapshotCache.writeInBackground(
                path: context.snapshotPath, identity: identity, basis: basis, walk: walk, snapshot: snapshot)
            snapshotBasis = basis.digest
        } else {
            snapshotWrite = nil
            snapshotBasis = nil
        }
    }

    private static func plan(isDirectory: Bool, cache: DocumentCache?, stamp: FileStamp?) -> ReadPlan {
        if isDirectory { return cache.map(ReadPlan.throughCache) ?? .firstRead }
        if let stamp, let cache, cache.count == 1, cache.stamp(of: 0) == stamp, let documents = cache.documents(of: 0) {
            return .singleFileFromCache(documents)
        }
        return .singleFile
    }

    /// No cache: every file is read, and its entry written as it is read (holding each file's
    /// path and stamp until the end would be the largest part of a first build's peak at a
    /// million tweets).
    private static func firstRead(_ context: Context) throws(StoreError) -> Gathered {
        try context.source.checkShape()
        let written = try writtenWhileRead(
            context.source, path: context.path, identity: context.identity, stamps: context.walk?.files.index(),
            settled: context.settled)
        var gathered = Gathered(
            decoded: written.documents, folders: written.folders, readCount: written.documents.count, reused: 0,
            problem: written.problem, documentCache: written.checksum)
        gathered.writtenWhileRead = true
        return gathered
    }

    /// A directory store through its cache: when the walk saw which folders moved, only
    /// those are listed again, and the last build's snapshot is updated when it can be (see
    /// `update`), else the files are read from the plan; otherwise the whole store is walked,
    /// each file taken from the cache when its stamp is the one recorded.
    private static func readThrough(_ cache: DocumentCache, _ context: Context) throws(StoreError) -> Gathered {
        try context.source.checkShape()
        let source = context.source
        var gathered = Gathered(documentCache: cache.checksum)
        let stamps = context.walk?.files.index()
        var planned = false
        if let stamps, let walked = context.walk?.folders, let known = cache.folders,
            let plan = plan(source, cache: cache, known: known, walked: walked)
        {
            if let update = updateKept(context, plan: plan, cache: cache, known: known, stamps: stamps) {
                gathered.updated = update
                (gathered.readCount, gathered.reused) = (update.read, plan.sources.count - update.read)
                planned = true
            } else if let found = read(source, plan.sources, cache: cache, stamps: stamps) {
                gathered.items = found
                planned = true
            }
            if planned {
                // The cache's files, but those of the folders listed again (the others hold
                // what they held): the rest of the store need not be listed.
                gathered.folders = plan.folders
                gathered.listing = .folders(plan.listed)
                gathered.listedFiles = plan.files
            }
        }
        if !planned {
            let index = cache.fileIndex()
            let read = try source.read(
                stamps: stamps,
                reusing: { file, stamp in
                    guard let k = cache.entry(file: file, stamp: stamp, in: index), let document = cache.document(of: k)
                    else { return nil }
                    return Item(document: document, origin: .cached(k))
                },
                transform: { document, stamp in
                    Item(document: DecodedDocument(document), origin: .read(file: document.source, stamp: stamp))
                })
            gathered.items = read.values
            gathered.folders = read.folders
        }
        if gathered.updated == nil {
            gathered.reused = gathered.items.count { if case .cached = $0.origin { true } else { false } }
            gathered.readCount = gathered.items.count - gathered.reused
        }
        return gathered
    }

    /// The kept snapshot brought up to date by its walk (`SnapshotCache.Walk`), without the
    /// document cache: when this walk saw the folders that walk saw, the files not as it saw
    /// them are found by their places in walk order, and each is read again and must be a
    /// tweet or a like, as in `update`. Nil when the snapshot kept no such walk, when as many
    /// files moved as make the document cache due, or when a file cannot update it (then
    /// the snapshot is not kept: the read derives one).
    private static func updateByWalk(_ context: Context) -> SnapshotUpdate? {
        guard let walk = context.walk, let folders = walk.folders else { return nil }
        var opened: SnapshotCache?
        if context.prefetch == nil {
            opened = SnapshotCache.open(path: context.snapshotPath, identity: context.identity)
        }
        guard let moved = context.prefetch?.moved ?? opened?.moved(since: walk.files, folders: folders),
            !CacheFile.isWorthRewriting(drift: moved.count, live: walk.files.count)
        else { return nil }
        // The files are read before the snapshot is taken: one that cannot update it leaves
        // it to `update`.
        guard let changes = Changes(reading: moved.map(walk.files.relativePath(at:)), from: context.source),
            changes.documents.allSatisfy({ $0.tweet != nil && $0.diagnostics.isEmpty }),
            let saved = context.prefetch?.takeSnapshot() ?? opened
        else { return nil }
        return changes.update(saved, read: moved.count)
    }

    /// What an update of the kept snapshot takes from the files read again: likes, and the
    /// other documents (which must be tweets whose content alone changed).
    private struct Changes {
        var documents: [DecodedDocument] = []
        var likes: [LikeChange] = []

        /// The documents of `files`; nil when one cannot be read.
        init?(reading files: [String], from source: any DocumentSource) {
            for file in files {
                guard let read = try? source.documents(inEntry: file) ?? nil else { return nil }
                for document in read.map(DecodedDocument.init) {
                    if let like = document.like, document.diagnostics.isEmpty {
                        likes.append(LikeChange(uid: like.uid, tweetID: like.tweetID, like: like))
                    } else {
                        documents.append(document)
                    }
                }
            }
        }

        /// `saved`'s snapshot with these changes (`read` files read for them), when it takes them.
        func update(_ saved: consuming SnapshotCache, read: Int) -> SnapshotUpdate? {
            let basis = saved.basis.digest
            // Updated in place: `saved` let go of it, nothing else holds it.
            guard var snapshot = saved.snapshot(),
                let (tweets, replaced) = snapshot.replaceContent(ofDocuments: documents), snapshot.replaceLikes(likes)
            else { return nil }
            return SnapshotUpdate(
                snapshot: snapshot, read: read, basis: basis,
                edits: CaptionEdits(tweets: tweets, oldCaptions: replaced.map(\.caption)), likesMoved: !likes.isEmpty)
        }
    }

    /// The kept snapshot updated by `update`, when it can be; the kept one (decoded) is let go
    /// here either way, before a read that decodes the files.
    private static func updateKept(
        _ context: Context, plan: FilePlan, cache: DocumentCache, known: FolderLayouts, stamps: StoreFileStamps.Index
    ) -> SnapshotUpdate? {
        let opened =
            if let prefetch = context.prefetch { prefetch.takeSnapshot() } else {
                SnapshotCache.open(path: context.snapshotPath, identity: context.identity)
            }
        guard let kept = consume opened else { return nil }
        return update(
            consume kept, context, plan.sources, gone: plan.gone, cache: cache, stamps: stamps,
            folders: plan.folders, relisted: known != plan.folders ? plan.files : 0)
    }

    /// Writes the document cache before deriving, so that the documents can be handed over to
    /// it; not at all while the work it saves the next build is small (see
    /// `CacheFile.isWorthRewriting`): files it lacks or holds in vain (read again), and, when
    /// folders moved (a file added or removed), the files of the folders that build would list
    /// again. So a like added lists its user's likes folder again at each rebuild, a few names,
    /// rather than have this one write the whole cache (1 GB at a million tweets); a tweet
    /// added, listing `tweets/`, does write it. A whole store listed is always worth it. An
    /// update is only made when the cache is not due (see `update`). True when written.
    private static func writeCacheIfWorthIt(
        _ gathered: inout Gathered, cache: DocumentCache?, singleFile stamp: FileStamp?, _ context: Context,
        phases: (BuildPhase) -> Void
    ) -> Bool {
        let isDirectory = context.isDirectory
        let (readCount, reused) = (gathered.readCount, gathered.reused)
        let foldersMoved = isDirectory && cache != nil && cache?.folders != gathered.folders
        let relisted = !foldersMoved ? 0 : gathered.listing == .whole ? readCount + reused : gathered.listedFiles
        let drift = cache.map { max(readCount, $0.count - reused, relisted) } ?? max(1, readCount)
        guard gathered.updated == nil, !gathered.writtenWhileRead,
            CacheFile.isWorthRewriting(drift: drift, live: readCount + reused)
        else { return false }
        defer { phases(.writeCache) }
        do throws(BuildError) {
            gathered.documentCache = try write(
                path: context.path, identity: context.identity, cache: cache, decoded: gathered.decoded,
                items: gathered.items, folders: gathered.folders,
                singleFile: stamp.flatMap { context.settled($0) ? $0 : nil }, settled: context.settled)
            return true
        } catch {
            gathered.problem = error.description
            gathered.documentCache = nil
            return false
        }
    }

    /// The last build's snapshot (`saved`) brought up to date with the store's files as they
    /// are now (`sources`, stamped by the walk; `gone`, the cache's entries no longer there),
    /// when nothing derived depends on what changed since but likes: each file not as the
    /// snapshot saw it is read again, and must be a tweet it has, with only content that
    /// derives nothing changed (`Snapshot.replacingContent`, as `roost serve` updates it), or
    /// a like (`Snapshot.replaceLikes`); a file gone must be a like. Files added or gone are
    /// only known against the snapshot's own files when it saw those of the document cache
    /// (or the same folders as now). Nil otherwise, or when the document cache is due to be
    /// written again (`relisted`: the files a rebuild lists again; see `init`): the store is
    /// then read and derived as without it. Returns how many files were read.
    ///
    /// When the kept snapshot's walk does not serve the folders as they are now (a like was
    /// added since, say), it is given this walk's, with the files read again seen as moved:
    /// the next rebuild that finds only tweets and likes moved updates it by that walk.
    private static func update(
        _ saved: consuming SnapshotCache, _ context: Context, _ sources: [Source], gone: [Int],
        cache: DocumentCache,
        stamps: StoreFileStamps.Index, folders: FolderLayouts, relisted: Int
    ) -> SnapshotUpdate? {
        guard saved.basis.documents == cache.checksum else { return nil }
        // The snapshot saw the folders as they are (so every file gone was gone then), or as
        // the cache has them (so the files gone since are the cache's that are gone now).
        let goneSince: [Int]
        if saved.basis.folders == folders.digest {
            goneSince = []
        } else if let known = cache.folders, saved.basis.folders == known.digest {
            goneSince = gone
        } else {
            return nil
        }
        let read = saved.basis.read
        // Each part on a core: how many files are not as the document cache has them, and
        // which are not as the snapshot saw them (nil: a file the walk did not stamp).
        let chunk = 4096
        typealias Part = (changed: Int, stale: [String], staleHashes: [UInt64])
        let parts = [Part?](parallelCount: (sources.count + chunk - 1) / chunk) { c in
            var part: Part = (0, [], [])
            for source in sources[(c * chunk)..<min(sources.count, (c + 1) * chunk)] {
                let hash = source.pathHash(in: cache)
                guard let stamp = stamps[pathHash: hash] else { return nil }
                let cached = source.entry.map { cache.stamp(of: $0) }
                if cached != stamp { part.changed += 1 }
                if (read.isEmpty ? cached : read[hash] ?? cached) != stamp {
                    part.stale.append(source.relative(in: cache))
                    part.staleHashes.append(hash)
                }
            }
            return part
        }
        var (changed, stale, staleHashes) = (0, [String](), Set<UInt64>())
        for part in parts {
            guard let part else { return nil }
            changed += part.changed
            stale += part.stale
            staleHashes.formUnion(part.staleHashes)
        }
        let drift = max(changed, cache.count - (sources.count - changed), relisted)
        guard !CacheFile.isWorthRewriting(drift: drift, live: sources.count) else { return nil }
        guard var changes = Changes(reading: stale, from: context.source) else { return nil }
        for k in goneSince {
            guard let like = cache.document(of: k)?.like else { return nil }
            changes.likes.append(LikeChange(uid: like.uid, tweetID: like.tweetID, like: nil))
        }
        // (A file gone since the snapshot is in no walk of the folders now: it keeps its own.)
        var walkWrite: (@Sendable () throws(BuildError) -> Void)?
        if goneSince.isEmpty, saved.walk?.folders != folders.digest, let walk = context.walk,
            let seen = context.seen, seen.folders == folders
        {
            let kept = SnapshotCache.Walk(
                folders: folders.digest, files: walk.files.seen(seen.files, untrusting: staleHashes))
            walkWrite = saved.writingWalk(kept, path: context.snapshotPath, identity: context.identity)
        }
        guard var update = changes.update(saved, read: stale.count) else { return nil }
        update.walkWrite = walkWrite.map(CacheWrite.init)
        return update
    }

    /// Which files a read through the cache takes (`plan(_:cache:known:walked:)`).
    private typealias FilePlan = (sources: [Source], folders: FolderLayouts, listed: Int, files: Int, gone: [Int])

    /// The last build's snapshot brought up to date (`update`).
    private struct SnapshotUpdate {
        let snapshot: Snapshot
        /// Files read for it.
        let read: Int
        let basis: UInt64
        let edits: CaptionEdits
        /// Likes were added or removed since the kept snapshot.
        let likesMoved: Bool
        /// The kept snapshot being written again with this read's walk (`update`).
        var walkWrite: CacheWrite?
    }

    /// Reads every entry of `source` (one document each) and writes the cache of them at
    /// `path` as it goes (`stamps`: the walk's, when it recorded them, as for an unusable
    /// cache). A cache that cannot be written is given up (`problem`), not the build.
    private static func writtenWhileRead(
        _ source: any DocumentSource, path: String, identity: StoreIdentity, stamps: StoreFileStamps.Index?,
        settled: @escaping @Sendable (FileStamp?) -> Bool
    ) throws(StoreError) -> (documents: [DecodedDocument], problem: String?, checksum: UInt64?, folders: FolderLayouts?)
    {
        let problem = Mutex<String?>(nil)
        let writer: DocumentCacheWriter?
        do throws(BuildError) {
            writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer)
        } catch {
            writer = nil
            problem.withLock { $0 = error.description }
        }
        let read: SourceRead<DecodedDocument>
        do throws(StoreError) {
            read = try source.read(
                stamps: stamps, reusing: { _, _ in nil },
                transform: { document, stamp in
                    let decoded = DecodedDocument(document)
                    if let writer {
                        do throws(BuildError) {
                            if settled(stamp) {
                                try writer.add(file: document.source, stamp: stamp!, documents: [decoded])
                            } else {
                                try writer.add(file: document.source, stamp: DocumentCache.unsettled, documents: [])
                            }
                        } catch {
                            writer.abandon()
                            problem.withLock { $0 = $0 ?? error.description }
                        }
                    }
                    return decoded
                })
        } catch {
            writer?.abandon()
            throw error
        }
        var checksum: UInt64?
        if let writer, problem.withLock({ $0 == nil }) {
            do throws(BuildError) {
                checksum = try writer.finish(folders: read.folders)
            } catch {
                problem.withLock { $0 = error.description }
            }
        }
        return (read.values, problem.withLock { $0 }, checksum, read.folders)
    }

    /// A file of the store, as a cached read finds it.
    private enum Source {
        /// The file of the cache's entry.
        case cached(Int)
        /// A file the cache has no entry for (relative to the store).
        case file(String)

        /// The cache's entry, if it has one.
        var entry: Int? {
            if case .cached(let k) = self { k } else { nil }
        }

        /// The file's path relative to the store.
        func relative(in cache: DocumentCache) -> String {
            switch self {
            case .cached(let k): cache.file(of: k)
            case .file(let relative): relative
            }
        }

        /// FNV-1a of that path (as `StoreFileStamps` knows files).
        func pathHash(in cache: DocumentCache) -> UInt64 {
            switch self {
            case .cached(let k): cache.pathHash(of: k)
            case .file(let relative): StableHash.fnv1a(relative)
            }
        }
    }

    /// Listing again up to this many folders that moved (or one in `relistedFolderShare` of
    /// the store's, if more) costs less than listing the whole store; past it, the whole is listed.
    private static let relistedFoldersAtLeast = 64
    private static let relistedFolderShare = 8

    /// The store's document files, from the cache's list (the cache's entries in the folders
    /// whose layout the walk saw as the cache recorded it) and the folders whose layout moved
    /// or that are new, listed again now (`DocumentSource.entries(inFolder:)`), with
    /// the layouts to record. The order does not matter: the snapshot does not depend on it.
    /// `files` counts the files in the folders listed, and each folder once; `gone`, the
    /// cache's entries no longer there.
    /// Nil when so many folders moved that listing the whole store costs less, or one of them
    /// cannot be listed as a read of the whole store would list it.
    private static func plan(
        _ source: any DocumentSource, cache: DocumentCache, known: FolderLayouts, walked: FolderLayouts
    ) -> FilePlan? {
        guard let (relist, dropped) = walked.changes(since: known) else { return nil }
        if relist.isEmpty && dropped.isEmpty { return ((0..<cache.count).map(Source.cached), known, 0, 0, []) }
        guard relist.count <= max(Self.relistedFoldersAtLeast, walked.folders.count / Self.relistedFolderShare)
        else { return nil }
        var sources: [Source] = []
        sources.reserveCapacity(cache.count + 64)
        /// The cache's entries in the folders listed again, by file (its name's bytes: two names
        /// in two Unicode forms are two files): taken when still there.
        var moved: [ExactText: Int] = [:]
        for (k, folder) in cache.folderHashes().enumerated() {
            if dropped.contains(folder) {
                moved[ExactText(cache.file(of: k))] = k
            } else {
                sources.append(.cached(k))
            }
        }
        var folders = known.folders.filter { !dropped.contains($0.pathHash) }
        var listedFiles = 0
        for folder in relist {
            guard let (files, listed) = try? source.entries(inFolder: folder) ?? nil else { return nil }
            folders.append(listed)
            listedFiles += files.count
            for file in files {
                if let k = moved.removeValue(forKey: ExactText(file)) {
                    sources.append(.cached(k))
                } else {
                    sources.append(.file(file))
                }
            }
        }
        guard let layouts = FolderLayouts(folders) else { return nil }
        return (sources, layouts, relist.count, listedFiles + relist.count, moved.values.sorted())
    }

    /// The documents of `sources`: each file whose stamp is the one the cache recorded taken
    /// from it, the others read. Nil when one is not there as a document file after all (the
    /// store changed since the walk), or cannot be read: the store is then read whole, which
    /// reports the first problem in path order, as a build without the cache does.
    private static func read(
        _ source: any DocumentSource, _ sources: [Source], cache: DocumentCache, stamps: StoreFileStamps.Index
    ) -> [Item]? {
        let chunk = 512
        let chunks = [[Item]?](parallelCount: (sources.count + chunk - 1) / chunk) { c in
            var items: [Item] = []
            items.reserveCapacity(chunk)
            for file in sources[(c * chunk)..<min(sources.count, (c + 1) * chunk)] {
                let relative = file.relative(in: cache)
                guard let stamp = stamps[pathHash: file.pathHash(in: cache)] ?? source.stamp(ofEntry: relative)
                else { return nil }
                if let k = file.entry, stamp == cache.stamp(of: k), let document = cache.document(of: k) {
                    items.append(Item(document: document, origin: .cached(k)))
                    continue
                }
                // One document an entry (`EntryLayout.documentPerEntry`): anything else is read whole.
                guard let read = try? source.documents(inEntry: relative) ?? nil, read.count == 1 else { return nil }
                items.append(Item(document: DecodedDocument(read[0]), origin: .read(file: relative, stamp: stamp)))
            }
            return items
        }
        var items: [Item] = []
        items.reserveCapacity(sources.count)
        for chunk in chunks {
            guard let chunk else { return nil }
            items.append(contentsOf: chunk)
        }
        return items
    }

    /// Writes the cache: the entries kept as they were stored, the files read now encoded
    /// (`items`; a file not settled yet with no documents and a stamp that matches nothing,
    /// so that the list of files stays whole for `folders`); for a single file (`singleFile`,
    /// its stamp when settled), all its documents (`decoded`).
    private static func write(
        path: String, identity: StoreIdentity, cache: DocumentCache?, decoded: [DecodedDocument], items: [Item],
        folders: FolderLayouts?, singleFile: FileStamp?, settled: (FileStamp?) -> Bool
    ) throws(BuildError) -> UInt64 {
        let writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer)
        do throws(BuildError) {
            if let singleFile { try writer.add(file: "", stamp: singleFile, documents: decoded) }
            for item in items {
                switch item.origin {
                case .cached(let k):
                    try writer.add(
                        file: cache!.file(of: k), stamp: cache!.stamp(of: k), encoded: cache!.encodedDocuments(of: k))
                case .read(let file, let stamp):
                    if let stamp, settled(stamp) {
                        try writer.add(file: file, stamp: stamp, documents: [item.document])
                    } else {
                        try writer.add(file: file, stamp: DocumentCache.unsettled, documents: [])
                    }
                }
            }
        } catch {
            writer.abandon()
            throw error
        }
        return try writer.finish(folders: folders)
    }
}
