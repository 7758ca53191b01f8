import Site
import Support

/// The pages' fingerprints of a build of the kept snapshot (`KeptFingerprints`), kept for the
/// next builds (docs/architecture.md, "The build cache"): a rebuild whose snapshot is the kept
/// one with tweets' content edited, and no like moved, takes them and fingerprints again only
/// the pages that show a tweet whose card changed, instead of every page.
///
/// One `CacheFile` per store, `fingerprints-<hash of its real path>.cache`; its header names
/// the Roost binary and the store, its body the kept snapshot's basis
/// (`SnapshotCache.Basis.digest`): the fingerprints serve only a snapshot updated from that
/// one. What they share and the plan they follow are checked by the renderer that takes them.
/// A torn, foreign or hand-edited file fails its checksum, header or counts, and every page is
/// fingerprinted.
enum FingerprintCache {
    static let format = "fingerprints 1"

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "fingerprints")
    }

    static func header(identity: StoreIdentity) -> [String] {
        [format, CacheFile.writer, identity.path, identity.kind]
    }

    /// The fingerprints at `path` when the file is whole, this binary wrote it for
    /// `identity`, and they were made of a snapshot updated from the kept one of `basis`,
    /// with `tweetCount` tweets; nil otherwise.
    static func load(path: String, identity: StoreIdentity, basis: UInt64, tweetCount: Int) -> KeptFingerprints? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do throws(ByteReader.Malformed) {
            guard try reader.uint64() == basis else { return nil }
            let (shared, plan) = (try reader.uint64(), try reader.uint64())
            let (termsStart, termsCount) = (try reader.length(), try reader.length())
            let (pageCount, showingCount) = (try reader.length(), try reader.length())
            guard try reader.length() == tweetCount, pageCount < UInt32.max, showingCount < UInt32.max,
                termsStart + termsCount <= pageCount
            else { return nil }
            // (Counts are checked against what is left before anything is reserved.)
            guard (pageCount + tweetCount) * 8 <= reader.remaining else { return nil }
            var kept = KeptFingerprints(
                shared: shared, plan: plan, terms: termsStart..<termsStart + termsCount, pages: [], cards: [],
                showingStarts: [0], showing: [])
            kept.pages.reserveCapacity(pageCount)
            for _ in 0..<pageCount { kept.pages.append(try reader.uint64()) }
            kept.cards.reserveCapacity(tweetCount)
            for _ in 0..<tweetCount { kept.cards.append(try reader.uint64()) }
            guard showingCount <= reader.remaining else { return nil }
            kept.showingStarts.reserveCapacity(tweetCount + 1)
            kept.showing.reserveCapacity(showingCount)
            // Per tweet, how many pages show it, then their indices as gaps (ascending).
            for _ in 0..<tweetCount {
                let count = try reader.length()
                guard count <= showingCount - kept.showing.count else { return nil }
                var last = -1
                for _ in 0..<count {
                    last += try reader.length()
                    guard last >= 0, last < pageCount else { return nil }  // (a first gap of 0 is -1)
                    kept.showing.append(UInt32(last))
                }
                kept.showingStarts.append(UInt32(kept.showing.count))
            }
            // (Each count and index was checked as it was read: what `isConsistent` asks holds.)
            guard reader.isAtEnd, kept.showing.count == showingCount else { return nil }
            return kept
        } catch {
            return nil
        }
    }

    /// Writes `kept`, made of a snapshot updated from (or derived as) the kept one of `basis`,
    /// at `path` (whole or not at all).
    static func write(path: String, identity: StoreIdentity, basis: UInt64, kept: KeptFingerprints) throws(BuildError) {
        try CacheFileWriter.write(path: path, header: header(identity: identity)) { writer throws(BuildError) in
            try writer.append { out in
                out.append(basis)
                out.append(kept.shared)
                out.append(kept.plan)
                out.append(length: kept.terms.lowerBound)
                out.append(length: kept.terms.count)
                out.append(length: kept.pages.count)
                out.append(length: kept.showing.count)
                out.append(length: kept.cards.count)
            }
            // Each list by index, a few thousand to a buffer's append.
            func appendEach(_ count: Int, _ body: (inout ByteWriter, Int) -> Void) throws(BuildError) {
                for start in stride(from: 0, to: count, by: 4096) {
                    try writer.append { out in for k in start..<min(count, start + 4096) { body(&out, k) } }
                }
            }
            try appendEach(kept.pages.count) { $0.append(kept.pages[$1]) }
            try appendEach(kept.cards.count) { $0.append(kept.cards[$1]) }
            try appendEach(kept.cards.count) { out, t in
                let pages = kept.showing[Int(kept.showingStarts[t])..<Int(kept.showingStarts[t + 1])]
                out.append(length: pages.count)
                var last = -1
                for page in pages {
                    out.append(length: Int(page) - last)
                    last = Int(page)
                }
            }
        }
    }
}
