#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to `fd`, through short writes and interruptions; 0 or the errno.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard var pointer = bytes.baseAddress else { return 0 }
    var remaining = bytes.count
    while remaining > 0 {
        let n = write(fd, pointer, remaining)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if n == 0 { return EIO }
        pointer += n
        remaining -= n
    }
    return 0
}

/// `mkdir -p`: 0, or the errno of the first failure (ENOTDIR when something else is in the way).
public func makeDirectories(_ path: String) -> Int32 {
    if mkdir(path, 0o755) == 0 { return 0 }
    var error = errno
    if error == ENOENT, let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex {
        let parent = makeDirectories(String(path[..<slash]))
        if parent != 0 { return parent }
        if mkdir(path, 0o755) == 0 { return 0 }
        error = errno
    }
    if error == EEXIST {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR ? 0 : ENOTDIR
    }
    return error
}

/// Removes `name` in the open folder `dirFD` and everything below it; symbolic links are
/// removed, not followed. It goes on past a failure, removing what it can: 0, or the errno of
/// the first failure.
@discardableResult
public func removeTree(_ dirFD: Int32, _ name: String) -> Int32 {
    if unlinkat(dirFD, name, 0) == 0 || errno == ENOENT { return 0 }
    // Linux says EISDIR of a folder, macOS EPERM; any other failure is the answer.
    let unlinkError = errno
    guard unlinkError == EISDIR || unlinkError == EPERM else { return unlinkError }
    guard let folder = FileDescriptor(openat(dirFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) else {
        return errno
    }
    var first: Int32 = 0
    switch DirectoryListing.names(in: folder.raw, dotNames: true) {
    case .success(let children):
        for child in children {
            let code = removeTree(folder.raw, child)
            if first == 0 { first = code }
        }
    case .failure(let error):
        first = error.code
    }
    if unlinkat(dirFD, name, AT_REMOVEDIR) != 0, first == 0 { first = errno }
    return first
}
