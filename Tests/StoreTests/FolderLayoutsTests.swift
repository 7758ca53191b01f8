import Foundation
import Store
import TestSupport
import Testing

/// Each folder's layout (names and kinds, without sizes or times), as the stamp walk sees it,
/// is the one the reader sees; it moves with every change of what the reader would find
/// there, and not with an edit of a file's content; `changes(since:)` names the folders to
/// list again.
@Suite("FolderLayouts: which names each folder of a store holds")
struct FolderLayoutsTests {
    /// `large`: a collection the walk stats in chunks on several threads.
    func sample(large: Bool = false) throws -> TemporaryFolder {
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
        for i in 0..<(large ? 2100 : 8) { try dir.write("likes/l\(i).json", "{}") }
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("tweets/t2.json"), withDestinationPath: dir.path("tweets/t1.json"))
        return dir
    }

    func walked(_ dir: TemporaryFolder) throws -> FolderLayouts {
        try #require(try StoreStamp.of(dir.path(), recordingFiles: true).folders)
    }

    func read(_ dir: TemporaryFolder) throws -> FolderLayouts? {
        try DirectoryStore.read(root: dir.path(), reusing: { _, _ in nil }, transform: { document, _ in document.path })
            .folders
    }

    @Test func theWalkAndTheReaderSeeTheSameFolders() throws {
        let dir = try sample(large: true)
        let folders = try walked(dir)
        #expect(folders.folders.count == 12, "the root and 11 folders below it; \(folders.folders.count)")
        #expect(try read(dir) == folders)
        #expect(try walked(dir) == folders)
        #expect(try StoreStamp.of(dir.path()).folders == nil, "recorded without being asked")
    }

    @Test func aContentEditKeepsEveryLayout() throws {
        let dir = try sample()
        let before = try walked(dir)
        try dir.write("tweets/t1.json", #"{"caption": "a longer caption than before"}"#)
        try dir.write("likes/l7.json", #"{"x": 1}"#)
        #expect(try walked(dir) == before)
        #expect(try read(dir) == before)
        #expect(try walked(dir).changes(since: before).map { $0.relist.isEmpty && $0.dropped.isEmpty } == true)
    }

    /// Each change, with the folders it makes a rebuild list again.
    @Test func everyChangeOfWhatIsThereMovesItsFolder() throws {
        let dir = try sample()
        var before = try walked(dir)
        func expectRelisted(
            _ relist: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let now = try walked(dir)
            let changes = try #require(now.changes(since: before), sourceLocation: sourceLocation)
            #expect(changes.relist == relist, "\(what)", sourceLocation: sourceLocation)
            #expect(
                try read(dir) == now, "the reader sees other layouts after: \(what)", sourceLocation: sourceLocation)
            for folder in relist {
                let listed = try #require(try DirectoryStore.documentFiles(inFolder: folder, root: dir.path()))
                #expect(now.folders.contains(listed.folder), "\(folder) listed alone", sourceLocation: sourceLocation)
            }
            before = now
        }
        try dir.write("users/u1/user-likes/t2.json", "{}")
        try expectRelisted(["users/u1/user-likes"], "a file added deep down")
        try FileManager.default.removeItem(atPath: dir.path("likes/l3.json"))
        try expectRelisted(["likes"], "a file removed")
        try FileManager.default.moveItem(atPath: dir.path("tweets/t1.json"), toPath: dir.path("tweets/t9.json"))
        try expectRelisted(["tweets"], "a file renamed")
        try dir.mkdir("tweets/t9/replies")  // (and `tweets/t9` with it)
        try expectRelisted(["tweets", "tweets/t9", "tweets/t9/replies"], "empty folders added")
        try FileManager.default.removeItem(atPath: dir.path("tweets/t9.json"))
        try dir.mkdir("tweets/t9.json")
        try expectRelisted(["tweets", "tweets/t9.json"], "a file replaced by a folder of the same name")
        try FileManager.default.removeItem(atPath: dir.path("likes/l4.json"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("likes/l4.json"), withDestinationPath: dir.path("likes/l5.json"))
        try expectRelisted(["likes"], "a file replaced by a link")
        try FileManager.default.removeItem(atPath: dir.path("users/u2"))
        let gone = try #require(try walked(dir).changes(since: before))
        #expect(gone.relist == ["users"] && gone.dropped.count == 3, "a folder removed with its subfolder")
    }

    @Test func aFolderIsListedAsTheReaderListsIt() throws {
        let dir = try sample()
        let tweets = try #require(try DirectoryStore.documentFiles(inFolder: "tweets", root: dir.path()))
        #expect(tweets.files == ["tweets/t1.json"], "not the text file, the dot-name or the link")
        #expect(try DirectoryStore.documentFiles(inFolder: "", root: dir.path())?.files == [])
        let likes = try #require(try DirectoryStore.documentFiles(inFolder: "users/u1/user-likes", root: dir.path()))
        #expect(likes.files == ["users/u1/user-likes/t1.json"])
        #expect(try walked(dir).folders.contains(likes.folder))
    }

    @Test func aSingleFileStoreHasNone() throws {
        let dir = try TemporaryFolder()
        try dir.write("export.json", "{}")
        #expect(try StoreStamp.of(dir.path("export.json"), recordingFiles: true).folders == nil)
    }
}
