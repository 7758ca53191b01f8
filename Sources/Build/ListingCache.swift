import Store
import Support

/// The store's folders as the last stamp walk listed them (`FolderListings`), kept for the
/// next build's walk (docs/architecture.md, "The build cache"): a folder whose own stamp has
/// not moved is not listed again, only its entries stat-ed.
///
/// One `CacheFile` per store, `listing-<hash of its real path>.cache`; its header names the
/// Roost binary and the store. A torn, foreign or hand-edited file fails its checksum, header
/// or names, and every folder is listed.
enum ListingCache {
    static let format = "listing 1"

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "listing")
    }

    private static func header(identity: StoreIdentity) -> [String] {
        [format, CacheFile.writer, identity.path, identity.kind]
    }

    /// The listings at `path` when the file is whole and this binary wrote it for `identity`.
    static func load(path: String, identity: StoreIdentity) -> FolderListings? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do throws(ByteReader.Malformed) {
            let listings = try FolderListings(from: &reader)
            return reader.isAtEnd ? listings : nil
        } catch {
            return nil
        }
    }

    /// Whether the listings a walk kept are worth writing over `known` (those it was given), by
    /// the rule of every build cache (`CacheFile.isWorthRewriting`), counted in names, as
    /// listing costs: the names of the folders it kept that `known` does not hold as they are
    /// (the next walk lists them again), and of those `known` holds in vain, are the drift.
    ///
    /// The walk counted them as it went: the folders whose names it took from `known` are
    /// those `known` holds as they are, and no others are.
    static func isWorthWriting(_ stamp: StoreStamp, over known: FolderListings?) -> Bool {
        guard stamp.keepsListings else { return false }
        let (kept, taken) = stamp.listingWeights
        let drift = (kept - taken) + ((known?.weight ?? 0) - taken)
        return CacheFile.isWorthRewriting(drift: drift, live: kept)
    }

    /// Writes `listings` at `path` (whole or not at all).
    static func write(path: String, identity: StoreIdentity, listings: FolderListings) throws(BuildError) {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { writer throws(BuildError) in
            try listings.encode { body throws(BuildError) in try writer.append(body) }
        }
    }
}
