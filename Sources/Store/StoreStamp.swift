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
    /// Every regular file's stamp, when the walk was asked to record them (`recordingFiles`).
    package let files: StoreFileStamps?
    /// Every folder's layout (names and kinds), when the walk was asked to record files;
    /// nil for a single-file store, or when two folders' paths share a hash.
    package let folders: FolderLayouts?

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
    /// (`files`), so that a read after it need not stat every file a second time.
    package static func of(_ path: String, recordingFiles: Bool = false) throws(StoreError) -> StoreStamp {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: errnoText(code))
        }
        var total = Tally(recording: recordingFiles)
        total.add(name: "", st)
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return total.stamp(files: nil, folders: nil) }

        // The root's entries and the collections' listings on this thread; then, on all cores,
        // the collections' entries in chunks (`tweets/` may hold a million files) and each
        // folder below them (a user's subcollections, say) as a subtree.
        var collections: [String] = []
        try walk(path, relative: "", into: &total, subfolders: &collections)
        var units: [Unit] = []
        var collectionFDs: [Int32] = []  // the collections' folders, shared by their chunks (fstatat is thread-safe)
        defer { for fd in collectionFDs { close(fd) } }
        for collection in collections {
            let full = joinPath(path, collection)
            let folder = try openFolder(full, relative: collection)
            let names = try list(folder.raw, full: full)
            total.record(folder: collection, names)
            let fd = folder.release()
            collectionFDs.append(fd)
            for lo in stride(from: 0, to: names.count, by: 2048) {
                units.append(.entries(fd: fd, folder: collection, names: names[lo..<min(names.count, lo + 2048)]))
            }
            for (name, kind) in names where kind == .directory { units.append(.subtree(collection + "/" + name)) }
        }
        let work = units
        let tallies = [Tally](parallelCount: work.count) { k in
            var tally = Tally(recording: recordingFiles)
            do throws(StoreError) {
                switch work[k] {
                case .entries(let fd, let folder, let names):
                    addEntries(names.lazy.map(\.name), in: fd, relative: folder, into: &tally)
                case .subtree(let folder):
                    var stack = [folder]
                    while let next = stack.popLast() {
                        try walk(joinPath(path, next), relative: next, into: &tally, subfolders: &stack)
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
        guard recordingFiles else { return total.stamp(files: nil, folders: nil) }
        return total.stamp(
            files: StoreFileStamps(chunks: [total.recorded] + tallies.map(\.recorded)),
            folders: FolderLayouts(([total.folders] + tallies.map(\.folders)).flatMap { $0 }))
    }

    private enum Unit {
        /// Some entries of one open folder, by name.
        case entries(fd: Int32, folder: String, names: ArraySlice<(name: String, kind: FileKind)>)
        /// Everything below a folder (its own entry is counted by its parent's unit).
        case subtree(String)
    }

    /// Adds every entry of the folder `full` (at `relative` in the store) to `tally`;
    /// appends its subfolders' relative paths.
    private static func walk(
        _ full: String, relative: String, into tally: inout Tally,
        subfolders: inout [String]
    ) throws(StoreError) {
        let folder = try openFolder(full, relative: relative)
        let names = try list(folder.raw, full: full)
        tally.record(folder: relative, names)
        addEntries(names.lazy.map(\.name), in: folder.raw, relative: relative, into: &tally)
        for (name, kind) in names where kind == .directory {
            subfolders.append(relative.isEmpty ? name : relative + "/" + name)
        }
    }

    /// The folder `full` (at `relative` in the store), open; below the root, not through a link.
    private static func openFolder(_ full: String, relative: String) throws(StoreError) -> FileDescriptor {
        guard
            let folder = FileDescriptor(
                open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (relative.isEmpty ? 0 : O_NOFOLLOW)))
        else {
            throw .unreadable(path: full, reason: errnoText())
        }
        return folder
    }

    /// The names in the open folder `fd` (at `full`; dot-names left out), and what each is
    /// (see `DirectoryEntry.kind`).
    private static func list(_ fd: Int32, full: String) throws(StoreError) -> [(name: String, kind: FileKind)] {
        var names: [(name: String, kind: FileKind)] = []
        let failure = DirectoryListing.forEach(in: fd, dotNames: false) { entry in
            names.append((entry.name, entry.kind))
        }
        if failure != 0 { throw .unreadable(path: full, reason: errnoText(failure)) }
        return names
    }

    /// Adds the entries `names` of the open folder `fd` (at `relative`) to `tally`; names are
    /// hashed as bytes, continuing from the folder's path.
    private static func addEntries(
        _ names: some Sequence<String>, in fd: Int32, relative: String,
        into tally: inout Tally
    ) {
        let prefixHash = StoreLayout.prefixHash(ofFolder: relative)
        for name in names {
            var st = stat()
            // Gone since it was listed: leave it out; the reader will not see it either.
            guard fstatat(fd, name, &st, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else { continue }
            let pathHash = StableHash.fnv1a(name, offset: prefixHash)
            tally.add(nameHash: pathHash, st)
            if tally.isRecording && (st.st_mode & S_IFMT) == S_IFREG {
                tally.recorded.append((pathHash, FileStamp(st)))
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
        /// With `isRecording`: each regular file's path hash and stamp.
        var recorded: [StoreFileStamps.Recorded] = []
        /// With `isRecording`: each folder listed, with its layout.
        var folders: [FolderLayouts.Folder] = []

        /// Records the layout of the folder at `relative`, listed as `names`.
        mutating func record(folder relative: String, _ names: [(name: String, kind: FileKind)]) {
            guard isRecording else { return }
            var layout = StoreLayout(folder: relative)
            for (name, kind) in names { layout.add(name, kind: kind) }
            folders.append(layout.folder(relative: relative))
        }

        init(recording: Bool) { isRecording = recording }

        mutating func add(name: String, _ st: stat) {
            add(nameHash: StableHash.fnv1a(name), st)
        }

        /// `nameHash`: FNV-1a of the entry's path relative to the store.
        mutating func add(nameHash: UInt64, _ st: stat) {
            let file = FileStamp(st)
            let mix = UnorderedDigest.mix
            var h = mix(nameHash ^ UInt64(bitPattern: file.size))
            h = mix(h ^ UInt64(bitPattern: file.modified))
            h = mix(h ^ UInt64(bitPattern: file.changed))
            h = mix(h ^ file.inode)
            h = mix(h ^ UInt64(truncatingIfNeeded: st.st_mode))
            digest.add(h)
            newest = max(newest, file.newest)
        }

        mutating func merge(_ other: Tally) {
            digest.merge(other.digest)
            newest = max(newest, other.newest)
        }

        func stamp(files: StoreFileStamps?, folders: FolderLayouts?) -> StoreStamp {
            StoreStamp(
                digest: digest.value, newest: newest, entries: digest.count, files: files, folders: folders)
        }
    }
}
