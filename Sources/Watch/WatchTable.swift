import Foundation
import Glibc
import Support

/// The watcher thread's bookkeeping: what each inotify watch is, and what changed in the
/// batch being collected. Owned by that thread (it is made in `FileWatcher.init`, before).
struct WatchTable: Sendable {
    struct Root: Sendable {
        var url: URL
        /// The folder to watch: the root itself, or a single file's parent folder.
        var directory: String
        /// For a single file: its name in `directory`.
        var fileName: String?
    }

    private struct Watch: Equatable, Sendable {
        var root: Int
        /// Relative to the root folder ("" for the root itself).
        var directory: String
    }

    /// A path compared by its bytes: two names in two Unicode forms are two files.
    private struct PathKey: Hashable, Sendable {
        var root: Int
        var path: ExactText
    }

    static let mask: UInt32 = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    let roots: [Root]
    let inotify: Int32
    private var watches: [Int32: [Watch]] = [:]
    /// The folder roots whose parent folder each watch is: a root deleted or moved away is
    /// watched again when a folder of its name comes back (a store regenerated, a theme
    /// copied in again), not lost for the rest of the session.
    private var parentWatches: [Int32: [Int]] = [:]
    /// Paths changed in the current batch; true when a create/move-in event was seen for it.
    private var pending: [PathKey: Bool] = [:]

    init(roots: [Root], inotify: Int32) {
        self.roots = roots
        self.inotify = inotify
    }

    var hasPending: Bool { !pending.isEmpty }

    /// Watches every root (folders recursively). The first root that cannot be watched, if
    /// any (errno says why).
    mutating func watchRoots() -> Int? {
        let failed = roots.indices.first {
            !addWatch(root: $0, directory: "", recursive: roots[$0].fileName == nil, reportFiles: false)
        }
        if failed == nil {
            for root in roots.indices where roots[root].fileName == nil { watchParent(of: root) }
        }
        return failed
    }

    /// Watches the folder a folder root is in, for the root's own name (none for `/`).
    private mutating func watchParent(of root: Int) {
        let url = roots[root].url
        let parent = url.deletingLastPathComponent().path
        guard parent != roots[root].directory else { return }
        let wd = inotify_add_watch(inotify, parent, Self.mask)
        if wd >= 0, !(parentWatches[wd]?.contains(root) ?? false) { parentWatches[wd, default: []].append(root) }
    }

