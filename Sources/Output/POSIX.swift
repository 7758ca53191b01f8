import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Thin POSIX helpers. Every function returns 0 or an errno; none of them throws.

let fileTypeMask: mode_t = 0o170000
let regularFileType: mode_t = 0o100000
let directoryType: mode_t = 0o040000
let symlinkType: mode_t = 0o120000

/// `lstat` of `path` relative to `dirFD` (the last component is not followed).
func lstatAt(_ dirFD: Int32, _ path: String) -> (stat?, Int32) {
    var st = stat()
    if fstatat(dirFD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 { return (st, 0) }
    return (nil, errno)
}

func isType(_ st: stat, _ type: mode_t) -> Bool { st.st_mode & fileTypeMask == type }

/// The whole content of a regular file, or nil with the errno.
func readFile(_ dirFD: Int32, _ name: String) -> ([UInt8]?, Int32) {
    let fd = openat(dirFD, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    if fd < 0 { return (nil, errno) }
    defer { close(fd) }
    var result = [UInt8]()
    // Room for the whole file at once (the manifest of a big site is megabytes).
    var st = stat()
    if fstat(fd, &st) == 0, st.st_size > 0 { result.reserveCapacity(Int(st.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return (nil, errno)
        }
        if n == 0 { return (result, 0) }
        result.append(contentsOf: chunk[0..<n])
    }
}

/// The names in the directory `fd` (dot-files too, not `.` and `..`); `fd` stays open.
func directoryEntries(_ fd: Int32) -> [String]? {
    try? DirectoryListing.names(in: fd, dotNames: true).get()
}

/// Removes `name` in `dirFD` and everything below it, without following symlinks. Best effort.
func removeTree(_ dirFD: Int32, _ name: String) {
    if unlinkat(dirFD, name, 0) == 0 || errno == ENOENT { return }
    let fd = openat(dirFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if fd >= 0 {
        for child in directoryEntries(fd) ?? [] { removeTree(fd, child) }
        close(fd)
    }
    unlinkat(dirFD, name, AT_REMOVEDIR)
}
