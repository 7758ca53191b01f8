import Dispatch
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum WriteOutcome: Equatable, Sendable {
    /// New or changed: staged, and moved into place by `commit()`.
    case written
    /// Same hash and size as the last build wrote, and still on disk with that size: not touched.
    case unchanged
}

public struct WriteSummary: Equatable, Sendable, CustomStringConvertible {
    public var written = 0
    public var unchanged = 0
    public var removed = 0
    public var bytesWritten = 0
    public init(written: Int = 0, unchanged: Int = 0, removed: Int = 0, bytesWritten: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.bytesWritten = bytesWritten
    }

    /// For example "wrote 12 files (34,567 bytes), 3,988 unchanged, removed 2".
    public var description: String {
        func grouped(_ n: Int) -> String {
            var digits = Array(String(n))
            var out = ""
            while digits.count > 3 {
                out = "," + String(digits.suffix(3)) + out
                digits.removeLast(3)
            }
            return String(digits) + out
        }
        let files = written == 1 ? "file" : "files"
        return
            "wrote \(grouped(written)) \(files) (\(grouped(bytesWritten)) bytes), \(grouped(unchanged)) unchanged, removed \(grouped(removed))"
    }
}

/// Writes a site into an output folder: only changed files, all-or-nothing, under a lock.
///
/// - `write` (thread-safe) stages new or changed files in `.roost-staging-<pid>/` inside the
///   output folder, at their own paths; nothing visible changes until `commit()`.
/// - `commit()` renames the staged files into place (a whole folder at once where the output
///   has no folder of that name yet, as in a first build), removes files the previous build wrote
///   (per `.roost-manifest`) that this build did not produce, and writes the new manifest.
/// - `abandon()` (or deinit without commit) removes the staging folder and changes nothing else.
///
/// Symlinks: the output folder itself may be a symlink. Inside it, before moving a file into
/// place or removing a stale one, every parent folder of the path is checked with `lstat` and
/// the operation is refused if one is a symbolic link; the final component is replaced by
/// `rename(2)`, which never follows it. (A symlink swapped in between check and rename by a
/// concurrent process is not defended against.) Durability: files are complete before they are
/// renamed, so a killed build leaves whole files; nothing is fsynced, so a power loss may not.
/// `commit()`/`abandon()` must not run concurrently with `write`.
public final class SiteWriter: Sendable {
    public let outputDirectory: String
    /// The folder as shown in messages, with a trailing "/".
    public let displayName: String
    let dirFD: Int32
    let lockFD: Int32
    let stagingFD: Int32
    let stagingName: String
    let previous: [String: ManifestEntry]
    /// The inputs token the last finished build recorded (see `Manifest`), if any.
    public let previousInputs: String?
    let state = Mutex(State())
    /// Folders made in the staging folder.
    let stagingFolders = Mutex(Set<String>())

    static let lockName = ".roost-lock"
    static let stagingPrefix = ".roost-staging-"
    static let manifestTemp = ".roost-manifest.tmp"
    static let pending = -2, unchangedMark = -1, stagedMark = 1

    struct Produced {
        var hash: UInt64
        var size: Int
        var staged: Int  // `stagedMark` (at its path in the staging folder), `pending` or `unchangedMark`
        var fingerprint: UInt64?
    }

    struct State {
        var produced: [String: Produced] = [:]
        var finished = false
    }

