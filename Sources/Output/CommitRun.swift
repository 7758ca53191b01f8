import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One commit: the bookkeeping of what is on disk while files are moved and removed.
///
/// It works on the previous manifest in its order (by position) and the staged files merged
/// into that order: a rebuild that changed a few files of many sorts those few, not every
/// path, and the manifests it writes are streamed from the two, not from a dictionary of all.
struct CommitRun {
    /// What becomes of a file the previous manifest lists.
    enum Fate: UInt8 {
        /// Not produced by this build: to be removed.
        case stale
        /// Produced and left as it was: listed as before (with its new fingerprint).
        case kept
        /// Produced anew: one of `moves` replaces it.
        case replaced
        /// Removed, or not ours to remove (a folder now, a link): no longer listed.
        case gone
        /// Stale but could not be removed: listed as before, for the next build to try again.
        case left
    }

    /// A staged file to move into place. (Its entry's fields, not a `ManifestEntry`: 48 bytes
    /// rather than 64, a first build of two million files holding one for each.)
    struct Move {
        var path: String
        var hash: UInt64
        var size: Int
        var fingerprint: UInt64?
        /// Staged under `SiteWriter.flatName(of: path)`, not at its path. (Here, in the
        /// optional's padding, it costs no bytes.)
        var flat: Bool
        /// The position in the previous manifest of the entry it replaces; for a path the last
        /// build did not write, `-1 - p`, p being the position of the first path after it.
        var slot: Int32

        var entry: ManifestEntry { ManifestEntry(hash: hash, size: size, fingerprint: fingerprint) }
    }

    let writer: SiteWriter
    let previous: PreviousManifest
    let inputs: String?
    /// The fate of each entry of `previous`, by position.
    var fates: [Fate]
    /// New fingerprints of kept files, by position (the same bytes made from new inputs).
    var refreshed: [Int: UInt64?] = [:]
    /// The staged files, in byte order of their paths; the first `moved` are in place.
    var moves: [Move]
    var moved = 0
    /// How many entries of `previous` are `stale` at first, and how many ended `gone`.
    let staleCount: Int
    var dropped = 0
    /// Folders (relative paths) known to be real folders, not symlinks.
    var folders = Set<String>()
    var summary = WriteSummary()
    var emptied = Set<String>()
    /// A stale file could not be removed: the next build must not skip its work.
    var incomplete = false
    /// Staged names that hold the files they replaced, exchanged (`exchangeFile`): removed with
    /// the staging folder, on another thread while the manifest is written.
    var exchanged: [String] = []
    /// What the moves changed, in order, to be undone if one fails (`undoSteps`).
    var steps: [CommitStep] = []
    /// The folders that steps name, and what was moved aside, by the index the step holds.
    var stepNames: [String] = []
    var displacements: [Displacement] = []
    /// The intent was appended to the old manifest (`writeIntent`): cutting it off restores it.
    var intentAppended = false

    init(writer: SiteWriter, produced: consuming [String: SiteWriter.Produced], inputs: String?) {
        self.writer = writer
        self.inputs = inputs
        let previous = writer.previous
        self.previous = previous
        fates = [Fate](repeating: .stale, count: previous.count)
        var replacing: [Move] = []
        var added: [Move] = []
        // As many as the last build did not have, at least (all, in a first build): made to
        // size, not doubled as they come, the old and new arrays held at once while the table
        // they come from still is (some 350 MB at two million files).
        added.reserveCapacity(max(0, produced.count - previous.count))
        var producedBefore = 0
        // (The loop consumes `produced`: it is freed before the sorts below, which in a first
        // build hold as many files.)
        for (path, item) in produced {
            let position = Int(item.previous)
            let staged = item.staged >= 0
            let move = Move(
                path: path, hash: item.hash, size: item.size, fingerprint: item.fingerprint,
                flat: item.staged == SiteWriter.stagedFlatMark, slot: item.previous)
            if position >= 0 {
                producedBefore += 1
                fates[position] = staged ? .replaced : .kept
                if staged {
                    replacing.append(move)
                } else if item.staged == SiteWriter.unchangedMark {
                    summary.unchanged += 1
                    if previous.entries[position].fingerprint != item.fingerprint {
                        refreshed[position] = item.fingerprint
                    }
                }
            } else if staged {
                added.append(move)
            }
        }
        // The files kept as they were, claimed without the table (`SiteWriter.keep`).
        let claims = writer.claims
        for position in 0..<previous.count where claims[position] == .kept {
            producedBefore += 1
            fates[position] = .kept
            summary.unchanged += 1
        }
        staleCount = previous.count - producedBefore
        replacing.sort { $0.slot < $1.slot }
        added.sort { codePointOrder($0.path, $1.path) }
        for k in added.indices { added[k].slot = Int32(-1 - previous.insertionPoint(of: added[k].path)) }
        moves = Self.merged(replacing, added)
    }

