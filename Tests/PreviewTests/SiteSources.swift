import Foundation
import Glibc
import Preview
import Synchronization

// The site sources the tests serve: a folder on disk, and files in memory.

/// A site on disk, such as `public/`. Symbolic links are followed only while they stay
/// inside the root; anything that resolves outside it is treated as missing.
struct FolderSource: SiteSource {
    let root: URL

    init(root: URL) {
        self.root = root.standardizedFileURL
    }

    func file(at path: String) -> [UInt8]? {
        guard Self.isSafeRelativeFile(path) else { return nil }
        // Resolved on every request: the folder may be (re)created after the server starts.
        guard let realRoot = Self.realPath(root.path) else { return nil }
        let candidate = realRoot == "/" ? "/" + path : realRoot + "/" + path
        guard let real = Self.realPath(candidate) else { return nil }
        let prefix = realRoot == "/" ? "/" : realRoot + "/"
        guard real.hasPrefix(prefix), real.count > prefix.count else { return nil }
        return Self.readRegularFile(real)
    }

    /// A defensive check for site sources given a path directly: relative, no empty or dot segment,
    /// no NUL or backslash.
    static func isSafeRelativeFile(_ path: String) -> Bool {
        if path.isEmpty || path.hasPrefix("/") { return false }
        if path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) { return false }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." { return false }
        }
        return true
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func readRegularFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}

/// A site held in memory (for tests, or a rebuild that serves what it rendered without waiting for the disk).
final class MemorySource: SiteSource {
    private let files: Mutex<[String: [UInt8]]>

    init(_ files: [String: [UInt8]] = [:]) {
        self.files = Mutex(files)
    }

    convenience init(strings: [String: String]) {
        self.init(strings.mapValues { Array($0.utf8) })
    }

    func file(at path: String) -> [UInt8]? {
        files.withLock { $0[path] }
    }

    func set(_ path: String, _ bytes: [UInt8]?) {
        files.withLock { $0[path] = bytes }
    }

    func set(_ path: String, string: String) {
        set(path, Array(string.utf8))
    }

    func replaceAll(_ newFiles: [String: [UInt8]]) {
        files.withLock { $0 = newFiles }
    }
}
