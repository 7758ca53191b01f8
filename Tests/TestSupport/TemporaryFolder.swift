import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A new, empty folder under the system's temporary folder, removed when the test lets go
/// of it: the one scratch folder every test target uses.
package final class TemporaryFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roost-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folder with everything in it, even folders a test left without write or
    /// read permission (it gives their owner the rights back first; symlinks are not followed).
    deinit {
        if (try? FileManager.default.removeItem(at: url)) == nil {
            Self.makeRemovable(url.path)
            try? FileManager.default.removeItem(at: url)
        }
    }

    private static func makeRemovable(_ folder: String) {
        var st = stat()
        guard lstat(folder, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return }
        chmod(folder, (st.st_mode & 0o7777) | S_IRWXU)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            makeRemovable(folder + "/" + name)
        }
    }

    /// The folder, or `relative` inside it.
    package func path(_ relative: String = "") -> String {
        relative.isEmpty ? url.path : url.appendingPathComponent(relative).path
    }

    /// Writes `text` at `relative`, creating the folders above it; returns the file's path.
    @discardableResult
    package func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, bytes: Array(text.utf8))
    }

    @discardableResult
    package func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Copies `source` (a file or folder) to `relative`.
    package func copy(_ source: String, to relative: String) throws {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target.path)
    }

    /// Every file below `relative` (but Roost's own bookkeeping, `.roost-*`), with its bytes.
    package func files(_ relative: String = "") -> [String: Data] {
        let root = path(relative)
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let file = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard !file.hasPrefix(".roost-"),
                FileManager.default.fileExists(atPath: root + "/" + file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            found[file] = FileManager.default.contents(atPath: root + "/" + file)
        }
        return found
    }
}
