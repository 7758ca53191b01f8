import Foundation
import Glibc
import Support

/// Watches folders (recursively, including folders created later) and single files with Linux inotify,
/// and reports changes in debounced batches: events are collected until none arrives for `debounce`,
/// then `onChange` is called once, on the watcher's own thread, with everything that changed.
public final class FileWatcher: @unchecked Sendable {
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// It exists now and was created (or moved in, or replaced by a rename) during the batch.
            case created
            /// It existed and was written.
            case modified
            /// It no longer exists. For a folder that was deleted or moved away, its own path.
            case deleted
        }

        /// The root it is under, as given to the watcher (standardized).
        public var root: URL
        /// The path relative to `root` (`u/mina.json`); `""` when the root is a single file.
        public var path: String
        public var kind: Kind

        public init(root: URL, path: String, kind: Kind) {
            self.root = root
            self.path = path
            self.kind = kind
        }

        public var description: String { "\(kind) \(root.path)\(path.isEmpty ? "" : "/" + path)" }
    }

    public enum WatchError: Error, CustomStringConvertible {
        case cannotWatch(path: String, reason: String)

        public var description: String {
            switch self {
            case .cannotWatch(let path, let reason): return "cannot watch \(path): \(reason)"
            }
        }
    }

    private struct Root {
        var url: URL
        /// The folder to watch: the root itself, or a single file's parent folder.
        var directory: String
        /// For a single file: its name in `directory`.
        var fileName: String?
    }

    private struct Watch: Equatable {
        var root: Int
        /// Relative to the root folder ("" for the root itself).
        var directory: String
    }

    private struct PathKey: Hashable {
        var root: Int
        var path: String
    }

    private let roots: [Root]
    private let debounce: Double
    private let onChange: @Sendable (Set<Change>) -> Void
    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopLock = NSLock()
    private var stopped = false
    private var thread: Thread?

    // Used only on the watcher thread (and in init, before it starts).
    private var watches: [Int32: [Watch]] = [:]
    /// Paths changed in the current batch; true when a create/move-in event was seen for it.
    private var pending: [PathKey: Bool] = [:]

    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Starts watching: the watches are in place when this returns.
    /// - Parameters:
    ///   - roots: folders (watched recursively) or single files (their folder is watched, other names ignored).
    ///   - debounce: how long to wait for quiet before reporting a batch.
    public init(
        roots: [URL],
        debounce: Duration = .milliseconds(50),
        onChange: @escaping @Sendable (Set<Change>) -> Void
    ) throws {
        self.debounce = Double(debounce.components.seconds) + Double(debounce.components.attoseconds) / 1e18
        self.onChange = onChange
        var resolved: [Root] = []
        for url in roots {
            let url = url.standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw WatchError.cannotWatch(path: url.path, reason: "no such file or folder")
            }
            if isDirectory.boolValue {
                resolved.append(Root(url: url, directory: url.path, fileName: nil))
            } else {
                resolved.append(Root(url: url, directory: url.deletingLastPathComponent().path, fileName: url.lastPathComponent))
            }
        }
        self.roots = resolved

        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else {
            throw WatchError.cannotWatch(path: "", reason: "inotify_init1: \(errnoText())")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(inotify)
            throw WatchError.cannotWatch(path: "", reason: "pipe: \(errnoText())")
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeWrite, F_SETFD, FD_CLOEXEC)

        for index in resolved.indices {
            let ok = addWatch(root: index, directory: "", recursive: resolved[index].fileName == nil, reportFiles: false)
            if !ok {
                let reason = errnoText()
                close(inotify)
                close(wakeRead)
                close(wakeWrite)
                throw WatchError.cannotWatch(path: resolved[index].directory, reason: reason)
            }
        }

        let thread = Thread { [self] in
            self.run()
        }
        thread.name = "roost.FileWatcher"
        self.thread = thread
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops watching and waits for the watcher thread to end (unless called from `onChange` itself).
    /// No callback starts after this returns.
    public func stop() {
        stopLock.lock()
        let first = !stopped
        stopped = true
        stopLock.unlock()
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if let thread, Thread.current !== thread {
            finished.wait()
        }
    }

    private var isStopped: Bool {
        stopLock.lock()
        defer { stopLock.unlock() }
        return stopped
    }

    // MARK: - The watcher thread

    private func run() {
        defer {
            close(inotify)
            close(wakeRead)
            close(wakeWrite)
            finished.signal()
        }
        var lastEvent = Date.distantPast
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var timeout: Int32 = -1
            if !pending.isEmpty {
                let left = lastEvent.addingTimeInterval(debounce).timeIntervalSinceNow
                timeout = left <= 0 ? 0 : Int32((left * 1000).rounded(.up))
            }
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 || isStopped { return }
            if ready == 0 || fds[0].revents == 0 {
                if !pending.isEmpty, lastEvent.addingTimeInterval(debounce).timeIntervalSinceNow <= 0 {
                    flush()
                }
                continue
            }
            var readAny = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                readAny = true
                handle(buffer[0..<n])
            }
            if readAny { lastEvent = Date() }
        }
    }

    private func flush() {
        var changes = Set<Change>()
        for (key, sawCreate) in pending {
            let root = roots[key.root]
            let full = fullPath(root: key.root, path: key.path)
            var info = stat()
            let exists = lstat(full, &info) == 0
            let kind: Change.Kind = !exists ? .deleted : (sawCreate ? .created : .modified)
            changes.insert(Change(root: root.url, path: key.path, kind: kind))
        }
        pending.removeAll()
        if !changes.isEmpty, !isStopped { onChange(changes) }
    }

    private func fullPath(root: Int, path: String) -> String {
        let root = roots[root]
        if let fileName = root.fileName { return root.directory + "/" + fileName }
        return path.isEmpty ? root.directory : root.directory + "/" + path
    }

    private func record(root: Int, path: String, created: Bool) {
        let key = PathKey(root: root, path: path)
        pending[key] = (pending[key] ?? false) || created
    }

    private func handle(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        let headerSize = 16
        while offset + headerSize <= bytes.endIndex {
            let (wd, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = offset - bytes.startIndex
                return (raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self)))
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

    private func handleEvent(wd: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: report every root as changed and make sure every folder is watched.
            for index in roots.indices {
                record(root: index, path: "", created: false)
                _ = addWatch(root: index, directory: "", recursive: roots[index].fileName == nil, reportFiles: false)
            }
            return
        }
        guard let list = watches[wd] else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            watches[wd] = nil
            return
        }
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
    private func addWatch(root: Int, directory: String, recursive: Bool, reportFiles: Bool) -> Bool {
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
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: full) else { return true }
        for entry in entries.sorted() {
            let child = directory.isEmpty ? entry : directory + "/" + entry
            let childFull = full + "/" + entry
            var info = stat()
            guard lstat(childFull, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if recursive { addWatch(root: root, directory: child, recursive: true, reportFiles: reportFiles) }
            } else if reportFiles {
                record(root: root, path: child, created: true)
            }
        }
        return true
    }

    private func removeWatches(root: Int, under directory: String) {
        let prefix = directory + "/"
        for (wd, list) in watches {
            let kept = list.filter { !($0.root == root && ($0.directory == directory || $0.directory.hasPrefix(prefix))) }
            if kept.count == list.count { continue }
            if kept.isEmpty {
                inotify_rm_watch(inotify, wd)
                watches[wd] = nil
            } else {
                watches[wd] = kept
            }
        }
    }
}
