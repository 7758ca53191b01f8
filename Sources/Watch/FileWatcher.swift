import Foundation
import Glibc
import Support
import Synchronization

/// Watches folders (recursively, including folders created later) and single files with Linux inotify,
/// and reports changes in debounced batches: events are collected until none arrives for `debounce`,
/// then `onChange` is called once, on the watcher's own thread, with everything that changed.
package final class FileWatcher: Sendable {
    package struct Change: Hashable, Sendable, CustomStringConvertible {
        package enum Kind: String, Sendable {
            /// It exists now and was created (or moved in, or replaced by a rename) during the batch.
            case created
            /// It existed and was written.
            case modified
            /// It no longer exists. For a folder that was deleted or moved away, its own path.
            case deleted
        }

        /// The root it is under, as given to the watcher (standardized).
        package var root: URL
        /// The path relative to `root` (`u/mina.json`); `""` when the root is a single file.
        package var path: String
        package var kind: Kind

        package init(root: URL, path: String, kind: Kind) {
            self.root = root
            self.path = path
            self.kind = kind
        }

        package var description: String { "\(kind) \(root.path)\(path.isEmpty ? "" : "/" + path)" }

        /// Paths compared by their bytes: two names in two Unicode forms are two files.
        package static func == (a: Change, b: Change) -> Bool {
            a.root == b.root && a.kind == b.kind && sameBytes(a.path, b.path)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(root)
            hasher.combine(ExactText(path))
            hasher.combine(kind)
        }
    }

    package enum WatchError: Error, CustomStringConvertible {
        case cannotWatch(path: String, reason: String)

        package var description: String {
            switch self {
            case .cannotWatch(let path, let reason): return "cannot watch \(path): \(reason)"
            }
        }
    }

    private let debounce: Duration
    private let onChange: @Sendable (Set<Change>) -> Void
    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = Atomic<Bool>(false)
    /// Set when the watcher thread has ended (and closed the descriptors); `ended` tells waiters.
    private let finished = Atomic<Bool>(false)
    private let ended = ChangeSignal()
    /// The watcher thread's `pthread_self()`, so that `stop()` called from `onChange` does not wait for itself.
    private let watcherThread = Atomic<UInt>(0)

    /// Starts watching: the watches are in place when this returns.
    /// - Parameters:
    ///   - roots: folders (watched recursively) or single files (their folder is watched, other names ignored).
    ///   - debounce: how long to wait for quiet before reporting a batch.
    package init(
        roots: [URL],
        debounce: Duration = .milliseconds(50),
        onChange: @escaping @Sendable (Set<Change>) -> Void
    ) throws {
        self.debounce = debounce
        self.onChange = onChange
        var resolved: [WatchTable.Root] = []
        for url in roots {
            let url = url.standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw WatchError.cannotWatch(path: url.path, reason: "no such file or folder")
            }
            if isDirectory.boolValue {
                resolved.append(.init(url: url, directory: url.path, fileName: nil))
            } else {
                resolved.append(
                    .init(url: url, directory: url.deletingLastPathComponent().path, fileName: url.lastPathComponent))
            }
        }

        guard let inotify = FileDescriptor(inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))) else {
            throw WatchError.cannotWatch(path: "", reason: "inotify_init1: \(errnoText())")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw WatchError.cannotWatch(path: "", reason: "pipe: \(errnoText())")
        }
        let wakeRead = FileDescriptor(fds[0])!
        let wakeWrite = FileDescriptor(fds[1])!
        _ = fcntl(wakeRead.raw, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeWrite.raw, F_SETFD, FD_CLOEXEC)

        var table = WatchTable(roots: resolved, inotify: inotify.raw)
        if let failed = table.watchRoots() {
            throw WatchError.cannotWatch(path: resolved[failed].directory, reason: errnoText())
        }
        // From here on the watcher thread owns the descriptors: it closes them when it ends.
        self.inotify = inotify.release()
        self.wakeRead = wakeRead.release()
        self.wakeWrite = wakeWrite.release()
        let watching = table
        let thread = Thread { [self] in
            self.run(watching)
        }
        thread.name = "roost.FileWatcher"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops watching and waits for the watcher thread to end (unless called from `onChange` itself).
    /// No callback starts after this returns.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if pthread_self() != watcherThread.load(ordering: .sequentiallyConsistent) {
            _ = ended.wait { finished.load(ordering: .sequentiallyConsistent) }
        }
    }

    private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    // MARK: - The watcher thread

    private func run(_ table: WatchTable) {
        var table = table
        watcherThread.store(pthread_self(), ordering: .sequentiallyConsistent)
        defer {
            close(inotify)
            close(wakeRead)
            close(wakeWrite)
            finished.store(true, ordering: .sequentiallyConsistent)
            ended.notify()
        }
        var lastEvent = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var timeout: Int32 = -1
            if table.hasPending {
                timeout = Self.milliseconds(roundedUp: lastEvent + debounce - .now)
            }
            var fds = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 || isStopped { return }
            if ready == 0 || fds[0].revents == 0 {
                if table.hasPending, lastEvent + debounce <= .now {
                    let changes = table.takeChanges()
                    if !changes.isEmpty, !isStopped { onChange(changes) }
                }
                continue
            }
            var readAny = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                readAny = true
                table.handle(buffer[0..<n])
            }
            if readAny { lastEvent = .now }
        }
    }

    /// `duration` in whole milliseconds for `poll`, rounded up; 0 when it is not positive.
    private static func milliseconds(roundedUp duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let partial = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: seconds * 1000 + partial)
    }
}