    /// `replacing` (by position) and `added` (by the position they go before) in one order.
    private static func merged(_ replacing: [Move], _ added: [Move]) -> [Move] {
        if added.isEmpty { return replacing }
        if replacing.isEmpty { return added }
        var merged: [Move] = []
        merged.reserveCapacity(replacing.count + added.count)
        var (i, j) = (0, 0)
        while i < replacing.count || j < added.count {
            if j < added.count, i == replacing.count || -1 - added[j].slot <= replacing[i].slot {
                merged.append(added[j])
                j += 1
            } else {
                merged.append(replacing[i])
                i += 1
            }
        }
        return merged
    }

    /// Threads removing `count` files: one per 64, up to 16 (more were no faster at a removal
    /// bound by discards: docs/benchmarks.md, issue 30, eighteenth round).
    static func removingThreads(_ count: Int) -> Int { min(16, max(1, count / 64)) }

    var dirFD: Int32 { writer.dirFD }
    func full(_ path: String) -> String { writer.displayName + path }

    /// The whole commit: the intent, the moves, the stale files, the final manifest.
    mutating func perform() throws(OutputError) -> WriteSummary {
        try checkFolders()
        try writeIntent()
        var failure: OutputError?
        var restored = false
        do throws(OutputError) {
            while moved < moves.count { try moveNext() }
            removeStaleFiles()
        } catch {
            failure = error
            restored = undoSteps()
        }
        // The files replaced are removed while the manifest is written, many at once: each
        // may wait for its blocks' discard (`BlockingWork`).
        let (stagingFD, replaced) = (writer.stagingFD, exchanged)
        let removal = BlockingWork(count: replaced.count, threads: Self.removingThreads(replaced.count)) { k in
            unlinkat(stagingFD, replaced[k], 0)
        }
        defer { removal.wait() }
        do throws(OutputError) {
            if restored {
                try restoreManifest()
            } else {
                try writeFinalManifest(finished: failure == nil)
            }
        } catch {
            if failure == nil { failure = error }
        }
        if let failure { throw failure }
        return summary
    }

    /// Before anything changes, records that the files about to be replaced or added are ours
    /// but of unknown content, so a build killed halfway cleans up and rewrites them.
    /// (Stale files need no such note: the old manifest already lists them.)
    ///
    /// Appended to the old manifest when it can be (a line per move; the last line of a path
    /// counts), else written whole: a rebuild that changed a few files of many then writes
    /// the manifest once, not twice. The old inputs token stays, but a dirty entry never
    /// counts as intact, so no build skips its work on it.
    mutating func writeIntent() throws(OutputError) {
        if moves.isEmpty { return }
        intentAppended = try writer.appendToManifest { out in
            for move in moves { Manifest.appendLine(move.path, .dirty, to: &out) }
        }
        if intentAppended { return }
        try writer.writeManifest { stream in writeLines(to: &stream, intent: true) }
    }

    /// After every move was undone: the manifest as the last build left it (its inputs token
    /// too, the output being that build's again), its intent cut off or the whole rewritten.
    func restoreManifest() throws(OutputError) {
        if moves.isEmpty { return }
        if intentAppended, try writer.truncateManifest() { return }
        try writer.writeManifest(inputs: previous.inputs) { stream in writeLines(to: &stream, intent: false) }
    }

    /// Moves the next staged file into place, or the next staged folder whole: paths in one
    /// folder are adjacent in byte order.
    mutating func moveNext() throws(OutputError) {
        let done = try move(from: moved)
        for move in moves[moved..<(moved + done)] {
            summary.written += 1
            summary.bytesWritten += move.size
        }
        moved += done
    }

    /// Removes the files of the last build that this one did not produce, many at once (as
    /// the replaced ones), then the folders that left empty.
    mutating func removeStaleFiles() {
        if staleCount > 0 {
            var doomed: [(position: Int, path: String)] = []
            for position in fates.indices {
                if let path = staleFileToRemove(at: position) { doomed.append((position, path)) }
            }
            let (dirFD, paths) = (dirFD, doomed.map(\.path))
            let failures = Mutex([Int32](repeating: 0, count: paths.count))
            BlockingWork(count: paths.count, threads: Self.removingThreads(paths.count)) { k in
                if unlinkat(dirFD, paths[k], 0) != 0 {
                    let error = errno
                    failures.withLock { $0[k] = error }
                }
            }.wait()
            for (k, error) in failures.withLock({ $0 }).enumerated() {
                removedStale(at: doomed[k].position, path: doomed[k].path, error: error)
            }
        }
        removeEmptiedFolders()
    }

