import Dispatch
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of the last build's files are still on disk as it wrote them (a regular file of the
/// recorded size), found on other threads while the build reads its store: a rebuild that
/// keeps nearly every page would otherwise `lstat` them one by one in its render, when the
/// cores are busy, rather than while one of them waits. Until `start()`, each file is
/// `lstat`ed when asked about; a thread that asks before the check is done takes its part of
/// what is left rather than wait for it. A thread that waits for something else can take
/// tasks meanwhile (`check(while:)`).
final class PreviousFileCheck: @unchecked Sendable {  // `intact` is written before `done` is left, read after
    private let previous: PreviousManifest
    private let dirFD: Int32
    private let intact: UnsafeMutablePointer<Bool>
    /// Results are found by tasks (taken by `start()`'s thread, `check(while:)` or a `help()`).
    private let started = Atomic<Bool>(false)
    /// `start()` handed the tasks to another thread.
    private let dispatched = Atomic<Bool>(false)
    /// Every task is done (and its results seen by the thread that found so).
    private let complete = Atomic<Bool>(false)
    /// The next task (`chunk` files) for a thread to take.
    private let next = Atomic<Int>(0)
    private let tasks: Int
    /// Entered by each thread that takes tasks, while it does.
    private let done = DispatchGroup()

    /// The check of `previous`'s files in the output folder `dirFD` (open while this lives).
    init(_ previous: PreviousManifest, in dirFD: Int32) {
        self.previous = previous
        self.dirFD = dirFD
        tasks = (previous.count + Self.chunk - 1) / Self.chunk
        intact = .allocate(capacity: max(previous.count, 1))
        intact.initialize(repeating: false, count: max(previous.count, 1))
    }

    /// Starts checking every known entry (once): on one other thread, while the caller goes
    /// on with work of its own (on two cores, a check on both would take the caller's core
    /// from it half the time); with `waiting`, on all cores, for a caller that only waits.
    func start(waiting: Bool = false) {
        started.store(true, ordering: .relaxed)
        guard !dispatched.exchange(true, ordering: .relaxed) else { return }
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [self] in
            if waiting {
                parallelForEach(count: tasks, chunk: 1) { _ in checkWhatIsLeft() }
            } else {
                checkWhatIsLeft()
            }
        }
    }

    /// Takes tasks on this thread, asking `going()` before each, until it says to stop or none
    /// is left: for a thread that would otherwise wait, its core idle.
    func check(while going: () -> Bool) {
        started.store(true, ordering: .relaxed)
        done.enter()
        checkWhatIsLeft(while: going)
        done.leave()
    }

    /// Takes tasks until none is left (or `going()` says to stop).
    private func checkWhatIsLeft(while going: () -> Bool = { true }) {
        let (entries, count, chunk) = (previous.entries, previous.count, Self.chunk)
        var folder = TopFolder(in: dirFD)
        while going() {
            let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard c < tasks else { return }
            for i in (c * chunk)..<min(count, (c + 1) * chunk) {
                let entry = entries[i]
                intact[i] = entry.known && previous.withPath(at: i) { folder.isIntact($0, size: entry.size) }
            }
        }
    }

    /// Takes what is left of the check, then waits for the tasks other threads took.
    private func help() {
        guard !complete.load(ordering: .acquiring) else { return }
        done.enter()
        checkWhatIsLeft()
        done.leave()
        // Every task is taken now, each by a thread that entered `done` before it took it.
        done.wait()
        complete.store(true, ordering: .releasing)
    }

    /// The top folder of the paths a task checks, open, for each file below it to be looked
    /// up from there: the paths are in byte order, so a task's share of `t/` (tens of
    /// thousands of tweets' pages) each skip one component of their walk.
    private struct TopFolder: ~Copyable {
        let dirFD: Int32
        var name: [UInt8] = []
        var fd: Int32 = -1

        init(in dirFD: Int32) { self.dirFD = dirFD }

        mutating func isIntact(_ path: UnsafeRawBufferPointer, size: Int) -> Bool {
            guard let slash = path.firstIndex(of: UInt8(ascii: "/")) else {
                return PreviousFileCheck.isIntact(path, size: size, in: dirFD)
            }
            let top = UnsafeRawBufferPointer(rebasing: path[..<slash])
            if fd < 0 || !name.elementsEqual(top) {
                if fd >= 0 { close(fd) }
                name = Array(top)
                fd = withCPath(top) { openat(dirFD, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            }
            return fd >= 0
                && PreviousFileCheck.isIntact(
                    UnsafeRawBufferPointer(rebasing: path[(slash + 1)...]), size: size, in: fd)
        }

        deinit { if fd >= 0 { close(fd) } }
    }

    /// Files `lstat`ed per task: enough to pay for taking it, few enough that a thread that
    /// waits for the others' last tasks (`help()`) waits a millisecond at most.
    private static let chunk = 512

    /// Whether the file at `position` is as the last build wrote it: as the check found it
    /// (waited for), or, before `start()`, as it is now.
    func isIntact(_ position: Int) -> Bool {
        guard started.load(ordering: .relaxed) else {
            let size = previous.entries[position].size
            return previous.withPath(at: position) { Self.isIntact($0, size: size, in: dirFD) }
        }
        help()
        return intact[position]
    }

    /// Whether the path of `bytes` in the folder `fd` is a regular file (not followed if a
    /// link) of `size` bytes.
    fileprivate static func isIntact(_ path: UnsafeRawBufferPointer, size: Int, in fd: Int32) -> Bool {
        withCPath(path) { cPath in
            var st = stat()
            return fstatat(fd, cPath, &st, AT_SYMLINK_NOFOLLOW) == 0 && isType(st, regularFileType)
                && st.st_size == size
        }
    }

    /// Waits for the check, if started.
    func finish() { done.wait() }

    deinit {
        done.wait()
        intact.deinitialize(count: max(previous.count, 1))
        intact.deallocate()
    }
}

/// `body` of the path of `bytes` as a C string (NUL-ended, on the stack: no `String` is made
/// for each of a rebuild's tens of thousands of files).
private func withCPath<R>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
        buffer[bytes.count] = 0
        return body(buffer.baseAddress!)
    }
}
