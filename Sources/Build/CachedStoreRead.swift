import Model
import Site
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// Reading the store through the build cache (`DocumentCache`): the files whose stamp is
/// the one the cache recorded are taken from it, the others are read and decoded, and the
/// cache is written again for the next build when anything moved. The snapshot is the one
/// `Snapshot.read` makes: it does not depend on the order of the documents.
struct CachedStoreRead {
    let snapshot: Snapshot
    /// Store files (a single-file store is one) taken from the cache, and read.
    let reusedFiles: Int
    let readFiles: Int
    /// False when the store was read as the files the cache lists, without listing its folders.
    let listed: Bool
    /// Which store was read.
    let identity: StoreIdentity
    /// Why the cache could not be written, when it could not (the build goes on without it).
    let problem: String?

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

    /// `walk`: the store's files as the inputs' walk just saw them (not stat-ed again), the
    /// layout it saw, and when that walk started.
    init(
        store: String, cacheFolder: String, walk: (files: StoreFileStamps, layout: UInt64?, startedAt: Int64)?,
        phases: (String) -> Void
    ) throws(StoreError) {
        let isDirectory = DocumentStore.isDirectoryStore(store)
        let identity = StoreIdentity(store: store, isDirectory: isDirectory)
        self.identity = identity
        let path = DocumentCache.path(folder: cacheFolder, identity: identity)
        // Stamps are trusted by when they were taken: a walk's, by when it began.
        let readStart = walk?.startedAt ?? BuildInputs.now()
        let cache = DocumentCache.load(path: path, identity: identity, writer: CacheFile.writer)
        /// A single file's documents.
        var decoded: [DecodedDocument] = []
        /// A directory store's documents, each with the cache entry it came from or the file
        /// it was read from now (`decoded` and a parallel array of origins would hold both
        /// twice while one was made from the other: at 4.4 M documents, the read's peak).
        var items: [Item] = []
        // A file changed in the same clock tick as it was stamped might keep its stamp (git's
        // "racily clean" files): such files are cached without documents, under a stamp that
        // matches nothing, and read again next time.
        let settled = { (stamp: FileStamp?) in
            stamp.map { BuildInputs.isSettled(newest: $0.newest, at: readStart) } ?? false
        }
        let stamp = isDirectory ? nil : FileStamp.of(store)
        var layout: UInt64?
        var listed = true
        if isDirectory {
            try StoreShape.check(store)
            let stamps = walk?.files.index()
            if let cache, let stamps, let known = cache.layout, known == walk?.layout,
                let found = try Self.read(store, as: cache, stamps: stamps)
            {
                // The store holds the files the cache lists: it need not be listed again.
                items = found
                layout = known
                listed = false
            } else {
                let index = cache?.fileIndex()
                let read = try DirectoryStore.read(
                    root: store, stamps: stamps,
                    reusing: { file, stamp in
                        guard let cache, let index, let k = cache.entry(file: file, stamp: stamp, in: index),
                            let document = cache.document(of: k)
                        else { return nil }
                        return Item(document: document, origin: .cached(k))
                    },
                    transform: { document, stamp in
                        Item(document: DecodedDocument(document), origin: .read(file: document.source, stamp: stamp))
                    })
                items = read.values
                layout = read.layout
            }
            reusedFiles = items.count { if case .cached = $0.origin { true } else { false } }
            readFiles = items.count - reusedFiles
        } else if let stamp, let cache, cache.count == 1, cache.stamp(of: 0) == stamp,
            let documents = cache.documents(of: 0)
        {
            decoded = documents
            (reusedFiles, readFiles) = (1, 0)
        } else {
            decoded = try DecodedDocument.read(singleFile: store).1
            (reusedFiles, readFiles) = (0, 1)
        }
        self.listed = listed
        phases("read and decode store")

        // Written before deriving, so that the documents can be handed over to it; not at
        // all while the files it lacks or holds in vain are few (they are read again).
        var problem: String?
        let drift =
            cache.map { [readFiles, reusedFiles] in max(readFiles, $0.count - reusedFiles) } ?? max(1, readFiles)
        // A store whose layout moved (a file added or removed) is written again at once: until
        // the cache lists its files, every rebuild would list the whole store again.
        let layoutMoved = isDirectory && cache != nil && cache?.layout != layout
        if layoutMoved || CacheFile.isWorthRewriting(drift: drift, live: readFiles + reusedFiles) {
            do throws(BuildError) {
                try Self.write(
                    path: path, identity: identity, cache: cache, decoded: decoded, items: items, layout: layout,
                    singleFile: isDirectory ? nil : stamp.flatMap { settled($0) ? $0 : nil }, settled: settled)
            } catch {
                problem = error.description
            }
            phases("write cache")
        }
        self.problem = problem
        snapshot = isDirectory ? Snapshot(documentsOf: consume items, \.document) : Snapshot(decoded: consume decoded)
        phases("derive")
    }

