import Support

/// Where and how a mirrored site's images are kept (SPEC 9); the mode itself is
/// `SiteConfig.media`, since it changes what pages say.
package struct MediaOptions: Sendable, Equatable {
    /// The cache folder (`--cache DIR`), shared by builds and `roost serve`.
    package var cache: String
    /// `--offline`: the cache alone, no connection.
    package var offline: Bool
    /// `--refresh-media`: ask again for every cached image (conditional requests).
    package var refresh: Bool
    /// `--media-allow`: networks mirroring may connect to although they are loopback,
    /// private, link-local, … (a local picture server); every public address is allowed.
    package var allow: [IPNetwork] = []

    package static let defaultCache = ".roost-cache"

    package init(cache: String = MediaOptions.defaultCache, offline: Bool = false, refresh: Bool = false) {
        self.cache = cache
        self.offline = offline
        self.refresh = refresh
    }
}
