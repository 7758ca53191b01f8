import Foundation
import Support
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("exchangeFile: a file put in place of another")
struct FileExchangeTests {
    func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("exchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    func text(_ url: URL, _ name: String) -> String? {
        try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    /// The new file in place, the old one where the new one was (for the caller to remove).
    @Test func aRegularFileIsExchanged() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("new".utf8).write(to: root.appendingPathComponent("new.tmp"))
        try Data("old".utf8).write(to: root.appendingPathComponent("page.html"))
        #expect(exchangeFile(AT_FDCWD, root.path + "/new.tmp", with: AT_FDCWD, root.path + "/page.html"))
        #expect(text(root, "page.html") == "new")
        #expect(text(root, "new.tmp") == "old")
    }

    /// No file there, a folder or a link: nothing is exchanged (the caller renames, and a
    /// folder in the way is not carried off with what is in it).
    @Test func anythingButARegularFileIsLeftAlone() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("new".utf8).write(to: root.appendingPathComponent("new.tmp"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("folder"), withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: root.appendingPathComponent("folder/mine.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.path + "/link", withDestinationPath: "folder/mine.txt")
        for target in ["missing", "folder", "link"] {
            #expect(
                !exchangeFile(AT_FDCWD, root.path + "/new.tmp", with: AT_FDCWD, root.path + "/" + target), "\(target)")
        }
        #expect(text(root, "new.tmp") == "new")
        #expect(text(root, "folder/mine.txt") == "mine")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/missing"))
    }

    /// Over a file (exchanged, the old one removed) or where there is none (renamed): the new
    /// bytes in place and nothing left where they came from.
    @Test func replaceFileLeavesOnlyTheNewFile() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        for (k, target) in ["page.html", "missing.html"].enumerated() {
            if k == 0 { try Data("old".utf8).write(to: root.appendingPathComponent(target)) }
            try Data("new \(k)".utf8).write(to: root.appendingPathComponent("new.tmp"))
            #expect(replaceFile(AT_FDCWD, root.path + "/new.tmp", with: AT_FDCWD, root.path + "/" + target) == 0)
            #expect(text(root, target) == "new \(k)")
            #expect(!FileManager.default.fileExists(atPath: root.path + "/new.tmp"))
        }
        #expect(replaceFile(AT_FDCWD, root.path + "/gone.tmp", with: AT_FDCWD, root.path + "/page.html") == ENOENT)
        #expect(text(root, "page.html") == "new 0")
    }
}