    /// Writes the manifest of what is on disk now, unless it is the one already there. After
    /// an intent it must be written, even when it equals the old one. `inputs` is recorded
    /// only when the commit `finished` and removed every stale file.
    func writeFinalManifest(finished: Bool) throws(OutputError) {
        let finalInputs = finished && !incomplete ? inputs : nil
        if moves.isEmpty && dropped == 0 && refreshed.isEmpty && finalInputs == previous.inputs { return }
        try writer.writeManifest(inputs: finalInputs) { stream in writeLines(to: &stream, intent: false) }
    }

    /// The manifest's lines: the previous entries merged with the moves, in byte order. In the
    /// intent (written before any move), every move is dirty; after, a move in place has its
    /// new entry, and one not made the old entry or none.
    func writeLines(to stream: inout ManifestStream, intent: Bool) {
        var next = 0  // in `moves`
        for position in 0...previous.count {
            while next < moves.count, moves[next].slot == Int32(-1 - position) {
                if intent || next < moved { stream.append(moves[next].path, intent ? .dirty : moves[next].entry) }
                next += 1
            }
            guard position < previous.count else { break }
            switch fates[position] {
            case .replaced:
                assert(moves[next].slot == Int32(position), "the move replacing an entry comes in its place")
                if intent || next < moved {
                    stream.append(previous.path(at: position), intent ? .dirty : moves[next].entry)
                } else {
                    stream.append(previous, at: position)
                }
                next += 1
            case .kept:
                if !refreshed.isEmpty, let fingerprint = refreshed[position] {
                    var entry = previous.entries[position]
                    entry.fingerprint = fingerprint
                    stream.append(previous.path(at: position), entry)
                } else {
                    stream.append(previous, at: position)
                }
            case .stale, .left:
                stream.append(previous, at: position)
            case .gone:
                break
            }
        }
    }

    /// Moves `moves[k]` into place, or, when one of its folders is not in the output yet, that
    /// whole staged folder (holding `moves[k]` and the moves after it with the same prefix,
    /// unless one of those was staged flat: then each file is moved alone).
    /// Returns how many moves are done.
    mutating func move(from k: Int) throws(OutputError) -> Int {
        let path = moves[k].path
        if !moves[k].flat, let folder = try firstMissingFolder(of: path) {
            let prefix = folder + "/"
            var end = k + 1
            while end < moves.count, moves[end].path.hasPrefix(prefix) { end += 1 }
            if !moves[k..<end].contains(where: \.flat), renameat(writer.stagingFD, folder, dirFD, folder) == 0 {
                recordFolder(folder, movedIn: k)
                folders.insert(folder)
                return end - k
            }
            // Someone made it meanwhile, or the folder went from the output with files staged
            // flat for it: move the file alone.
        }
        try move(k, from: stagedName(k))
        return 1
    }

