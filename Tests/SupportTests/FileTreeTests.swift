import Foundation
import Support
import Testing

@Suite("removeTree and readWholeFile")
struct FileTreeTests {
    @Test func removeTreeRemovesEverythingBelowAndFollowsNoLink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        let kept = root.appendingPathComponent("kept")
        let tree = root.appendingPathComponent("tree")
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: tree.appendingPathComponent("a/b/.hidden"))
        try Data("y".utf8).write(to: kept.appendingPathComponent("file"))
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("a/link").path, withDestinationPath: kept.path)
        defer { try? FileManager.default.removeItem(at: root) }

        guard let folder = FileDescriptor(open(root.path, O_RDONLY | O_DIRECTORY)) else {
            Issue.record("cannot open \(root.path)")
            return
        }
        #expect(removeTree(folder.raw, "tree") == 0)
        #expect(!FileManager.default.fileExists(atPath: tree.path))
        #expect(FileManager.default.fileExists(atPath: kept.appendingPathComponent("file").path))
        #expect(removeTree(folder.raw, "tree") == 0)  // gone already
    }

    @Test func readWholeFileReadsToTheEnd() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: root.appendingPathComponent("big"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link").path, withDestinationPath: "big")

        #expect(try readWholeFile(root.appendingPathComponent("big").path).get() == bytes)
        guard let folder = FileDescriptor(open(root.path, O_RDONLY | O_DIRECTORY)) else {
            Issue.record("cannot open \(root.path)")
            return
        }
        #expect(try readWholeFile(in: folder.raw, "big", flags: O_NOFOLLOW).get() == bytes)
        #expect(throws: ErrnoCode(ELOOP)) { try readWholeFile(in: folder.raw, "link", flags: O_NOFOLLOW).get() }
        #expect(throws: ErrnoCode(EINVAL)) { try readWholeFile(root.path, regularOnly: true).get() }
        #expect(throws: ErrnoCode(ENOENT)) { try readWholeFile(in: folder.raw, "missing").get() }
        try Data().write(to: root.appendingPathComponent("empty"))
        #expect(try readWholeFile(in: folder.raw, "empty").get() == [])
    }

    /// A file whose size `fstat` does not tell (0, as `/proc` says) is read to its end all the
    /// same, past the room made for that size.
    @Test func readWholeFileReadsPastTheSizeItWasTold() throws {
        let status = try readWholeFile("/proc/self/status").get()
        #expect(status.count > 100)
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
        #expect(status.last == UInt8(ascii: "\n"), "read to its end")
    }
}
