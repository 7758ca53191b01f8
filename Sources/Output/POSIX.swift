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

/// The names in the directory `fd` (dot-files too, not `.` and `..`); `fd` stays open.
func directoryEntries(_ fd: Int32) -> [String]? {
    try? DirectoryListing.names(in: fd, dotNames: true).get()
}
