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
        guard let folder = FileDescriptor(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            throw .failed(path: path, reason: errnoText())
        }
        let children = (try? DirectoryListing.names(in: folder.raw, dotNames: true).get()) ?? []
        guard !children.isEmpty else { return }
        guard force else { throw .notEmpty(path: path) }
        for child in children {
            let code = removeTree(folder.raw, child)
            if code != 0 { throw .failed(path: path + "/" + child, reason: errnoText(code)) }
        }
    }

    /// `mkdir -p`.
    private static func makeFolders(_ path: String) throws(GenerateError) {
        let code = makeDirectories(path)
        if code != 0 { throw .failed(path: path, reason: errnoText(code)) }
    }
}
