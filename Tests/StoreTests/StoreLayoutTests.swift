import Foundation
import Store
import TestSupport
import Testing

/// The layout (names, kinds and folders, without sizes or times) that the stamp walk sees is
/// the one the reader sees; it moves with every change of what the reader would find, and
/// not with an edit of a file's content.
@Suite("StoreLayout: which names a store holds where")
struct StoreLayoutTests {
    func sample() throws -> TemporaryFolder {
        let dir = try TemporaryFolder()
        try dir.write("users/u1.json", #"{"username": "a"}"#)
        try dir.write("users/u1/user-likes/t1.json", "{}")
        try dir.write("users/u2/user-likes/t1.json", "{}")  // a document folder without its file
        try dir.write("tweets/t1.json", #"{"caption": "hello"}"#)
        try dir.write("tweets/notes.txt", "not a document")
        try dir.write("tweets/.hidden.json", "{}")
        try dir.write("favorites/u1/favorites/p1.json", #"{"name": "x"}"#)
        try dir.write("stray.json", "{}")  // a file where a collection is expected
        try dir.mkdir("tweets/t1")  // an empty subcollection folder
        for i in 0..<2100 { try dir.write("likes/l\(i).json", "{}") }  // read in chunks
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("tweets/t2.json"), withDestinationPath: dir.path("tweets/t1.json"))
        return dir
    }

    func walked(_ dir: TemporaryFolder) throws -> UInt64? { try StoreStamp.of(dir.path()).layout }

    func read(_ dir: TemporaryFolder) throws -> UInt64 {
        try DirectoryStore.read(root: dir.path(), reusing: { _, _ in nil }, transform: { document, _ in document.path })
            .layout
    }

    @Test func theWalkAndTheReaderSeeTheSameLayout() throws {
        let dir = try sample()
        let layout = try #require(try walked(dir))
        #expect(try read(dir) == layout)
        #expect(try walked(dir) == layout)
    }

    @Test func aContentEditKeepsTheLayout() throws {
        let dir = try sample()
        let before = try walked(dir)
        try dir.write("tweets/t1.json", #"{"caption": "a longer caption than before"}"#)
        try dir.write("likes/l7.json", #"{"x": 1}"#)
        #expect(try walked(dir) == before)
        #expect(try read(dir) == before)
    }

    @Test func everyChangeOfWhatIsThereMovesTheLayout() throws {
        let dir = try sample()
        var seen = [try #require(try walked(dir))]
        func expectNew(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let layout = try #require(try walked(dir))
            #expect(!seen.contains(layout), "\(what) left the layout as it was", sourceLocation: sourceLocation)
            #expect(try read(dir) == layout, "the reader sees another layout after: \(what)")
            seen.append(layout)
        }
        try dir.write("users/u1/user-likes/t2.json", "{}")
        try expectNew("a file added deep down")
        try FileManager.default.removeItem(atPath: dir.path("likes/l3.json"))
        try expectNew("a file removed")
        try FileManager.default.moveItem(atPath: dir.path("tweets/t1.json"), toPath: dir.path("tweets/t9.json"))
        try expectNew("a file renamed")
        try dir.mkdir("tweets/t9/replies")
        try expectNew("an empty folder added")
        try FileManager.default.removeItem(atPath: dir.path("tweets/t9.json"))
        try dir.mkdir("tweets/t9.json")
        try expectNew("a file replaced by a folder of the same name")
        try FileManager.default.removeItem(atPath: dir.path("likes/l4.json"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("likes/l4.json"), withDestinationPath: dir.path("likes/l5.json"))
        try expectNew("a file replaced by a link")
    }

    @Test func aSingleFileStoreHasNone() throws {
        let dir = try TemporaryFolder()
        try dir.write("export.json", "{}")
        #expect(try StoreStamp.of(dir.path("export.json")).layout == nil)
    }
}
