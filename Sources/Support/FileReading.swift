#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole content of the file `name` in the open folder `dirFD` (`AT_FDCWD`: `name` is a
/// path), read to its end through short reads and interruptions; or the errno. `flags` are
/// added to `O_RDONLY | O_CLOEXEC` (`O_NOFOLLOW`: not through a symbolic link);
/// `regularOnly`: anything but a regular file is refused (EINVAL), a FIFO is never waited on.
public func readWholeFile(
    in dirFD: Int32 = AT_FDCWD, _ name: String, flags: Int32 = 0, regularOnly: Bool = false
) -> Result<[UInt8], ErrnoCode> {
    guard let file = FileDescriptor(openat(dirFD, name, O_RDONLY | O_CLOEXEC | flags)) else {
        return .failure(ErrnoCode(errno))
    }
    var st = stat()
    let size = fstat(file.raw, &st) == 0 ? Int(st.st_size) : -1
    if regularOnly, size < 0 || st.st_mode & S_IFMT != S_IFREG { return .failure(ErrnoCode(EINVAL)) }
    // Read straight into the array, as many bytes as `fstat` says and one more (the read that
    // finds the end): no buffer between, copied from (the manifest of a big site is megabytes).
    var failure: Int32 = 0
    var atEnd = false
    var result = [UInt8](unsafeUninitializedCapacity: max(size, 0) + 1) { buffer, count in
        count = 0
        while count < buffer.count {
            let n = readRetrying(file.raw, buffer.baseAddress! + count, buffer.count - count)
            if n < 0 {
                failure = errno
                return
            }
            if n == 0 {
                atEnd = true
                return
            }
            count += n
        }
    }
    if failure != 0 { return .failure(ErrnoCode(failure)) }
    // A file that grew since, or whose size `fstat` does not tell (`/proc`): the rest by chunks.
    if !atEnd {
        var chunk = [UInt8](repeating: 0, count: wholeFileChunk)
        while true {
            let n = chunk.withUnsafeMutableBytes { readRetrying(file.raw, $0.baseAddress!, $0.count) }
            if n < 0 { return .failure(ErrnoCode(errno)) }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
    }
    return .success(result)
}

/// `read` of up to `count` bytes into `buffer`, asked again when a signal interrupts it: the
/// bytes read, 0 at the end, or -1 with `errno` set.
private func readRetrying(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n >= 0 || errno != EINTR { return n }
    }
}

/// The bytes `readWholeFile` asks `read` for at a time past the size `fstat` told.
private let wholeFileChunk = 1 << 16