    /// Opens `outputDirectory` for writing: creates it (and its parents) if missing, takes the
    /// lock, removes staging folders of dead builds, and reads the manifest.
    public init(outputDirectory: String) throws(OutputError) {
        var directory = outputDirectory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        if directory.isEmpty { directory = "." }
        self.outputDirectory = directory
        let display = directory == "/" ? "/" : directory + "/"
        displayName = display

        let made = makeDirectories(directory)
        if made != 0 { throw .fileSystem(operation: "create the output folder", path: display, errno: made) }
        guard let folder = FileDescriptor(open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            throw .fileSystem(operation: "open the output folder", path: display, errno: errno)
        }
        let lock = try Self.lock(folder.raw, display: display)
        let pid = getpid()
        let pidText = Array("\(pid)\n".utf8)
        _ = pidText.withUnsafeBytes { pwrite(lock.raw, $0.baseAddress, $0.count, 0) }

        // Leftovers of builds that were killed. We hold the lock, so no other build is writing:
        // every staging folder is stale (a pid check would keep folders whose pid was reused).
        for name in directoryEntries(folder.raw) ?? [] where name.hasPrefix(Self.stagingPrefix) {
            removeTree(folder.raw, name)
        }
        unlinkat(folder.raw, Self.manifestTemp, 0)

        let ready: Ready
        do throws(OutputError) {
            ready = try Self.prepare(folder.raw, display: display, pid: pid)
        } catch {
            Self.unlock(lock, in: folder.raw)
            throw error
        }
        previous = ready.manifest
        previousInputs = ready.inputs
        stagingName = ready.stagingName
        stagingFD = ready.stagingFD
        dirFD = folder.release()
        lockFD = lock.release()
    }

    /// Takes the lock of the output folder `dirFD`: flock on `.roost-lock`, removed again on
    /// release (while still held). A lock taken on a file that its holder removed in the
    /// meantime does not count: try again.
    private static func lock(_ dirFD: Int32, display: String) throws(OutputError) -> FileDescriptor {
        while true {
            guard let lock = FileDescriptor(openat(dirFD, lockName, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644))
            else {
                throw .fileSystem(operation: "create the lock file", path: display + lockName, errno: errno)
            }
            var locked: Int32
            repeat { locked = flock(lock.raw, LOCK_EX | LOCK_NB) } while locked != 0 && errno == EINTR
            if locked != 0 {
                let error = errno
                guard error == EWOULDBLOCK else {
                    throw .fileSystem(operation: "lock", path: display + lockName, errno: error)
                }
                var holder: Int32?
                if let bytes = readFile(dirFD, lockName).0 {
                    holder = Int32(String(decoding: bytes, as: UTF8.self).trimmingNewlines())
                }
                throw .locked(directory: display, pid: holder)
            }
            var held = stat()
            fstat(lock.raw, &held)
            if let named = lstatAt(dirFD, lockName).0, named.st_dev == held.st_dev, named.st_ino == held.st_ino {
                return lock
            }
        }
    }

    /// What `prepare` read and made.
    private struct Ready {
        var manifest: [String: ManifestEntry]
        var inputs: String?
        var stagingName: String
        var stagingFD: Int32
    }

    /// Under the lock: reads the manifest and makes this build's staging folder.
    private static func prepare(_ dirFD: Int32, display: String, pid: Int32) throws(OutputError) -> Ready {
        var manifest = [String: ManifestEntry]()
        var inputs: String?
        let (bytes, readError) = readFile(dirFD, Manifest.fileName)
        if let bytes {
            manifest = Manifest.decode(bytes)
            inputs = Manifest.inputs(of: bytes)
        } else if readError != ENOENT {
            throw .fileSystem(operation: "read the manifest", path: display + Manifest.fileName, errno: readError)
        }
        let staging = stagingPrefix + String(pid)
        if mkdirat(dirFD, staging, 0o700) != 0 {
            throw .fileSystem(operation: "create the staging folder", path: display + staging, errno: errno)
        }
        let stagingFD = openat(dirFD, staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if stagingFD < 0 {
            let error = errno
            unlinkat(dirFD, staging, AT_REMOVEDIR)
            throw .fileSystem(operation: "open the staging folder", path: display + staging, errno: error)
        }
        return Ready(manifest: manifest, inputs: inputs, stagingName: staging, stagingFD: stagingFD)
    }

    /// Gives up the lock of the output folder `dirFD`: before unlocking, its file is removed (see `lock`).
    private static func unlock(_ lock: consuming FileDescriptor, in dirFD: Int32) {
        unlinkat(dirFD, lockName, 0)
        flock(lock.raw, LOCK_UN)
    }

    deinit { abandon() }

    /// True when every file the last build recorded is still on disk, a regular file of the
    /// recorded size, and none was left half-replaced: together with an unchanged inputs
    /// token, the output is what a new build would make.
    public func previousOutputIsIntact() -> Bool {
        let entries = Array(previous)
        let chunk = 4096
        let broken = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: (entries.count + chunk - 1) / chunk) { c in
            for (path, entry) in entries[(c * chunk)..<min(entries.count, (c + 1) * chunk)] {
                guard entry.known, let st = lstatAt(dirFD, path).0, isType(st, regularFileType),
                    st.st_size == entry.size
                else {
                    broken.store(true, ordering: .relaxed)
                    return
                }
            }
        }
        return !broken.load(ordering: .relaxed)
    }

