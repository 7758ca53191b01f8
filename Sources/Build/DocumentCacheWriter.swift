import Model
import Store
import Support

/// Writes a `DocumentCache`: a header, each folder's layout (if the entries are all the
/// store's document files), the entry count, then each entry (file, stamp, encoded documents),
/// through a `CacheFileWriter`.
final class DocumentCacheWriter {
    private let file: CacheFileWriter

    /// Starts the cache of `identity` at `path`, made by `writer`, with `count` entries.
    init(path: String, identity: StoreIdentity, writer: String, folders: FolderLayouts?, count: Int)
        throws(BuildError)
    {
        file = try CacheFileWriter(path: path, header: DocumentCache.header(identity: identity, writer: writer))
        try file.append { out in
            out.append(UInt64(folders == nil ? 0 : 1))
            if let folders {
                out.append(length: folders.folders.count)
                for folder in folders.folders {
                    out.append(folder.pathHash)
                    out.append(folder.layout)
                }
            }
            out.append(length: count)
        }
    }

    /// One file's entry, its documents encoded now.
    func add(file name: String, stamp: FileStamp, documents: [DecodedDocument]) throws(BuildError) {
        var encoded = ByteWriter()
        encoded.append(length: documents.count)
        for document in documents { document.encode(into: &encoded) }
        try add(file: name, stamp: stamp, body: encoded.bytes)
    }

    /// One file's entry, its documents as a cache stored them.
    func add(file name: String, stamp: FileStamp, encoded: UnsafeRawBufferPointer) throws(BuildError) {
        try add(file: name, stamp: stamp, body: encoded)
    }

    private func add(file name: String, stamp: FileStamp, body: some Collection<UInt8>) throws(BuildError) {
        try file.append { out in
            out.append(name)
            out.append(stamp.size)
            out.append(stamp.modified)
            out.append(stamp.changed)
            out.append(stamp.inode)
            out.append(length: body.count)
            out.append(body)
        }
    }

    /// Writes the checksum and renames the cache into place.
    func finish() throws(BuildError) { try file.finish() }

    /// Gives up: the old cache, if any, stays.
    func abandon() { file.abandon() }
}
