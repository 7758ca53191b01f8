import Store
import Support
import Testing

@testable import Build

/// The folder of each document cache entry's file, by hash (what a rebuild that lists some
/// folders again drops entries by): one folder's entries written apart, or in turn with
/// another's, or at the store's top, each hashed as its own path.
extension BuildCacheTests {
    @Test func eachEntrysFolderHashIsItsFoldersPath() throws {
        let identity = StoreIdentity(FolderSource(root: work.path("store")))
        let path = DocumentCache.path(folder: work.path("cache"), identity: identity)
        let writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer)
        let files = [
            "tweets/a.json", "tweets/b.json", "users/u/user-likes/a.json", "tweets/c.json", "top.json",
            "users/u.json", "users/u/user-likes/b.json", "users/v/user-likes/a.json", "users/w.json",
        ]
        for file in files {
            try writer.add(file: file, stamp: FileStamp(size: 2, modified: 1, changed: 1, inode: 1), documents: [])
        }
        try writer.finish(folders: nil)
        let cache = try #require(DocumentCache.load(path: path, identity: identity, writer: CacheFile.writer))
        let folders = files.map { file in String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)]) }
        #expect(cache.folderHashes() == folders.map { StableHash.fnv1a($0) })
    }
}
