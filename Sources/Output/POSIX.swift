import CRename
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

/// Puts the file `name` (in the folder `fromFD`) in place of the regular file `path` (in
/// `toFD`) by exchanging the two, atomically as a rename: the old file is then at `name`, for
/// the caller to remove. (A rename over a file has ext4 start writing the new file's data
/// back at once, `auto_da_alloc`, some 0.1 ms a page; an exchange does not.) False, with
/// nothing changed, when `path` is not a regular file or the file system cannot exchange:
/// the caller renames instead.
func exchange(_ fromFD: Int32, _ name: String, with toFD: Int32, _ path: String) -> Bool {
    guard let st = lstatAt(toFD, path).0, isType(st, regularFileType) else { return false }
    return roost_rename_exchange(fromFD, name, toFD, path) == 0
}

/// The names in the directory `fd` (dot-files too, not `.` and `..`); `fd` stays open.
func directoryEntries(_ fd: Int32) -> [String]? {
    try? DirectoryListing.names(in: fd, dotNames: true).get()
}
