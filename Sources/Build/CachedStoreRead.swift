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

    /// `walk`: the store's files as the inputs' walk just saw them (not stat-ed again), and
    /// when that walk started.
    init(
        store: String, cacheFolder: String, walk: (files: StoreFileStamps, startedAt: Int64)?,
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
        // "racily clean" files): such files are left out of the cache and read again next time.
        let settled = { (stamp: FileStamp?) in
            stamp.map { BuildInputs.isSettled(newest: $0.newest, at: readStart) } ?? false
        }
        let stamp = isDirectory ? nil : FileStamp.of(store)
        if isDirectory {
            try StoreShape.check(store)
            items = try DirectoryStore.read(
                root: store, stamps: walk?.files.index(),
                reusing: { file, stamp in
                    guard let cache, let k = cache.entry(file: file, stamp: stamp),
                        let documents = cache.documents(of: k),
                        documents.count == 1
                    else { return nil }
                    return Item(document: documents[0], origin: .cached(k))
                },
                transform: { document, stamp in
                    Item(document: DecodedDocument(document), origin: .read(file: document.source, stamp: stamp))
                }
            ).values
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
        phases("read and decode store")

        // Written before deriving, so that the documents can be handed over to it; not at
        // all while the files it lacks or holds in vain are few (they are read again).
        var problem: String?
        let drift =
            cache.map { [readFiles, reusedFiles] in max(readFiles, $0.count - reusedFiles) } ?? max(1, readFiles)
        if CacheFile.isWorthRewriting(drift: drift, live: readFiles + reusedFiles) {
            do throws(BuildError) {
                try Self.write(
                    path: path, identity: identity, cache: cache, decoded: decoded, items: items,
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

    /// Writes the cache: the entries kept as they were stored, the settled files read now
    /// encoded (`items`); for a single file (`singleFile`, its stamp when settled), all its
    /// documents (`decoded`).
    private static func write(
        path: String, identity: StoreIdentity, cache: DocumentCache?, decoded: [DecodedDocument], items: [Item],
        singleFile: FileStamp?, settled: (FileStamp?) -> Bool
    ) throws(BuildError) {
        let count =
            items.isEmpty
            ? (singleFile == nil ? 0 : 1)
            : items.count {
                switch $0.origin {
                case .cached: true
                case .read(_, let stamp): settled(stamp)
                }
            }
        let writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer, count: count)
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