    /// The store's documents when it holds exactly the files `cache` lists (its layout is the
    /// cache's), in the cache's order, which is the read's: each file whose stamp is the one
    /// recorded is taken from the cache, the others are read. Nil when a listed file turns out
    /// not to be there as a document file after all (the store changed since the walk): then
    /// the store is listed and read as usual.
    private static func read(
        _ store: String, as cache: DocumentCache, stamps: StoreFileStamps.Index
    ) throws(StoreError) -> [Item]? {
        enum Outcome {
            case item(Item)
            case failed(StoreError)
            case moved
        }
        let chunk = 512
        let chunks = [[Outcome]](parallelCount: (cache.count + chunk - 1) / chunk) { c in
            var outcomes: [Outcome] = []
            outcomes.reserveCapacity(chunk)
            for k in (c * chunk)..<min(cache.count, (c + 1) * chunk) {
                guard
                    let stamp = stamps[pathHash: cache.pathHash(of: k)]
                        ?? FileStamp.of(joinPath(store, cache.file(of: k)))
                else {
                    outcomes.append(.moved)
                    return outcomes
                }
                if stamp == cache.stamp(of: k), let document = cache.document(of: k) {
                    outcomes.append(.item(Item(document: document, origin: .cached(k))))
                    continue
                }
                let file = cache.file(of: k)
                do throws(StoreError) {
                    guard let document = try DirectoryStore.readDocument(file: file, root: store) else {
                        outcomes.append(.moved)
                        return outcomes
                    }
                    outcomes.append(
                        .item(Item(document: DecodedDocument(document), origin: .read(file: file, stamp: stamp))))
                } catch .notFound {
                    outcomes.append(.moved)
                    return outcomes
                } catch {
                    outcomes.append(.failed(error))
                }
            }
            return outcomes
        }
        var items: [Item] = []
        items.reserveCapacity(cache.count)
        var failure: StoreError?
        for outcomes in chunks {
            for outcome in outcomes {
                switch outcome {
                case .item(let item): items.append(item)
                case .failed(let error): failure = failure ?? error  // the first in path order
                case .moved: return nil
                }
            }
        }
        if let failure { throw failure }
        return items
    }

    /// Writes the cache: the entries kept as they were stored, the files read now encoded
    /// (`items`; a file not settled yet with no documents and a stamp that matches nothing,
    /// so that the list of files stays whole for `layout`); for a single file (`singleFile`,
    /// its stamp when settled), all its documents (`decoded`).
    private static func write(
        path: String, identity: StoreIdentity, cache: DocumentCache?, decoded: [DecodedDocument], items: [Item],
        layout: UInt64?, singleFile: FileStamp?, settled: (FileStamp?) -> Bool
    ) throws(BuildError) {
        let count = items.isEmpty ? (singleFile == nil ? 0 : 1) : items.count
        let writer = try DocumentCacheWriter(
            path: path, identity: identity, writer: CacheFile.writer, layout: layout, count: count)
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
        try writer.finish()
    }
}
