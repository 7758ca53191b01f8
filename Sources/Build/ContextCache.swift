import Site
import Support

/// The parts of the site context a build made of each tweet (`ContextParts`: dates as the
/// theme shows them, caption langs), kept for the next builds (docs/architecture.md, "The
/// build cache"): a rebuild that updates the kept snapshot (`SnapshotCache`) takes them
/// instead of rendering every tweet's date and reading every caption's script again, and
/// makes only the edited captions' langs anew.
///
/// One `CacheFile` per store, `context-<hash of its real path>.cache`; its header names the
/// Roost binary and the store, its body the kept snapshot's basis (`SnapshotCache.Basis.digest`),
/// the theme (`Theme.fingerprint`, which holds `text.date`) and the site's language: the
/// parts serve only that snapshot, theme and language. A torn, foreign or hand-edited file
/// fails its checksum, header or counts, and the parts are made again.
enum ContextCache {
    static let format = "context 1"

    /// Which snapshot, theme and language the parts were made of.
    struct Key: Equatable {
        let basis: UInt64
        let theme: Int
        let language: String
    }

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "context")
    }

    private static func header(identity: StoreIdentity) -> [String] {
        [format, CacheFile.writer, identity.path, identity.kind]
    }

    /// The parts at `path` when the file is whole, this binary wrote it for `identity`, and
    /// they were made for `key`, one per tweet of `tweetCount`; nil otherwise.
    static func load(path: String, identity: StoreIdentity, key: Key, tweetCount: Int) -> ContextParts? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do throws(ByteReader.Malformed) {
            guard try reader.uint64() == key.basis, try reader.uint64() == UInt64(bitPattern: Int64(key.theme)),
                try reader.string() == key.language, try reader.length() == tweetCount
            else { return nil }
            var parts = ContextParts(dates: [], captionLangs: [])
            parts.dates.reserveCapacity(tweetCount)
            parts.captionLangs.reserveCapacity(tweetCount)
            for _ in 0..<tweetCount { parts.dates.append(try reader.string()) }
            for _ in 0..<tweetCount {
                switch try reader.byte() {
                case 0: parts.captionLangs.append(nil)
                case 1: parts.captionLangs.append(try reader.string())
                default: return nil
                }
            }
            return reader.isAtEnd ? parts : nil
        } catch {
            return nil
        }
    }

    /// Writes `parts`, made for `key`, at `path` (whole or not at all).
    static func write(path: String, identity: StoreIdentity, key: Key, parts: ContextParts) throws(BuildError) {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { writer throws(BuildError) in
            try writer.append { out in
                out.append(key.basis)
                out.append(UInt64(bitPattern: Int64(key.theme)))
                out.append(key.language)
                out.append(length: parts.dates.count)
            }
            for date in parts.dates { try writer.append { $0.append(date) } }
            for lang in parts.captionLangs {
                try writer.append { out in
                    if let lang {
                        out.append(UInt8(1))
                        out.append(lang)
                    } else {
                        out.append(UInt8(0))
                    }
                }
            }
        }
    }
}
