import Media
import Model
import Output

/// What a build did.
package struct BuildReport: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// The store, the theme and the options are as they were at the last build, and its
        /// files are intact: nothing was read or written.
        case nothingChanged
        /// The site was rendered; the summary says what was written, kept and removed.
        case built(WriteSummary)
    }

    package let outcome: Outcome
    /// Pages of the site (of this shard), written or kept.
    package let pages: Int
    /// Of `pages`, those rendered; the others had the fingerprint they had at the last build
    /// and were kept without rendering them.
    package var pagesRendered = 0
    /// Files copied from the theme's `static/` folder (of this shard).
    package let staticFiles: Int
    /// Dangling references, and images `--media mirror` could not copy: the pages were built
    /// without the missing part (the placeholder).
    package let warnings: [Diagnostic]
    /// What a user may want to know about the build (a page not written, and why).
    package let notices: [BuildNotice]
    package let elapsed: Duration
    /// Images written into `media/` (of this shard), with `--media mirror`.
    package var mediaFiles = 0
    /// What mirroring did (from the cache, downloaded, failed), with `--media mirror`.
    package var media: MediaStatistics? = nil
    /// With the build cache: how many store files were read and decoded, and how many were
    /// taken from the cache (a single-file store counts as one file).
    package var storeFiles: (read: Int, cached: Int)? = nil
    /// With the build cache: the snapshot the last build derived was taken from the cache
    /// and brought up to date with the tweets whose content changed, not derived again.
    package var snapshotReused = false
    /// With the build cache: the search index was cut from the postings kept with that
    /// snapshot (`SearchCache`), updated with the captions edited since, not made from every tweet.
    package var searchReused = false
    /// With the build cache: the pages' fingerprints were taken from those kept with that
    /// snapshot (`FingerprintCache`), only the pages that show a changed card made again.
    package var fingerprintsReused = false
    /// With the build cache and a directory store: which of the store's folders were listed
    /// to find its files.
    package var storeListing = StoreListing.whole
    /// With the build cache and a directory store: how many folders the stamp walk listed, and
    /// of how many it took the names the last walk listed, their own stamps not having moved
    /// (`ListingCache`).
    package var storeWalk: (listed: Int, taken: Int)? = nil

    package enum StoreListing: Sendable, Equatable {
        /// Every folder (no cache, or too much moved).
        case whole
        /// Only those whose names or kinds moved since the cache was written (or that are
        /// new); the cache knew what the others hold. `.folders(0)`: none.
        case folders(Int)
    }
}
