import Foundation
import Support
import Testing

@Suite("DirectoryListing: names, kinds and dot-names")
struct DirectoryListingTests {
    @Test func listsNamesAndKindsAndLeavesTheFolderOpen() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("a.json"))
        try Data().write(to: root.appendingPathComponent(".hidden"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link").path, withDestinationPath: "sub")
        defer { try? FileManager.default.removeItem(at: root) }

        guard let folder = FileDescriptor(open(root.path, O_RDONLY | O_DIRECTORY)) else {
            Issue.record("cannot open \(root.path)")
            return
        }
        var seen: [String: FileKind] = [:]
        #expect(DirectoryListing.forEach(in: folder.raw, dotNames: false) { seen[$0.name] = $0.kind } == 0)
        #expect(seen == ["a.json": .regular, "sub": .directory, "link": .symlink])
        // Listed again from the start, dot-names included.
        #expect(
            try DirectoryListing.names(in: folder.raw, dotNames: true).get().sorted() == [
                ".hidden", "a.json", "link", "sub",
            ])
    }
}
