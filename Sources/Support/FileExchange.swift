import CRename

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the file `name` (in the folder `fromFD`) in place of the regular file `path` (in
/// `toFD`) by exchanging the two, atomically as a rename: the old file is then at `name`, for
/// the caller to remove. (A rename over a file has ext4 start writing the new file's data
/// back at once, `auto_da_alloc`: some 0.1 ms for a page, 3 ms for a 3 MB manifest, on the
/// renaming thread; an exchange does not.) False, with nothing changed, when `path` is not a
/// regular file or the system cannot exchange: the caller renames instead.
public func exchangeFile(_ fromFD: Int32, _ name: String, with toFD: Int32, _ path: String) -> Bool {
    var st = stat()
    guard fstatat(toFD, path, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
    return roost_rename_exchange(fromFD, name, toFD, path) == 0
}

/// Puts the file `name` (in `fromFD`) at `path` (in `toFD`), whole or not at all: exchanged
/// with the regular file there, which is then removed (`exchangeFile`), or else renamed over
/// whatever is there. 0, or the rename's errno.
public func replaceFile(_ fromFD: Int32, _ name: String, with toFD: Int32, _ path: String) -> Int32 {
    if exchangeFile(fromFD, name, with: toFD, path) {
        unlinkat(fromFD, name, 0)
        return 0
    }
    return renameat(fromFD, name, toFD, path) == 0 ? 0 : errno
}
