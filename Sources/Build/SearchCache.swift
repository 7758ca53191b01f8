import Model
import Search
import Support

/// The search index's postings (`SearchPostings`) of the snapshot a build made, kept for the
/// next builds (docs/architecture.md, "The build cache"), with the basis of the snapshot kept
/// (`SnapshotCache.Basis.digest`) and the digest of what they were made of
/// (`SearchIndex.inputDigest`). A rebuild that updates the kept snapshot takes them by its
/// basis and updates them per edited caption instead of indexing every tweet again; one that
/// derives its snapshot again takes them when its digest is theirs (and keeps them again
/// under the new basis). So not after captions edited since the kept snapshot: the postings
/// held are that snapshot's.
///
/// One `CacheFile` per store, `search-<hash of its real path>.cache`; its header names the
/// Roost binary and the store. A torn, foreign or hand-edited file fails its checksum, header
/// or order, and the index is made from every tweet.
enum SearchCache {
    static let format = "search 3"

    /// Which postings a build can take: those of the kept snapshot it updated (by its
    /// basis), or those made of what a snapshot derived again is made of (by their digest).
    enum Match {
        case basis(UInt64)
        case digest(UInt64)
    }

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "search")
    }

    private static func header(identity: StoreIdentity) -> [String] {
        [format, CacheFile.writer, identity.path, identity.kind]
    }

    /// The postings at `path` when the file is whole, this binary wrote it for `identity`,
    /// and they are those `match` names, with these counts; nil otherwise.
    static func load(path: String, identity: StoreIdentity, match: Match, tweetCount: Int, userCount: Int)
        -> SearchPostings?
    {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do throws(ByteReader.Malformed) {
            let (basis, digest) = (try reader.uint64(), try reader.uint64())
            switch match {
            case .basis(let wanted): guard basis == wanted else { return nil }
            case .digest(let wanted): guard digest == wanted else { return nil }
            }
            guard try reader.length() == tweetCount, try reader.length() == userCount else { return nil }
            let count = try reader.length()
            var (keys, ends, entries) = ([String](), [Int](), [UInt8]())
            keys.reserveCapacity(count)
            ends.reserveCapacity(count)
            entries.reserveCapacity(file.body.count)
            for _ in 0..<count {
                keys.append(try reader.string())
                entries += try reader.bytes(try reader.length())
                ends.append(entries.count)
            }
            guard reader.isAtEnd else { return nil }
            return SearchPostings(
                keys: keys, entries: entries, ends: ends, tweetCount: tweetCount, userCount: userCount)
        } catch {
            return nil
        }
    }

    /// Writes `postings`, of the kept snapshot of `basis` and made of inputs of `digest`, at
    /// `path` (whole or not at all).
    static func write(path: String, identity: StoreIdentity, basis: UInt64, digest: UInt64, postings: SearchPostings)
        throws(BuildError)
    {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { writer throws(BuildError) in
            try writer.append { out in
                out.append(basis)
                out.append(digest)
                out.append(length: postings.tweetCount)
                out.append(length: postings.userCount)
                out.append(length: postings.keys.count)
            }
            let postings = postings.encoded()
            for k in postings.keys.indices {
                try writer.append { out in
                    let entry = postings.entry(at: k)
                    out.append(postings.keys[k])
                    out.append(length: entry.count)
                    out.append(entry)
                }
            }
        }
    }
}
