import Foundation
import Store
import Support
import Testing

@testable import Build

/// The document cache in parts (`DocumentCache.partEntries` entries each, parsed on all
/// cores): every entry is read back as it was written, whatever the count, and a part table
/// that does not fit the entries is no cache.
extension BuildCacheTests {
    func writtenCache(entries count: Int) throws -> (path: String, identity: StoreIdentity) {
        let identity = StoreIdentity(FolderSource(root: work.path("store")))
        let path = DocumentCache.path(folder: work.path("cache"), identity: identity)
        let writer = try DocumentCacheWriter(path: path, identity: identity, writer: CacheFile.writer)
        for k in 0..<count {
            try writer.add(
                file: "tweets/t\(k).json", stamp: FileStamp(size: Int64(k), modified: 1, changed: 2, inode: UInt64(k)),
                documents: [])
        }
        try writer.finish(folders: nil)
        return (path, identity)
    }

    @Test(arguments: [
        0, 1, DocumentCache.partEntries, DocumentCache.partEntries + 1, 2 * DocumentCache.partEntries + 7,
    ])
    func everyEntryOfEveryPartIsReadBack(count: Int) throws {
        let (path, identity) = try writtenCache(entries: count)
        let cache = try #require(DocumentCache.load(path: path, identity: identity, writer: CacheFile.writer))
        #expect(cache.count == count)
        #expect((0..<count).allSatisfy { cache.file(of: $0) == "tweets/t\($0).json" })
        #expect((0..<count).allSatisfy { cache.stamp(of: $0).size == Int64($0) })
        #expect((0..<count).allSatisfy { cache.pathHash(of: $0) == StableHash.fnv1a("tweets/t\($0).json") })
    }

    /// The part table moved, its checksum made again: no entry is taken from a part read
    /// from the wrong place.
    @Test func aPartTableThatDoesNotFitIsNoCache() throws {
        let (path, identity) = try writtenCache(entries: DocumentCache.partEntries + 10)
        let file = try #require(
            CacheFile.open(path, header: DocumentCache.header(identity: identity, writer: CacheFile.writer)))
        let body = [UInt8](UnsafeRawBufferPointer(rebasing: file.mapping[file.body]))
        var reader = ByteReader(
            UnsafeRawBufferPointer(rebasing: file.mapping[..<file.body.upperBound]),
            offset: file.body.upperBound - 8)
        let table = Int(try reader.uint64()) - file.body.lowerBound
        // The table: its count (one byte, 2), the two starts, where it is.
        #expect(body[table] == 2)
        for shift in [1, -1] {
            var moved = body
            let second = table + 1 + 8
            let start = moved[second..<second + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            withUnsafeBytes(of: UInt64(Int(start) + shift).littleEndian) {
                moved.replaceSubrange(second..<second + 8, with: $0)
            }
            try CacheFileWriter.write(
                path: path, header: DocumentCache.header(identity: identity, writer: CacheFile.writer)
            ) {
                writer throws(BuildError) in try writer.append { $0.append(moved) }
            }
            #expect(
                DocumentCache.load(path: path, identity: identity, writer: CacheFile.writer) == nil, "moved by \(shift)"
            )
        }
    }
}
