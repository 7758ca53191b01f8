/// What a user may want to know about a build that went on: a file it left out on purpose,
/// or a cache it could not keep. Says what happened; the command line adds what to do.
package enum BuildNotice: Sendable, Hashable, CustomStringConvertible {
    /// No `sitemap.xml`: a sitemap needs absolute URLs, and the base URL is a path.
    case noSitemap(baseURL: String)
    /// The build cache could not be written (`BuildError.cache`'s words); the build went on
    /// without it.
    case cache(String)
    /// The store is a database: this many documents were read from it (Firestore bills each).
    case documentsRead(Int, database: String)

    package var description: String {
        switch self {
        case .noSitemap(let base):
            "no sitemap.xml: a sitemap needs absolute URLs, and the base URL '\(base)' is a path; "
                + "give an absolute one to write it"
        case .cache(let text): text
        case .documentsRead(let count, let database): "\(count) documents read from \(database)"
        }
    }
}
