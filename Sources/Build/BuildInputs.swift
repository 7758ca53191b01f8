import Model
import Site
import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// Everything a build's output is made from, as one token that the output's manifest keeps:
/// the store's file metadata (`StoreStamp`), the theme's bytes, the options and the Roost
/// binary. When the next build finds the same token and the output intact, it has nothing to
/// do and does not even read the store.
struct BuildInputs {
    /// Digest of all inputs.
    let digest: UInt64
    /// When the store was stamped, nanoseconds since 1970.
    let stampedAt: Int64
    /// The newest change time in the store.
    let newestChange: Int64
    /// Each store entry's stamp, for the build cache (`options.usesCache` and a source of one
    /// document an entry).
    let storeFiles: StoreFileStamps?
    /// The store's folders as the walk saw them (`FolderLayouts`), for the build cache.
    let storeFolders: FolderLayouts?
    /// What the walk saw of each store file (`StoreStamp.seen`), kept with a snapshot derived
    /// from them.
    let storeSeen: [UInt64]?
    /// The symbolic links in the store's folders (`StoreStamp.links`): warned of.
    let storeLinks: [String]
    /// The store's folder listings being written for the next build's walk, on another thread
    /// (`ListingCache`); nil when none is due.
    let listingWrite: CacheWrite?
    /// Folders the stamp walk listed, and those whose names it took from the last walk's
    /// listings; nil when it was given none to take from.
    let storeWalk: (listed: Int, taken: Int)?

    /// How long before the stamp the newest store file must be for the stamp to be trusted.
    static let racyWindow: Int64 = 1_000_000_000

    /// True when a file last changed at `newest` can be trusted to keep its stamp until it
    /// changes again, seen at `time` (both nanoseconds since 1970): see `token`.
    static func isSettled(newest: Int64, at time: Int64) -> Bool { newest < time - racyWindow }

    /// Which Roost binary runs: another version, or this one rebuilt, may read, decode and
    /// render differently. Part of the inputs token and of every build cache file's header.
    static let binary: String = {
        var text = "roost \(RoostVersion.current)"
        var exe = stat()
        if stat("/proc/self/exe", &exe) == 0 {
            text += " binary \(exe.st_size) \(exe.st_mtim.tv_sec).\(exe.st_mtim.tv_nsec) \(exe.st_ino)"
        }
        return text
    }()

    /// The last walk's listings of `source`'s folders (`ListingCache`), read on another thread
    /// from now (a build reads its theme meanwhile); nil when the walk takes none.
    static func knownListings(_ options: BuildOptions, source: any DocumentSource) -> Background<FolderListings?>? {
        guard let path = listingPath(options, source: source) else { return nil }
        let identity = StoreIdentity(source)
        return Background { ListingCache.load(path: path, identity: identity) }
    }

    /// Where the listing cache of `source` is, when its walk takes one: a folder not moved
    /// since the last walk is not listed again.
    private static func listingPath(_ options: BuildOptions, source: any DocumentSource) -> String? {
        guard cachesFiles(options, source: source) else { return nil }
        return ListingCache.path(folder: options.media.cache, identity: StoreIdentity(source))
    }

    /// Whether the build cache keeps `source` file by file (its document cache, its walk's
    /// listings, the cache files a rebuild reads ahead): a store of one document a file, read
    /// through the cache.
    static func cachesFiles(_ options: BuildOptions, source: any DocumentSource) -> Bool {
        options.usesCache && source.layout == .documentPerEntry
    }

    /// - Parameter listings: `knownListings(options, source:)`, if started already.
    init(
        _ options: BuildOptions, source: any DocumentSource, theme: Theme,
        listings: Background<FolderListings?>? = nil, clock: BuildClock = .system
    ) throws {
        stampedAt = clock.now()
        try source.checkShape()  // before walking a folder that is no store
        // The cached read takes each file's stamp from this walk. A first build (no cache yet)
        // reads every file anyway: it does not hold them (40 bytes a file, at its peak).
        let cached = Self.cachesFiles(options, source: source)
        let identity = StoreIdentity(source)
        let cacheFolder = options.media.cache
        let recording =
            cached
            && (access(DocumentCache.path(folder: cacheFolder, identity: identity), F_OK) == 0
                || access(SnapshotCache.path(folder: cacheFolder, identity: identity), F_OK) == 0)
        let listingPath = Self.listingPath(options, source: source)
        let known: FolderListings? =
            if let listings { listings.value } else {
                listingPath.flatMap { ListingCache.load(path: $0, identity: identity) }
            }
        let stamp =
            listingPath == nil
            ? try source.stamp(recording: recording)
            : try source.stamp(recording: recording, listings: (known, stampedAt - Self.racyWindow))
        if let listingPath, ListingCache.isWorthWriting(stamp, over: known) {
            listingWrite = CacheWrite { () throws(BuildError) in
                guard let listings = stamp.listings else { return }
                try ListingCache.write(path: listingPath, identity: identity, listings: listings)
            }
        } else {
            listingWrite = nil
        }
        storeWalk = listingPath == nil ? nil : (stamp.foldersListed, stamp.foldersTaken)
        newestChange = stamp.newest
        storeFiles = stamp.files
        storeFolders = stamp.folders
        storeSeen = stamp.seen
        storeLinks = stamp.links

        var h = StableHasher()
        h.combine(Self.binary)
        h.combine(options.store)
        h.combine(Int(truncatingIfNeeded: stamp.digest))
        h.combine(theme.origin)
        h.combine(theme.fingerprint)  // holds Roost's version
        h.combine(options.config.baseURL)
        h.combine(options.config.pageSize)
        h.combine(options.config.viewer)
        h.combine(options.config.title)
        h.combine(options.config.description)
        h.combine(options.config.language)
        h.combine(options.config.media.rawValue)
        if options.config.media == .mirror {
            h.combine(options.media.cache)
            h.combine(options.media.offline)
            h.combine(options.media.allow.map(\.description).joined(separator: " "))
        }
        h.combine(options.strict)
        h.combine(options.shard?.description)
        digest = UInt64(bitPattern: Int64(h.finalize()))
    }

    /// What the manifest keeps: the digest, when the store is settled; nil when it is not.
    ///
    /// Settled: every store file's times are over `racyWindow` before the stamp. Then any later
    /// change to a file moves its times (or its inode) away from the old ones and so changes
    /// the digest; a file changed within the same clock tick as the stamp was taken might
    /// not (git's "racily clean" files), and file systems on other machines stamp with their
    /// own clocks. The token holds no time, so the manifest stays the same from build to build.
    var token: String? {
        guard Self.isSettled(newest: newestChange, at: stampedAt) else { return nil }
        return StableHash.hex(digest)
    }

    /// True when `previous` (the token an earlier build recorded) was made from these same inputs.
    func match(previous: String?) -> Bool {
        guard let previous, let digest = UInt64(previous, radix: 16) else { return false }
        return digest == self.digest
    }
}