    /// An event in the folder a root is in: the root's own name created or moved in (watched
    /// again, whole, every file in it reported), or deleted or moved away.
    private mutating func handleParentEvent(roots indices: [Int], mask: UInt32, name: String) {
        for root in indices where name == roots[root].url.lastPathComponent {
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                removeWatches(root: root)
                if addWatch(root: root, directory: "", recursive: true, reportFiles: true) {
                    record(root: root, path: "", created: true)
                }
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                record(root: root, path: "", created: false)
                removeWatches(root: root)
            }
        }
    }

    /// The batch collected, each path as it is now (created, modified or deleted); empties it.
    mutating func takeChanges() -> Set<FileWatcher.Change> {
        var changes = Set<FileWatcher.Change>()
        for (key, sawCreate) in pending {
            let full = fullPath(root: key.root, path: key.path.text)
            var info = stat()
            let exists = lstat(full, &info) == 0
            let kind: FileWatcher.Change.Kind = !exists ? .deleted : (sawCreate ? .created : .modified)
            changes.insert(FileWatcher.Change(root: roots[key.root].url, path: key.path.text, kind: kind))
        }
        pending.removeAll()
        return changes
    }

    private func fullPath(root: Int, path: String) -> String {
        let root = roots[root]
        if let fileName = root.fileName { return root.directory + "/" + fileName }
        return path.isEmpty ? root.directory : root.directory + "/" + path
    }

    private mutating func record(root: Int, path: String, created: Bool) {
        let key = PathKey(root: root, path: ExactText(path))
        pending[key] = (pending[key] ?? false) || created
    }

    /// Takes in the events read from inotify.
    mutating func handle(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        let headerSize = 16
        while offset + headerSize <= bytes.endIndex {
            let (wd, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = offset - bytes.startIndex
                return (
                    raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                    raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                )
            }
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + length, bytes.endIndex)
            var name = ""
            if length > 0 {
                let nameBytes = bytes[nameStart..<nameEnd]
                let end = nameBytes.firstIndex(of: 0) ?? nameEnd
                name = String(decoding: bytes[nameStart..<end], as: UTF8.self)
            }
            offset = nameEnd
            handleEvent(wd: wd, mask: mask, name: name)
        }
    }

    private mutating func handleEvent(wd: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: report every root as changed and make sure every folder is watched.
            for index in roots.indices {
                record(root: index, path: "", created: false)
                _ = addWatch(root: index, directory: "", recursive: roots[index].fileName == nil, reportFiles: false)
                if roots[index].fileName == nil { watchParent(of: index) }
            }
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            watches[wd] = nil
            parentWatches[wd] = nil
            return
        }
        if let parents = parentWatches[wd], !name.isEmpty { handleParentEvent(roots: parents, mask: mask, name: name) }
        guard let list = watches[wd] else { return }
        let isDirectory = mask & UInt32(IN_ISDIR) != 0
        for watch in list {
            let root = roots[watch.root]
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                if root.fileName == nil {
                    record(root: watch.root, path: watch.directory, created: false)
                }
                continue
            }
            if let fileName = root.fileName {
                if name == fileName, !isDirectory {
                    record(root: watch.root, path: "", created: mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0)
                }
                continue
            }
            guard !name.isEmpty else { continue }
            let path = watch.directory.isEmpty ? name : watch.directory + "/" + name
            if isDirectory {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    // Files may already be in it (created before the watch was added, or moved in with it).
                    _ = addWatch(root: watch.root, directory: path, recursive: true, reportFiles: true)
                } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    record(root: watch.root, path: path, created: false)
                    if mask & UInt32(IN_MOVED_FROM) != 0 { removeWatches(root: watch.root, under: path) }
                }
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                record(root: watch.root, path: path, created: true)
            } else if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
                record(root: watch.root, path: path, created: false)
            }
        }
    }

    /// Watches a folder of a root (and, when `recursive`, every folder under it). With `reportFiles`,
    /// the files found are recorded as created. False when the top folder cannot be watched.
    @discardableResult
    private mutating func addWatch(root: Int, directory: String, recursive: Bool, reportFiles: Bool) -> Bool {
        let full = directory.isEmpty ? roots[root].directory : roots[root].directory + "/" + directory
        let wd = inotify_add_watch(inotify, full, Self.mask)
        guard wd >= 0 else { return false }
        let watch = Watch(root: root, directory: directory)
        if !(watches[wd]?.contains(watch) ?? false) {
            // The same folder may be watched for two roots (inotify gives one descriptor per inode).
            watches[wd, default: []].removeAll { $0.root == root }
            watches[wd, default: []].append(watch)
        }
        guard recursive || reportFiles else { return true }
        guard let folder = FileDescriptor(open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else { return true }
        var entries: [(name: String, isFolder: Bool)] = []
        let failure = DirectoryListing.forEach(in: folder.raw, dotNames: true) { entry in
            switch entry.kind {
            case .directory: entries.append((entry.name, true))
            case .missing: break  // gone already
            default: entries.append((entry.name, false))
            }
        }
        guard failure == 0 else { return true }
        for (entry, isFolder) in entries.sorted(by: { $0.name < $1.name }) {
            let child = directory.isEmpty ? entry : directory + "/" + entry
            if isFolder {
                if recursive { addWatch(root: root, directory: child, recursive: true, reportFiles: reportFiles) }
            } else if reportFiles {
                record(root: root, path: child, created: true)
            }
        }
        return true
    }

    /// Forgets the watches of a root's folders: those at and under `directory`, or all of
    /// them (nil). A watch that is also another root's parent watch stays with the kernel.
    private mutating func removeWatches(root: Int, under directory: String? = nil) {
        let prefix = directory.map { $0 + "/" }
        for (wd, list) in watches {
            let kept = list.filter {
                guard $0.root == root else { return true }
                guard let directory, let prefix else { return false }
                return !($0.directory == directory || $0.directory.hasPrefix(prefix))
            }
            if kept.count == list.count { continue }
            if kept.isEmpty && parentWatches[wd] == nil {
                inotify_rm_watch(inotify, wd)
                watches[wd] = nil
            } else {
                watches[wd] = kept
            }
        }
    }
}
