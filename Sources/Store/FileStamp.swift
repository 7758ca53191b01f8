#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One store file's metadata: what tells, without reading it, that a file is the one read
/// before (the check of `make` and git's index). A file written again gets a new
/// modification and change time, and a file put back from elsewhere a new inode and change
/// time, even with its old size and modification time.
package struct FileStamp: Sendable, Hashable {
    package var size: Int64
    /// Modification time, nanoseconds since 1970.
    package var modified: Int64
    /// Status change time, nanoseconds since 1970.
    package var changed: Int64
    package var inode: UInt64

    package init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec)
        changed = Int64(st.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctim.tv_nsec)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
    }

    /// The newer of the two times.
    package var newest: Int64 { max(modified, changed) }

    /// The stamp of the file at `path` (not following a last symbolic link); nil when it
    /// cannot be had.
    package static func of(_ path: String) -> FileStamp? {
        var st = stat()
        return lstat(path, &st) == 0 ? FileStamp(st) : nil
    }

    /// The stamp of `name` in the open folder `folder`, not following a symbolic link.
    static func of(_ name: String, in folder: Int32) -> FileStamp? {
        var st = stat()
        return fstatat(folder, name, &st, Int32(AT_SYMLINK_NOFOLLOW)) == 0 ? FileStamp(st) : nil
    }
}