    // MARK: Writing

    public func write(_ path: String, _ bytes: [UInt8], fingerprint: UInt64? = nil) throws(OutputError) -> WriteOutcome
    {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(OutputError) -> WriteOutcome in
                try self.write(path, bytes: buffer, fingerprint: fingerprint)
            }
        }
        return try result.get()
    }

    /// Keeps the file the last build wrote at `path` when it was made with the same
    /// `fingerprint` and is still there with its size: the builder need not produce it again.
    /// False when it must (then `write` it). Thread-safe.
    public func keep(_ path: String, fingerprint: UInt64) throws(OutputError) -> Bool {
        guard let old = previous[path], old.known, old.fingerprint == fingerprint else { return false }
        let (st, _) = lstatAt(dirFD, path)
        guard let st, isType(st, regularFileType), st.st_size == old.size else { return false }
        try state.withLock { (state: inout State) throws(OutputError) -> Void in
            if state.finished { throw .finished(directory: displayName) }
            if state.produced[path] != nil { throw .duplicatePath(path) }
            state.produced[path] = Produced(
                hash: old.hash, size: old.size, staged: Self.unchangedMark, fingerprint: fingerprint)
        }
        return true
    }

    public func write(_ path: String, _ string: String) throws(OutputError) -> WriteOutcome {
        var string = string
        let result = string.withUTF8 { buffer in
            Result { () throws(OutputError) -> WriteOutcome in
                try self.write(path, bytes: UnsafeRawBufferPointer(buffer))
            }
        }
        return try result.get()
    }

    /// Stages `bytes` for `path` (relative to the output folder) unless the last build wrote
    /// the same content there. Thread-safe.
    public func write(_ path: String, bytes: UnsafeRawBufferPointer, fingerprint: UInt64? = nil) throws(OutputError)
        -> WriteOutcome
    {
        if let problem = PathRules.problem(with: path) { throw .unsafePath(path: path, reason: problem) }
        let hash = ContentHash.hash(bytes)
        let size = bytes.count
        try state.withLock { (state: inout State) throws(OutputError) -> Void in
            if state.finished { throw .finished(directory: displayName) }
            if state.produced[path] != nil { throw .duplicatePath(path) }
            state.produced[path] = Produced(hash: hash, size: size, staged: Self.pending, fingerprint: fingerprint)
        }

        if let old = previous[path], old.matches(hash: hash, size: size) {
            let (st, _) = lstatAt(dirFD, path)
            if let st, isType(st, regularFileType), st.st_size == size {
                state.withLock { $0.produced[path]?.staged = Self.unchangedMark }
                return .unchanged
            }
        }

        // Staged at its own path in the staging folder, so that a folder the output does not
        // have yet moves into place with one rename at commit.
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var fd = openat(stagingFD, path, flags, 0o644)
        if fd < 0 && errno == ENOENT {
            makeStagingParents(of: path)
            fd = openat(stagingFD, path, flags, 0o644)
        }
        var error: Int32 = fd < 0 ? errno : 0
        if fd >= 0 {
            error = writeAll(fd, bytes)
            if close(fd) != 0 && error == 0 && errno != EINTR { error = errno }
            if error != 0 { unlinkat(stagingFD, path, 0) }
        }
        if error != 0 {
            state.withLock { _ = $0.produced.removeValue(forKey: path) }
            throw .fileSystem(operation: "write", path: displayName + path, errno: error)
        }
        state.withLock { $0.produced[path]?.staged = Self.stagedMark }
        return .written
    }

    /// Creates the folders above `path` in the staging folder (another thread may be creating
    /// the same ones: EEXIST is fine). A failure shows when the file is opened.
    private func makeStagingParents(of path: String) {
        for folder in parentFolders(of: path) {
            stagingFolders.withLock { made in
                if made.insert(folder).inserted { _ = mkdirat(stagingFD, folder, 0o755) }
            }
        }
    }

    // MARK: Finishing

    /// Removes the staging folder and releases the lock; the output folder is left as it was.
    public func abandon() {
        let wasFinished = state.withLock { state in
            defer { state.finished = true }
            return state.finished
        }
        if wasFinished { return }
        cleanUp()
    }

    private func cleanUp() {
        close(stagingFD)
        removeTree(dirFD, stagingName)
        Self.unlock(FileDescriptor(lockFD)!, in: dirFD)
        close(dirFD)
    }

    /// Moves the staged files into place, removes files of the last build that this one did not
    /// produce (and folders left empty by that), writes the new manifest and releases the lock.
    ///
    /// On error, files already moved are whole new files, the rest are untouched, the staging
    /// folder is removed, and the manifest describes what is on disk.
    ///
    /// `inputs` is recorded in the manifest for the next build (see `previousInputs`) only
    /// when everything succeeded.
    public func commit(inputs: String? = nil) throws(OutputError) -> WriteSummary {
        let produced = try state.withLock { (state: inout State) throws(OutputError) -> [String: Produced] in
            if state.finished { throw .finished(directory: displayName) }
            state.finished = true
            return state.produced
        }
        defer { cleanUp() }
        var run = CommitRun(writer: self, produced: produced, inputs: inputs)
        return try run.perform()
    }

    func writeManifest(_ entries: [String: ManifestEntry], inputs: String? = nil) throws(OutputError) {
        try writeManifest(paths: Manifest.sortedPaths(entries.keys), entry: { entries[$0]! }, inputs: inputs)
    }

    /// Writes the manifest of `paths` (in byte order, each once), streamed into a temporary
    /// file renamed over the old one.
    func writeManifest(
        paths: some Sequence<String>, entry: (String) -> ManifestEntry, inputs: String? = nil
    ) throws(OutputError) {
        let fd = openat(dirFD, Self.manifestTemp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        var error: Int32 = fd < 0 ? errno : 0
        if fd >= 0 {
            error = Manifest.write(paths, entry: entry, inputs: inputs, to: fd)
            if close(fd) != 0 && error == 0 && errno != EINTR { error = errno }
            if error == 0 && renameat(dirFD, Self.manifestTemp, dirFD, Manifest.fileName) != 0 { error = errno }
            if error != 0 { unlinkat(dirFD, Self.manifestTemp, 0) }
        }
        if error != 0 {
            throw .fileSystem(operation: "write the manifest", path: displayName + Manifest.fileName, errno: error)
        }
    }
}

