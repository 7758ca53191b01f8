import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a store looks like from its file metadata alone, without reading any file: a digest
/// of every name, size, modification and change time and inode, and the newest of those
/// times. Equal stamps mean the store's files were not touched, as far as the kernel can
/// tell (the check `make` and git's index rely on); a build uses it to skip work when
/// nothing changed.
///
/// A file changed within the same clock tick as the stamp was taken may keep its times, so
/// callers should trust a stamp only when `newest` is safely before the time it was taken
/// (git's "racily clean" rule).
package struct StoreStamp: Equatable, Sendable {
    /// Order-independent digest of every entry (names starting with `.` are skipped, as the
    /// readers skip them).
    package let digest: UInt64
    /// The newest modification or change time of any entry, in nanoseconds since 1970.
    package let newest: Int64
    /// Entries seen: files and folders.
    package let entries: Int
    /// The symbolic links in the store's folders, by their paths in the store, sorted: the
    /// readers do not follow them, so what they point to is not read (a build warns of them).
    package internal(set) var links: [String] = []
    /// Every regular file's stamp, when the walk was asked to record them (`recordingFiles`).
    package let files: StoreFileStamps?
    /// Every folder's layout (names and kinds), when the walk was asked to record files or
    /// keep listings; nil for a single-file store, or when two folders' paths share a hash.
    package let folders: FolderLayouts?
    /// With listings kept (`of`'s `listings`): each regular file in walk order (the order of
    /// `files`), its path hash and stamp as one number (`StoreFileStamps.moved(since:)`), its
    /// stamp `StoreFileStamps.untrusted` when it changed after `settledBefore`. What a build
    /// that derives its snapshot from these files keeps of them, 8 bytes a file.
    package internal(set) var seen: [UInt64]?
    /// The folders walked whose listings a next walk may take (`of`'s `listings`); nil when
    /// the walk was not asked to keep them. Made when asked for (a rebuild seldom writes them:
    /// some thousands of folders put in a dictionary after the walk, on one core, for nothing).
    package var listings: FolderListings? {
        keptListings.map { parts in
            var listings: [String: FolderListings.Listing] = [:]
            listings.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts {
                for (relative, listing) in part { listings[relative] = listing }
            }
            return FolderListings(listings)
        }
    }
    /// Whether the walk was asked to keep listings (`listings` is not nil).
    package var keepsListings: Bool { keptListings != nil }
    /// `listings` as each part of the walk kept them.
    var keptListings: [[(relative: String, listing: FolderListings.Listing)]]?
    /// Folders the walk listed, and those whose names it took from the known listings.
    package internal(set) var foldersListed = 0
    package internal(set) var foldersTaken = 0
    /// The weight (`FolderListings.weight`) of `listings`, and of those of its folders whose
    /// names were taken from the known listings (which hold them as they are).
    package internal(set) var listingWeights = (kept: 0, taken: 0)

    /// A source's stamp made from its own digest of its entries (nothing recorded).
    package init(digest: UInt64, newest: Int64, entries: Int) {
        self.init(digest: digest, newest: newest, entries: entries, files: nil, folders: nil)
    }

    init(digest: UInt64, newest: Int64, entries: Int, files: StoreFileStamps?, folders: FolderLayouts?) {
        self.digest = digest
        self.newest = newest
        self.entries = entries
        self.files = files
        self.folders = folders
    }

    /// Equal when the digests, newest times and entry counts are (the recorded files follow).
    package static func == (a: StoreStamp, b: StoreStamp) -> Bool {
        a.digest == b.digest && a.newest == b.newest && a.entries == b.entries
    }

    /// The stamp of the store at `path`: a folder (walked in parallel, links not followed)
    /// or a single file. With `recordingFiles`, it also keeps each regular file's own stamp
    /// (`files`), so that a read after it need not stat every file a second time. With
    /// `listings`, a folder whose stamp has not moved since `known` saw it is not listed again
    /// (its names are taken from there), and the stamp holds the listings of this walk's
    /// folders that changed last before `settledBefore`, for the next walk.
    package static func of(
        _ path: String, recordingFiles: Bool = false,
        listings: (known: FolderListings?, settledBefore: Int64)? = nil
    ) throws(StoreError) -> StoreStamp {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: errnoText(code))
        }
        let reuse = listings.map { Reuse(known: $0.known, settledBefore: $0.settledBefore) }
        var total = Tally(recording: recordingFiles, reuse: reuse)
        let keepsSeen = reuse != nil
        total.add(name: "", st)
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return total.stamp(files: nil, folders: nil, tallies: []) }

        // The root's entries and the collections' listings on this thread; then, on all cores,
        // the collections' entries in chunks (`tweets/` may hold a million files) and each
        // folder below them (a user's subcollections, say) as a subtree. Each folder is opened
        // from its parent's (a path walk of one name), and counted from its own `fstat`, not
        // by a `fstatat` from its parent's listing as the files are.
        let root = try openRoot(path)
        let rootListed = try total.names(of: root.raw, stamp: st, full: path, relative: "")
        let rootNames = rootListed.names
        addEntries(rootListed, 0..<rootNames.count, in: root.raw, relative: "", into: &total)
        var units: [Unit] = []
        var subtrees: [Subtree] = []
        var collectionFDs: [Int32] = []  // the collections' folders, shared by their units (fstatat is thread-safe)
        defer { for fd in collectionFDs { close(fd) } }
        try forEachFolder(of: rootNames) { cName, collection throws(StoreError) in
            let full = joinPath(path, collection)
            let folder = try openFolder(full, cName, in: root.raw)
            let listed = try total.names(of: folder.raw, counting: collection, full: full)
            let names = listed.names
            let fd = folder.release()
            collectionFDs.append(fd)
            for lo in stride(from: 0, to: names.count, by: 2048) {
                units.append(.entries(fd: fd, folder: collection, listed: listed, lo..<min(names.count, lo + 2048)))
            }
            names.forEach(in: 0..<names.count) { k, _, _, kind in
                if kind == .directory { subtrees.append(Subtree(parent: fd, name: names.name(k), in: collection)) }
            }
        }
        // Folders below the collections (a user's, say) go by the batch: one each made as many
        // tallies, each with lists of its own, as the store has users.
        for lo in stride(from: 0, to: subtrees.count, by: Self.subtreeBatch) {
            units.append(.subtrees(subtrees[lo..<min(subtrees.count, lo + Self.subtreeBatch)]))
        }
        let work = units
        let tallies = [Tally](parallelCount: work.count) { k in
            var tally = Tally(recording: recordingFiles, reuse: reuse)
            do throws(StoreError) {
                switch work[k] {
                case .entries(let fd, let folder, let listed, let range):
                    addEntries(listed, range, in: fd, relative: folder, into: &tally)
                case .subtrees(let folders):
                    for folder in folders {
                        let full = joinPath(path, folder.relative)
                        let opened = try openFolder(full, folder.name, in: folder.parent)
                        try walk(opened, full: full, relative: folder.relative, into: &tally)
                    }
                }
            } catch {
                tally.failure = error
            }
            return tally
        }
        for tally in tallies {
            if let failure = tally.failure { throw failure }
            total.merge(tally)
        }
        guard recordingFiles || keepsSeen else { return total.stamp(files: nil, folders: nil, tallies: tallies) }
        var stamp = total.stamp(
            files: recordingFiles ? StoreFileStamps(chunks: [total.files] + tallies.map(\.files)) : nil,
            folders: FolderLayouts(([total.folders] + tallies.map(\.folders)).flatMap { $0 }), tallies: tallies)
        if keepsSeen { stamp.seen = ([total.seen] + tallies.map(\.seen)).flatMap { $0 } }
        return stamp
    }

    private enum Unit {
        /// Some entries of one open folder, by their indices in its names.
        case entries(fd: Int32, folder: String, listed: Listed, Range<Int>)
        /// Some folders and everything below them.
        case subtrees(ArraySlice<Subtree>)
    }

    /// A folder below a collection: its name in its parent (open) and its path in the store.
    private struct Subtree {
        let parent: Int32
        let name: String
        let relative: String

        init(parent: Int32, name: String, in folder: String) {
            self.parent = parent
            self.name = name
            relative = folder + "/" + name
        }
    }

    /// Folders below the collections walked by one unit.
    private static let subtreeBatch = 32

    /// Where a walk takes folders' names from, and which it keeps (`of`'s `listings`).
    private struct Reuse {
        let known: FolderListings?
        let settledBefore: Int64
    }

    /// Adds the open folder `folder` (`full`, at `relative` in the store) and everything below
    /// it to `tally`; its subfolders are opened from it.
    private static func walk(
        _ folder: borrowing FileDescriptor, full: String, relative: String, into tally: inout Tally
    ) throws(StoreError) {
        let listed = try tally.names(of: folder.raw, counting: relative, full: full)
        let names = listed.names
        addEntries(listed, 0..<names.count, in: folder.raw, relative: relative, into: &tally)
        try forEachFolder(of: names) { cName, name throws(StoreError) in
            let path = joinPath(full, name)
            try walk(
                try openFolder(path, cName, in: folder.raw), full: path, relative: relative + "/" + name, into: &tally)
        }
    }

    /// Calls `body` with each folder of `names` (its name as a C string and as text), until
    /// one call throws.
    private static func forEachFolder(
        of names: FolderNames, _ body: (UnsafePointer<CChar>, String) throws(StoreError) -> Void
    ) throws(StoreError) {
        var failure: StoreError?
        names.forEach(in: 0..<names.count) { k, cName, _, kind in
            guard kind == .directory, failure == nil else { return }
            do throws(StoreError) { try body(cName, names.name(k)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The store's root folder at `path`, open.
    private static func openRoot(_ path: String) throws(StoreError) -> FileDescriptor {
        guard let folder = FileDescriptor(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            throw .unreadable(path: path, reason: errnoText())
        }
        return folder
    }

    /// The folder `full`, by its name `cName` in its parent `parentFD` (open), not through a link.
    private static func openFolder(_ full: String, _ cName: UnsafePointer<CChar>, in parentFD: Int32)
        throws(StoreError) -> FileDescriptor
    {
        guard let folder = FileDescriptor(openat(parentFD, cName, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW))
        else {
            throw .unreadable(path: full, reason: errnoText())
        }
        return folder
    }

    /// The names in the open folder `fd` (at `full`; dot-names left out), and what each is
    /// (see `DirectoryEntry.kind`). A name that is not UTF-8 is kept as its text has it (with
    /// U+FFFD), as the readers see it.
    private static func list(_ fd: Int32, full: String) throws(StoreError) -> FolderNames {
        var names = FolderNames()
        let failure = DirectoryListing.forEach(in: fd, dotNames: false) { entry in
            let bytes = entry.nameBytes
            if bytes.allSatisfy({ $0 < 0x80 }) || entry.validName != nil {
                names.append(bytes, kind: entry.kind)
            } else {
                var text = entry.name
                text.withUTF8 { names.append(UnsafeRawBufferPointer($0), kind: entry.kind) }
            }
        }
        if failure != 0 { throw .unreadable(path: full, reason: errnoText(failure)) }
        return names
    }

    /// A folder's names, and each entry's path hash when its layout was made
    /// (`Tally.names(of:stamp:full:relative:)`).
    private struct Listed {
        let names: FolderNames
        let pathHashes: [UInt64]?
    }

    /// Adds the entries `range` of `listed`, in the open folder `fd` (at `relative`), to
    /// `tally`; names are hashed as bytes, continuing from the folder's path, unless hashed already.
    private static func addEntries(
        _ listed: Listed, _ range: Range<Int>, in fd: Int32, relative: String, into tally: inout Tally
    ) {
        let (names, pathHashes) = (listed.names, listed.pathHashes)
        let prefixHash = StoreLayout.prefixHash(ofFolder: relative)
        let folder = tally.isRecording ? tally.files.add(folder: relative, names: names) : 0
        names.forEach(in: range) { k, cName, bytes, kind in
            // (A folder is counted when it is walked, from its own `fstat`.)
            guard kind != .directory else { return }
            var st = stat()
            // Gone since it was listed: leave it out; the reader will not see it either.
            guard fstatat(fd, cName, &st, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else { return }
            let pathHash = pathHashes?[k] ?? StableHash.fnv1a(bytes, offset: prefixHash)
            let stamp = FileStamp(st)
            let mixed = tally.add(nameHash: pathHash, stamp, mode: st.st_mode)
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                if (st.st_mode & S_IFMT) == S_IFLNK {
                    let name = String(decoding: bytes, as: UTF8.self)
                    tally.links.append(relative.isEmpty ? name : relative + "/" + name)
                }
                return
            }
            if tally.isRecording { tally.files.append(pathHash, stamp, folder: folder, name: k) }
            if let reuse = tally.reuse {
                tally.seen.append(
                    stamp.newest < reuse.settledBefore
                        ? mixed : StoreFileStamps.mix(pathHash, StoreFileStamps.untrusted))
            }
        }
    }

    /// Running sums of entry hashes: addition and xor commute, so the walk order (which
    /// differs between runs on several threads) does not matter.
    private struct Tally {
        var digest = UnorderedDigest()
        var newest: Int64 = 0
        var failure: StoreError?
        let isRecording: Bool
        /// With `isRecording`: each regular file's path hash and stamp, and where it is.
        var files = StoreFileStamps.Chunk()
        /// With a `Reuse`: each regular file as `StoreStamp.seen` has it.
        var seen: [UInt64] = []
        /// With `isRecording`: each folder listed, with its layout.
        var folders: [FolderLayouts.Folder] = []
        /// The symbolic links seen (`StoreStamp.links`).
        var links: [String] = []

        /// With a `Reuse`: where folders' names come from, and the folders this walk keeps.
        let reuse: Reuse?
        var kept: [(relative: String, listing: FolderListings.Listing)] = []
        /// Folders listed, and those whose names were taken from the known listings.
        var listed = 0
        var taken = 0
        /// The weight of the listings kept, and of those of them taken.
        var keptWeight = 0
        var keptTakenWeight = 0

        init(recording: Bool, reuse: Reuse?) {
            isRecording = recording
            self.reuse = reuse
        }

        /// The names in the open folder `fd` (at `full`, and `relative` in the store), which is
        /// counted as an entry of its parent (its own `fstat`).
        mutating func names(of fd: Int32, counting relative: String, full: String) throws(StoreError) -> Listed {
            var st = stat()
            guard fstat(fd, &st) == 0 else { throw .unreadable(path: full, reason: errnoText()) }
            add(name: relative, st)
            return try names(of: fd, stamp: st, full: full, relative: relative)
        }

        /// The names in the open folder `fd` (stamped `st`; at `full`, and `relative` in the
        /// store): those the known listings hold for it when its stamp has not moved, else
        /// listed. Records its layout (when recording) and keeps its listing when it has settled.
        mutating func names(of fd: Int32, stamp st: stat, full: String, relative: String) throws(StoreError)
            -> Listed
        {
            var names: FolderNames
            if let reuse {
                let stamp = FileStamp(st)
                let wasTaken: Bool
                if let known = reuse.known?.folders[relative], known.stamp == stamp {
                    names = known.names
                    taken += 1
                    wasTaken = true
                } else {
                    names = try list(fd, full: full)
                    listed += 1
                    wasTaken = false
                }
                if stamp.newest < reuse.settledBefore {
                    kept.append((relative, FolderListings.Listing(stamp: stamp, names: names)))
                    keptWeight += names.count + 1
                    if wasTaken { keptTakenWeight += names.count + 1 }
                }
            } else {
                names = try list(fd, full: full)
                listed += 1
            }
            guard isRecording || reuse != nil else { return Listed(names: names, pathHashes: nil) }
            // Each entry's path hash, made once: for the layout, and for the entry's own stamp.
            var layout = StoreLayout(folder: relative)
            var pathHashes: [UInt64] = []
            pathHashes.reserveCapacity(names.count)
            names.forEach(in: 0..<names.count) { _, _, bytes, kind in
                pathHashes.append(layout.add(bytes: bytes, kind: kind))
            }
            // (A walk that only keeps what it saw needs no folder's path: only their digest.)
            folders.append(layout.folder(relative: isRecording ? relative : nil))
            return Listed(names: names, pathHashes: pathHashes)
        }

        mutating func add(name: String, _ st: stat) {
            add(nameHash: StableHash.fnv1a(name), st)
        }

        /// `nameHash`: FNV-1a of the entry's path relative to the store.
        mutating func add(nameHash: UInt64, _ st: stat) {
            add(nameHash: nameHash, FileStamp(st), mode: st.st_mode)
        }

        /// Returns the path hash and stamp mixed (`StoreFileStamps.mix`), which the entry's
        /// part of the digest continues from.
        @discardableResult
        mutating func add(nameHash: UInt64, _ file: FileStamp, mode: mode_t) -> UInt64 {
            let mixed = StoreFileStamps.mix(nameHash, file)
            digest.add(UnorderedDigest.mix(mixed ^ UInt64(truncatingIfNeeded: mode)))
            newest = max(newest, file.newest)
            return mixed
        }

        mutating func merge(_ other: Tally) {
            digest.merge(other.digest)
            newest = max(newest, other.newest)
            listed += other.listed
            taken += other.taken
            keptWeight += other.keptWeight
            keptTakenWeight += other.keptTakenWeight
            links += other.links
        }

        /// The stamp, with the listings this tally and `others` (merged into it) kept.
        func stamp(files: StoreFileStamps?, folders: FolderLayouts?, tallies others: [Tally]) -> StoreStamp {
            var stamp = StoreStamp(
                digest: digest.value, newest: newest, entries: digest.count, files: files, folders: folders)
            stamp.foldersListed = listed
            stamp.links = links.sorted(by: codePointOrder)
            if reuse != nil {
                stamp.keptListings = [kept] + others.map(\.kept)
                stamp.foldersTaken = taken
                stamp.listingWeights = (keptWeight, keptTakenWeight)
            }
            return stamp
        }
    }
}