    /// Before anything changes, the folders every move goes through: each a real folder, a
    /// stale file of the last build (removed by the move), or missing from there down (made by
    /// it). A link or someone else's file in the way then fails the commit with the output as
    /// it was, not halfway through its moves. The same `lstat`s the moves would make, made
    /// first: the moves take the folders found from `folders`.
    mutating func checkFolders() throws(OutputError) {
        var k = 0
        while k < moves.count {
            let path = moves[k].path
            k += 1
            for folder in parentFolders(of: path) {
                if folders.contains(folder) { continue }
                let (st, error) = lstatAt(dirFD, folder)
                guard let st else {
                    guard error == ENOENT else {
                        throw .fileSystem(operation: "inspect the folder", path: full(folder), errno: error)
                    }
                    // Made by the moves, with everything below it: the paths below it are
                    // next in byte order (a first build's whole site below a few folders).
                    let prefix = folder + "/"
                    while k < moves.count, moves[k].path.hasPrefix(prefix) { k += 1 }
                    break
                }
                if isType(st, symlinkType) { throw linkInTheWay(of: path, at: folder) }
                guard isType(st, directoryType) else {
                    if staleFile(at: folder, st) != nil { break }
                    throw .fileSystem(operation: "create the folder", path: full(folder), errno: ENOTDIR)
                }
                folders.insert(folder)
            }
        }
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

    /// Puts the staged file `name` at the path of `moves[k]`, creating parent folders as
    /// needed: exchanged with the regular file there, renamed in where there is none, or in
    /// place of a folder of the last build's stale files (e.g. `a/index.html` → `a`), moved
    /// aside whole. Each step is recorded, to be undone.
    mutating func move(_ k: Int, from name: String) throws(OutputError) {
        let path = moves[k].path
        try makeParents(of: path)
        /// Exchanged with the regular file at `path` (and recorded); false when it is not one.
        func exchange() -> Bool {
            guard exchangeFile(writer.stagingFD, name, with: dirFD, path) else { return false }
            exchanged.append(name)
            steps.append(.exchanged(move: Int32(k)))
            return true
        }
        // A file of the last build is there, most likely: exchanged at once (`exchangeFile`
        // makes the one `lstat`).
        if moves[k].slot >= 0, exchange() { return }
        let (st, lstatError) = lstatAt(dirFD, path)
        if let st {
            if isType(st, regularFileType), moves[k].slot < 0, exchange() { return }
            if isType(st, directoryType) {
                guard displace(path, position: nil) else {
                    throw .fileSystem(operation: "move the new file into place at", path: full(path), errno: EISDIR)
                }
            }
        } else if lstatError != ENOENT {
            throw .fileSystem(operation: "inspect", path: full(path), errno: lstatError)
        }
        guard renameat(writer.stagingFD, name, dirFD, path) == 0 else {
            throw .fileSystem(operation: "move the new file into place at", path: full(path), errno: errno)
        }
        // Where something stayed in the way (a file the system could not exchange, a link),
        // the rename replaced it for good.
        let replacedForGood = st.map { !isType($0, directoryType) } ?? false
        steps.append(replacedForGood ? .overwritten : .added(move: Int32(k)))
    }

    /// Makes sure every parent folder of `path` exists and is a real folder (not a symlink).
    mutating func makeParents(of path: String) throws(OutputError) {
        for folder in parentFolders(of: path) {
            if folders.contains(folder) { continue }
            let (st, error) = lstatAt(dirFD, folder)
            if let st {
                if isType(st, symlinkType) { throw linkInTheWay(of: path, at: folder) }
                if !isType(st, directoryType) {
                    // A file of the last build in the way (e.g. `a` → `a/index.html`) is moved aside.
                    guard let position = staleFile(at: folder, st), displace(folder, position: position) else {
                        throw .fileSystem(operation: "create the folder", path: full(folder), errno: ENOTDIR)
                    }
                } else {
                    folders.insert(folder)
                    continue
                }
            } else if error != ENOENT {
                throw .fileSystem(operation: "inspect the folder", path: full(folder), errno: error)
            }
            if mkdirat(dirFD, folder, 0o755) == 0 {
                recordFolder(folder, movedIn: nil)
            } else if errno != EEXIST {
                throw .fileSystem(operation: "create the folder", path: full(folder), errno: errno)
            }
            folders.insert(folder)
        }
    }

    /// The refusal of a move to `path` whose parent `folder` is a symbolic link.
    func linkInTheWay(of path: String, at folder: String) -> OutputError {
        .unsafePath(
            path: path,
            reason: "its parent folder \(full(folder)) is a symbolic link; roost does not write through links")
    }

    /// The position in the last build's manifest of the regular file `st` at `folder`, when it is
    /// one of that build's files this one did not produce (a move in its place removes it).
    func staleFile(at folder: String, _ st: stat) -> Int? {
        guard isType(st, regularFileType), let position = previous.position(of: folder), fates[position] == .stale
        else { return nil }
        return position
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

    /// The path of the stale file at `position` when it is a regular file to remove; nil when
    /// there is nothing to remove, its fate settled here.
    mutating func staleFileToRemove(at position: Int) -> String? {
        guard fates[position] == .stale else { return nil }
        let path = previous.path(at: position)
        if parentsAreReal(path) {
            let (st, error) = lstatAt(dirFD, path)
            if let st, isType(st, regularFileType) { return path }
            if st == nil && error == ENOENT { emptied.formUnion(parentFolders(of: path)) }
        }
        fates[position] = .gone
        dropped += 1
        return nil
    }

    /// Settles the fate of the stale file at `position` (at `path`), once `unlinkat` answered
    /// `error` (0: removed).
    mutating func removedStale(at position: Int, path: String, error: Int32) {
        if error != 0 && error != ENOENT {
            incomplete = true
            fates[position] = .left  // kept in the manifest; the next build tries again
            return
        }
        summary.removed += 1
        emptied.formUnion(parentFolders(of: path))
        fates[position] = .gone
        dropped += 1
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
