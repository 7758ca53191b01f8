import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum WriteOutcome: Equatable, Sendable {
    /// New or changed: staged, and moved into place by `commit()`.
    case written
    /// Same hash and size as the last build wrote, and still on disk with that size: not touched.
    case unchanged
}

package struct WriteSummary: Equatable, Sendable, CustomStringConvertible {
    package var written = 0
    package var unchanged = 0
    package var removed = 0
    package var bytesWritten = 0
    package init(written: Int = 0, unchanged: Int = 0, removed: Int = 0, bytesWritten: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.bytesWritten = bytesWritten
    }

    /// For example "wrote 12 files (34,567 bytes), 3,988 unchanged, removed 2".
    package var description: String {
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
///   output folder; nothing visible changes until `commit()`. A file the last build did not
///   write is staged at its own path (its folders made in the staging folder); one that
///   replaces a file of the last build is staged flat, under a name made from its path.
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
package final class SiteWriter: Sendable {
    package let outputDirectory: String
    /// The folder as shown in messages, with a trailing "/".
    package let displayName: String
    let dirFD: Int32
    let lockFD: Int32
    let stagingFD: Int32
    let stagingName: String
    let previous: PreviousManifest
    /// Which of `previous`'s paths this build produced (kept ones only there, not in `state`).
    let claims: PositionClaims
    /// The inputs token the last finished build recorded (see `Manifest`), if any.
    package let previousInputs: String?
    /// Which of `previous`'s files are still as it left them (`checkPreviousFiles()`).
    let previousFiles: PreviousFileCheck
    let state = Mutex(State())

    static let lockName = ".roost-lock"
    static let stagingPrefix = ".roost-staging-"
    static let manifestTemp = ".roost-manifest.tmp"
    static let pending: Int8 = -2, unchangedMark: Int8 = -1, stagedMark: Int8 = 1, stagedFlatMark: Int8 = 2

    /// In this order, 32 bytes (not 40): one per file of the output, in a table with room for
    /// twice as many (at a million tweets, 4 million slots).
    struct Produced {
        var hash: UInt64
        var size: Int
        var fingerprint: UInt64?
        /// `stagedMark` (at its path in the staging folder), `stagedFlatMark` (at `flatName(of:)`),
        /// `pending` or `unchangedMark`.
        var staged: Int8
        /// Its position in `previous`, or -1 when the last build did not write it.
        var previous: Int32
    }

    struct State {
        var produced: [String: Produced] = [:]
        var finished = false
    }

    /// Opens `outputDirectory` for writing: creates it (and its parents) if missing, takes the
    /// lock, removes staging folders of dead builds, and reads the manifest.
    package init(outputDirectory: String) throws(OutputError) {
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
        claims = PositionClaims(count: ready.manifest.count)
        previousInputs = ready.manifest.inputs
        stagingName = ready.stagingName
        stagingFD = ready.stagingFD
        dirFD = folder.release()
        lockFD = lock.release()
        previousFiles = PreviousFileCheck(ready.manifest, in: dirFD)
    }

    /// The inputs token the manifest in `outputDirectory` records, read from its head alone and
    /// without the lock: a hint for a build deciding early whether it has work to do (the
    /// writer's `previousInputs`, read under the lock, is the answer).
    package static func recordedInputs(outputDirectory: String) -> String? {
        let path = outputDirectory + "/" + Manifest.fileName
        guard let file = FileDescriptor(open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) else { return nil }
        var head = [UInt8](repeating: 0, count: 256)
        let count = head.withUnsafeMutableBytes { read(file.raw, $0.baseAddress, $0.count) }
        return count > 0 ? Manifest.inputs(of: Array(head[..<count])) : nil
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
                if let bytes = try? readWholeFile(in: dirFD, lockName, flags: O_NOFOLLOW).get() {
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
        var manifest: PreviousManifest
        var stagingName: String
        var stagingFD: Int32
    }

    /// Under the lock: reads the manifest and makes this build's staging folder.
    private static func prepare(_ dirFD: Int32, display: String, pid: Int32) throws(OutputError) -> Ready {
        var manifest = PreviousManifest()
        switch readWholeFile(in: dirFD, Manifest.fileName, flags: O_NOFOLLOW) {
        case .success(let bytes):
            manifest = PreviousManifest(decoding: bytes)
        case .failure(let error) where error.code != ENOENT:
            throw .fileSystem(operation: "read the manifest", path: display + Manifest.fileName, errno: error.code)
        case .failure:
            break
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
        return Ready(manifest: manifest, stagingName: staging, stagingFD: stagingFD)
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
    package func previousOutputIsIntact() -> Bool {
        previousFiles.start(waiting: true)
        return (0..<previous.count).allSatisfy(previousFiles.isIntact)
    }

    /// Starts checking, on other threads, the files the last build wrote, for `keep` to ask:
    /// called once the build knows it will render, while it still reads its inputs.
    package func checkPreviousFiles() { previousFiles.start() }

    /// Checks the files the last build wrote on this thread while `going()` says so: for a
    /// build that waits for something else and will likely keep them.
    package func checkPreviousFiles(while going: () -> Bool) { previousFiles.check(while: going) }

    // MARK: Writing

    /// Makes room for `files` files written or kept, told before the first: growing to them
    /// one at a time, the table of what was produced is copied into one twice its size at
    /// each doubling, both held at once (at two million files, some 130 MB more at the
    /// last doubling than the table itself).
    package func expect(files: Int) {
        state.withLock { $0.produced.reserveCapacity(files) }
    }

    package func write(_ path: String, _ bytes: [UInt8], fingerprint: UInt64? = nil) throws(OutputError) -> WriteOutcome
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
    package func keep(_ path: String, fingerprint: UInt64) throws(OutputError) -> Bool {
        if claims.isClosed { throw .finished(directory: displayName) }
        guard let position = previous.position(of: path) else { return false }
        let old = previous.entries[position]
        guard old.known, old.fingerprint == fingerprint, previousFiles.isIntact(position) else { return false }
        guard claims.claim(position, as: .kept) else { throw .duplicatePath(path) }
        return true
    }

    package func write(_ path: String, _ string: String) throws(OutputError) -> WriteOutcome {
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
    package func write(_ path: String, bytes: UnsafeRawBufferPointer, fingerprint: UInt64? = nil) throws(OutputError)
        -> WriteOutcome
    {
        if let problem = PathRules.problem(with: path) { throw .unsafePath(path: path, reason: problem) }
        let hash = ContentHash.hash(bytes)
        let size = bytes.count
        let position = previous.position(of: path)
        try state.withLock { (state: inout State) throws(OutputError) -> Void in
            if state.finished { throw .finished(directory: displayName) }
            if state.produced[path] != nil { throw .duplicatePath(path) }
            if let position, !claims.claim(position, as: .written) { throw .duplicatePath(path) }
            state.produced[path] = Produced(
                hash: hash, size: size, fingerprint: fingerprint, staged: Self.pending,
                previous: Int32(position ?? -1))
        }

        if let position, previous.entries[position].matches(hash: hash, size: size) {
            let (st, _) = lstatAt(dirFD, path)
            if let st, isType(st, regularFileType), st.st_size == size {
                state.withLock { $0.produced[path]?.staged = Self.unchangedMark }
                return .unchanged
            }
        }

        // A file replacing one of the last build's goes into a folder the output has: staged
        // flat, it needs no folder of its own in the staging folder. (A template edit rewrites
        // tens of thousands of pages, each in its own folder; making and removing as many
        // staging folders doubled the file system's work, and on ext4 without a journal every
        // inode freed in the last half minute slows the next ones made.) Any other file is
        // staged at its own path, so that a folder the output does not have yet moves into
        // place with one rename at commit. Two paths with one flat name: the second is staged
        // at its path.
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var staged = (name: path, mark: Self.stagedMark)
        var fd: Int32 = -1
        if position != nil {
            let flat = Self.flatName(of: path)
            fd = openat(stagingFD, flat, flags, 0o644)
            if fd >= 0 { staged = (flat, Self.stagedFlatMark) }
        }
        if fd < 0 {
            fd = openat(stagingFD, path, flags, 0o644)
            if fd < 0 && errno == ENOENT {
                makeStagingParents(of: path)
                fd = openat(stagingFD, path, flags, 0o644)
            }
        }
        var error: Int32 = fd < 0 ? errno : 0
        if fd >= 0 {
            error = writeAll(fd, bytes)
            if close(fd) != 0 && error == 0 && errno != EINTR { error = errno }
            if error != 0 { unlinkat(stagingFD, staged.name, 0) }
        }
        if error != 0 {
            state.withLock { _ = $0.produced.removeValue(forKey: path) }
            if let position { claims.release(position) }
            throw .fileSystem(operation: "write", path: displayName + path, errno: error)
        }
        state.withLock { $0.produced[path]?.staged = staged.mark }
        return .written
    }

    /// The name a file replacing `path` is staged under, at the top of the staging folder:
    /// reserved (see `PathRules`), so no path staged at its own place can take it.
    static func flatName(of path: String) -> String {
        PathRules.reservedPrefix + StableHash.hex(StableHash.fnv1a(path))
    }

    /// Creates the folders above `path` in the staging folder (another thread may be creating
    /// the same ones: EEXIST is fine). A failure shows when the file is opened.
    ///
    /// The innermost first: usually only it is missing (a tweet's page in its own folder),
    /// and one `mkdirat` does; its parents are made only when it cannot be. No set of the
    /// folders made is kept (a million tweets' folders).
    private func makeStagingParents(of path: String) {
        let folders = parentFolders(of: path)
        var missing = folders.count
        while missing > 0 {
            if mkdirat(stagingFD, folders[missing - 1], 0o755) == 0 || errno == EEXIST { break }
            if errno != ENOENT { return }
            missing -= 1
        }
        for folder in folders[missing...] { _ = mkdirat(stagingFD, folder, 0o755) }
    }

    // MARK: Finishing

    /// Removes the staging folder and releases the lock; the output folder is left as it was.
    package func abandon() {
        let wasFinished = state.withLock { state in
            defer { state.finished = true }
            claims.close()
            return state.finished
        }
        if wasFinished { return }
        cleanUp()
    }

    private func cleanUp() {
        previousFiles.finish()  // (it reads through `dirFD`)
        close(stagingFD)
        removeTree(dirFD, stagingName)
        Self.unlock(FileDescriptor(lockFD)!, in: dirFD)
        close(dirFD)
    }

    /// Moves the staged files into place, removes files of the last build that this one did not
    /// produce (and folders left empty by that), writes the new manifest and releases the lock.
    ///
    /// On error, the moves made are undone (`CommitStep`) and the output is as it was, the
    /// manifest too; where one cannot be (a file renamed over), the files moved are whole new
    /// files, the rest untouched, and the manifest describes what is on disk. The staging
    /// folder is removed either way.
    ///
    /// `inputs` is recorded in the manifest for the next build (see `previousInputs`) only
    /// when everything succeeded.
    package func commit(inputs: String? = nil) throws(OutputError) -> WriteSummary {
        // Taken out of the state: the commit's own bookkeeping replaces it, and at two
        // million files it is some 200 MiB better freed early.
        let produced = try state.withLock { (state: inout State) throws(OutputError) -> [String: Produced] in
            if state.finished { throw .finished(directory: displayName) }
            state.finished = true
            claims.close()
            defer { state.produced = [:] }
            return state.produced
        }
        defer { cleanUp() }
        var run = CommitRun(writer: self, produced: consume produced, inputs: inputs)
        return try run.perform()
    }

    /// Appends the bytes `lines` makes (whole manifest lines) to the manifest this writer read,
    /// when it is still that file, of that length, and in a format lines can be appended to
    /// (`PreviousManifest.appendableLength`). False when it is not (then write it whole).
    /// A failed write is undone (the file cut back to its old length) before it is reported.
    func appendToManifest(_ lines: (inout [UInt8]) -> Void) throws(OutputError) -> Bool {
        guard let length = previous.appendableLength else { return false }
        guard let file = FileDescriptor(openat(dirFD, Manifest.fileName, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW))
        else { return false }
        // One link only: a copy of the output made with hard links (`cp -al`) shares the file,
        // and a manifest replaced by rename would leave that copy's alone.
        var st = stat()
        guard fstat(file.raw, &st) == 0, isType(st, regularFileType), st.st_size == length, st.st_nlink == 1 else {
            return false
        }
        var out: [UInt8] = []
        lines(&out)
        var error = out.withUnsafeBytes { writeAll(file.raw, $0) }
        if error != 0 { _ = ftruncate(file.raw, off_t(length)) }
        if close(file.release()) != 0 && error == 0 && errno != EINTR { error = errno }
        if error != 0 {
            throw .fileSystem(operation: "write the manifest", path: displayName + Manifest.fileName, errno: error)
        }
        return true
    }

    /// Cuts the manifest this writer read back to its length then, undoing `appendToManifest`;
    /// false when it is no longer that file (then write it whole).
    func truncateManifest() throws(OutputError) -> Bool {
        guard let length = previous.appendableLength else { return false }
        guard let file = FileDescriptor(openat(dirFD, Manifest.fileName, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)) else {
            return false
        }
        var st = stat()
        guard fstat(file.raw, &st) == 0, isType(st, regularFileType), st.st_size >= length, st.st_nlink == 1 else {
            return false
        }
        if ftruncate(file.raw, off_t(length)) != 0 {
            throw .fileSystem(operation: "write the manifest", path: displayName + Manifest.fileName, errno: errno)
        }
        return true
    }

    /// Writes a manifest with the `lines` given (in byte order, each path once), streamed
    /// into a temporary file renamed over the old one.
    func writeManifest(inputs: String? = nil, lines: (inout ManifestStream) -> Void) throws(OutputError) {
        let fd = openat(dirFD, Self.manifestTemp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        var error: Int32 = fd < 0 ? errno : 0
        if fd >= 0 {
            var stream = ManifestStream(to: fd, inputs: inputs)
            lines(&stream)
            error = stream.finish()
            if close(fd) != 0 && error == 0 && errno != EINTR { error = errno }
            if error == 0 { error = replaceFile(dirFD, Self.manifestTemp, with: dirFD, Manifest.fileName) }
            if error != 0 { unlinkat(dirFD, Self.manifestTemp, 0) }
        }
        if error != 0 {
            throw .fileSystem(operation: "write the manifest", path: displayName + Manifest.fileName, errno: error)
        }
    }
}

extension String {
    fileprivate func trimmingNewlines() -> String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s.removeLast() }
        return String(s)
    }
}
