import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer reused for reading many files on one thread.
final class ReadBuffer {
    private(set) var pointer: UnsafeMutableRawPointer  // raw memory: read(2) fills it, with no zeroing when it grows
    private(set) var capacity: Int

    init(capacity: Int = 16 * 1024) {
        self.capacity = capacity
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { pointer.deallocate() }

    func grow(to needed: Int) {
        guard needed > capacity else { return }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let p = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        p.copyMemory(from: pointer, byteCount: capacity)
        pointer.deallocate()
        pointer = p
        capacity = newCapacity
    }

    /// Reads the whole file at `path` (not following a symlink in its last component
    /// when `noFollow`); returns the byte count, or the errno on failure.
    func readFile(_ path: String, noFollow: Bool) -> Result<Int, ErrnoCode> {
        var flags = O_RDONLY | O_CLOEXEC
        if noFollow { flags |= O_NOFOLLOW }
        guard let file = FileDescriptor(open(path, flags)) else { return .failure(ErrnoCode(errno)) }
        return readAll(file.raw)
    }

    /// Reads the whole file `name` in the open folder `dirFD`, never through a symbolic link.
    func readFile(in dirFD: Int32, name: String) -> Result<Int, ErrnoCode> {
        guard let file = FileDescriptor(openat(dirFD, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) else {
            return .failure(ErrnoCode(errno))
        }
        return readAll(file.raw)
    }

    private func readAll(_ fd: Int32) -> Result<Int, ErrnoCode> {
        var st = stat()
        var expected = -1
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(ErrnoCode(EISDIR)) }
            if (st.st_mode & S_IFMT) == S_IFREG { expected = Int(st.st_size) }
            grow(to: Int(st.st_size) + 1)
        }
        var total = 0
        // A regular file's size is known: stop when it is read (saves a read per file).
        while total != expected {
            if total == capacity { grow(to: capacity * 2) }
            let n = read(fd, pointer + total, capacity - total)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ErrnoCode(errno))
            }
            if n == 0 { break }
            total += n
        }
        return .success(total)
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: capacity) }

    func bytes(count: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }
}

/// What `path` names, and the errno when it is `.missing`.
func fileKind(_ path: String, follow: Bool) -> (FileKind, Int32) {
    var st = stat()
    let r = follow ? stat(path, &st) : lstat(path, &st)
    if r != 0 { return (.missing, errno) }
    return (FileKind(mode: st.st_mode), 0)
}

/// Joins path components with "/", without doubling a trailing slash of `base`.
package func joinPath(_ base: String, _ rel: String) -> String {
    if base.isEmpty { return rel }
    if base.hasSuffix("/") { return base + rel }
    return base + "/" + rel
}

/// Splits `s` at every "/" byte (empty segments kept), without Character iteration.
func splitSlashes(_ s: String) -> [String] {
    var s = s
    return s.withUTF8 { bytes -> [String] in
        var parts: [String] = []
        var start = 0
        for k in 0..<bytes.count where bytes[k] == UInt8(ascii: "/") {
            parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<k]), as: UTF8.self))
            start = k + 1
        }
        parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), as: UTF8.self))
        return parts
    }
}

/// read(2), named apart from the `read` methods of the store types.
func posixRead(_ fd: Int32, _ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, pointer, count)
}
