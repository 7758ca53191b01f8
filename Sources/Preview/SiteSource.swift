import Foundation
import Glibc
import Synchronization

/// Where the preview server gets a site's files from.
///
/// `path` is always a decoded, normalized path relative to the site root, such as
/// `u/mina/index.html` or `style.css`: no leading slash, no empty, `.` or `..` segment,
/// no NUL or backslash (the server refuses such requests before asking the source).
/// Return `nil` for anything that is not a readable file (missing, a folder, outside the site).
public protocol SiteSource: Sendable {
    func file(at path: String) -> [UInt8]?
}

/// A site on disk, such as `public/`. Symbolic links are followed only while they stay
/// inside the root; anything that resolves outside it is treated as missing.
public struct FolderSource: SiteSource {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public func file(at path: String) -> [UInt8]? {
        guard RequestPath.isSafeRelativeFile(path) else { return nil }
        // Resolved on every request: the folder may be (re)created after the server starts.
        guard let realRoot = Self.realPath(root.path) else { return nil }
        let candidate = realRoot == "/" ? "/" + path : realRoot + "/" + path
        guard let real = Self.realPath(candidate) else { return nil }
        let prefix = realRoot == "/" ? "/" : realRoot + "/"
        guard real.hasPrefix(prefix), real.count > prefix.count else { return nil }
        return Self.readRegularFile(real)
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
public final class MemorySource: SiteSource {
    private let files: Mutex<[String: [UInt8]]>

    public init(_ files: [String: [UInt8]] = [:]) {
        self.files = Mutex(files)
    }

    public convenience init(strings: [String: String]) {
        self.init(strings.mapValues { Array($0.utf8) })
    }

    public func file(at path: String) -> [UInt8]? {
        files.withLock { $0[path] }
    }

    public func set(_ path: String, _ bytes: [UInt8]?) {
        files.withLock { $0[path] = bytes }
    }

    public func set(_ path: String, string: String) {
        set(path, Array(string.utf8))
    }

    public func replaceAll(_ newFiles: [String: [UInt8]]) {
        files.withLock { $0 = newFiles }
    }
}
