import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder the store goes to: created if missing; refused if not empty, unless forced.
enum Destination {
    static func prepare(_ path: String, force: Bool) throws(GenerateError) {
        var st = stat()
        if stat(path, &st) != 0 {
            guard errno == ENOENT else { throw .failed(path: path, reason: errnoText()) }
            try makeFolders(path)
            return
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed(path: path, reason: errnoText()) }
        defer { close(fd) }
        let children = entries(fd)
        guard !children.isEmpty else { return }
        guard force else { throw .notEmpty(path: path) }
        for child in children {
            if let reason = remove(fd, child) { throw .failed(path: path + "/" + child, reason: reason) }
        }
    }

    /// `mkdir -p`.
    private static func makeFolders(_ path: String) throws(GenerateError) {
        let code = makeDirectories(path)
        if code != 0 { throw .failed(path: path, reason: errnoText(code)) }
    }

    /// The names in folder `fd`, without `.` and `..`.
    static func entries(_ fd: Int32) -> [String] {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `name` in folder `fd` and everything below it; symbolic links are removed, not followed.
    private static func remove(_ fd: Int32, _ name: String) -> String? {
        if unlinkat(fd, name, 0) == 0 || errno == ENOENT { return nil }
        guard errno == EISDIR || errno == EPERM else { return errnoText() }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else { return errnoText() }
        for grandchild in entries(child) {
            if let reason = remove(child, grandchild) {
                close(child)
                return reason
            }
        }
        close(child)
        return unlinkat(fd, name, AT_REMOVEDIR) == 0 ? nil : errnoText()
    }
}