/// One commit: the bookkeeping of what is on disk while files are moved and removed.
struct CommitRun {
    let writer: SiteWriter
    let produced: [String: SiteWriter.Produced]
    let inputs: String?
    /// What the output folder holds that we wrote, as far as we know: starts as the old manifest.
    var current: [String: ManifestEntry]
    /// Paths the last build wrote and this one did not produce.
    var stale: Set<String>
    /// Folders (relative paths) known to be real folders, not symlinks.
    var folders = Set<String>()
    var summary = WriteSummary()
    var emptied = Set<String>()
    /// A stale file could not be removed: the next build must not skip its work.
    var incomplete = false

    init(writer: SiteWriter, produced: [String: SiteWriter.Produced], inputs: String?) {
        self.writer = writer
        self.produced = produced
        self.inputs = inputs
        current = writer.previous
        stale = Set(writer.previous.keys.filter { produced[$0] == nil })
    }

    var dirFD: Int32 { writer.dirFD }
    func full(_ path: String) -> String { writer.displayName + path }

    mutating func perform() throws(OutputError) -> WriteSummary {
        // (Lazily filtered: `Dictionary.filter` would make a second dictionary of them all.)
        let moves = produced.lazy.filter { $0.value.staged >= 0 }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        current.reserveCapacity(current.count + moves.count)
        summary.unchanged = produced.values.count { $0.staged == SiteWriter.unchangedMark }
        // A file left as it was may have been made from new inputs that gave the same bytes.
        for (path, item) in produced where item.staged == SiteWriter.unchangedMark {
            current[path]?.fingerprint = item.fingerprint
        }

        // Before anything changes, record that the files about to be replaced or added are ours
        // but of unknown content, so a build killed halfway cleans up and rewrites them.
        // (Stale files need no such note: the old manifest already lists them.)
        // (Written from `current` and `moves` as they are: a copy of `current` with every move
        // marked would hold two million entries twice in a first build of a million tweets.)
        if !moves.isEmpty {
            let paths = byteOrderUnion(Manifest.sortedPaths(current.keys), moves.lazy.map(\.key))
            try writer.writeManifest(paths: paths) { [current, produced] path in
                (produced[path]?.staged ?? -1) >= 0 ? .dirty : current[path]!
            }
        }
        // (Then the final manifest must replace it, even when it equals the old one.)

        var failure: OutputError?
        var k = 0
        while k < moves.count {
            // Paths in one folder are adjacent in byte order: a folder moved whole takes them all.
            let done: Int
            do throws(OutputError) {
                done = try move(moves, from: k)
            } catch {
                failure = error
                break
            }
            for (path, item) in moves[k..<(k + done)] {
                current[path] = ManifestEntry(hash: item.hash, size: item.size, fingerprint: item.fingerprint)
                summary.written += 1
                summary.bytesWritten += item.size
            }
            k += done
        }
        if failure == nil {
            for path in stale.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { removeStale(path) }
            removeEmptiedFolders()
        }
        let finalInputs = failure == nil && !incomplete ? inputs : nil
        if !moves.isEmpty || current != writer.previous || finalInputs != writer.previousInputs {
            do throws(OutputError) {
                try writer.writeManifest(current, inputs: finalInputs)
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        return summary
    }

    /// Moves `moves[k]` into place, or, when one of its folders is not in the output yet, that
    /// whole staged folder (holding `moves[k]` and the moves after it with the same prefix).
    /// Returns how many moves are done.
    mutating func move(_ moves: [(key: String, value: SiteWriter.Produced)], from k: Int) throws(OutputError) -> Int {
        let path = moves[k].key
        if let folder = try firstMissingFolder(of: path) {
            if renameat(writer.stagingFD, folder, dirFD, folder) == 0 {
                folders.insert(folder)
                let prefix = folder + "/"
                var end = k + 1
                while end < moves.count, moves[end].key.hasPrefix(prefix) { end += 1 }
                return end - k
            }
            // Someone made it meanwhile: fall back to moving the file alone.
        }
        try move(path)
        return 1
    }

    /// The shallowest folder above `path` that the output does not have, after checking that
    /// those it has are real folders (not links); nil when all are there.
    mutating func firstMissingFolder(of path: String) throws(OutputError) -> String? {
        for folder in parentFolders(of: path) {
            if folders.contains(folder) { continue }
            let (st, error) = lstatAt(dirFD, folder)
            if st == nil && error == ENOENT { return folder }
            if let st, isType(st, directoryType) {
                folders.insert(folder)
                continue
            }
            // A link, a stale file in the way, an error: the checks (and messages) of one file's move.
            try makeParents(of: path)
            return nil
        }
        return nil
    }

    /// Renames the staged file at `path` over `path`, creating parent folders as needed.
    mutating func move(_ path: String) throws(OutputError) {
        try makeParents(of: path)
        let name = path
        if renameat(writer.stagingFD, name, dirFD, path) == 0 { return }
        var error = errno
        if error == EISDIR || error == ENOTEMPTY || error == EEXIST {
            // A folder from the last build is in the way (e.g. `a/index.html` → `a`): remove its stale files.
            let prefix = path + "/"
            for old in stale where old.hasPrefix(prefix) { removeStale(old) }
            removeEmptiedFolders()
            if renameat(writer.stagingFD, name, dirFD, path) == 0 { return }
            error = errno
        }
        throw .fileSystem(operation: "move the new file into place at", path: full(path), errno: error)
    }

    /// Makes sure every parent folder of `path` exists and is a real folder (not a symlink).
    mutating func makeParents(of path: String) throws(OutputError) {
        for folder in parentFolders(of: path) {
            if folders.contains(folder) { continue }
            let (st, error) = lstatAt(dirFD, folder)
            if let st {
                if isType(st, symlinkType) {
                    throw .unsafePath(
                        path: path,
                        reason:
                            "its parent folder \(full(folder)) is a symbolic link; roost does not write through links")
                }
                if !isType(st, directoryType) {
                    if stale.contains(folder), isType(st, regularFileType), unlinkat(dirFD, folder, 0) == 0 {
                        // A file from the last build is in the way (e.g. `a` → `a/index.html`).
                        stale.remove(folder)
                        current[folder] = nil
                        summary.removed += 1
                    } else {
                        throw .fileSystem(operation: "create the folder", path: full(folder), errno: ENOTDIR)
                    }
                } else {
                    folders.insert(folder)
                    continue
                }
            } else if error != ENOENT {
                throw .fileSystem(operation: "inspect the folder", path: full(folder), errno: error)
            }
            if mkdirat(dirFD, folder, 0o755) != 0 && errno != EEXIST {
                throw .fileSystem(operation: "create the folder", path: full(folder), errno: errno)
            }
            folders.insert(folder)
        }
    }

    /// True when every parent folder of `path` is a real folder (so unlinking cannot escape).
    mutating func parentsAreReal(_ path: String) -> Bool {
        for folder in parentFolders(of: path) {
            if folders.contains(folder) { continue }
            guard let st = lstatAt(dirFD, folder).0, isType(st, directoryType) else { return false }
            folders.insert(folder)
        }
        return true
    }

    /// Removes a file the last build wrote and this one did not. Only regular files, and only
    /// through real folders; anything else is left alone (and forgotten by the manifest).
    mutating func removeStale(_ path: String) {
        guard stale.remove(path) != nil else { return }
        if parentsAreReal(path), let st = lstatAt(dirFD, path).0, isType(st, regularFileType) {
            if unlinkat(dirFD, path, 0) != 0 && errno != ENOENT {
                incomplete = true
                return  // keep it in the manifest; the next build tries again
            }
            summary.removed += 1
            emptied.formUnion(parentFolders(of: path))
        }
        current[path] = nil
    }

    /// Removes folders that held removed files, deepest first, if they are now empty.
    mutating func removeEmptiedFolders() {
        let deepestFirst = emptied.sorted { a, b in
            let da = a.utf8.count { $0 == UInt8(ascii: "/") }
            let db = b.utf8.count { $0 == UInt8(ascii: "/") }
            return da != db ? da > db : a > b
        }
        for folder in deepestFirst where unlinkat(dirFD, folder, AT_REMOVEDIR) == 0 {
            folders.remove(folder)
        }
        emptied.removeAll()
    }
}

extension String {
    fileprivate func trimmingNewlines() -> String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s.removeLast() }
        return String(s)
    }
}

/// The strings of two sequences each in byte order without repeats, merged in byte order
/// without repeats.
func byteOrderUnion(_ a: some Sequence<String>, _ b: some Sequence<String>) -> [String] {
    var merged: [String] = []
    var (i, j) = (a.makeIterator(), b.makeIterator())
    var (x, y) = (i.next(), j.next())
    while x != nil || y != nil {
        if let u = x, let v = y, u.utf8.elementsEqual(v.utf8) {
            merged.append(u)
            (x, y) = (i.next(), j.next())
        } else if let u = x, y == nil || u.utf8.lexicographicallyPrecedes(y!.utf8) {
            merged.append(u)
            x = i.next()
        } else {
            merged.append(y!)
            y = j.next()
        }
    }
    return merged
}
