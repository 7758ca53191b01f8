import Support

/// Where and how a mirrored site's images are kept (SPEC 9); the mode itself is
/// `SiteConfig.media`, since it changes what pages say.
public struct MediaOptions: Sendable, Equatable {
    /// The cache folder (`--cache DIR`), shared by builds and `roost serve`.
    public var cache: String
    /// `--offline`: the cache alone, no connection.
    public var offline: Bool
    /// `--refresh-media`: ask again for every cached image (conditional requests).
    public var refresh: Bool
    /// `--media-allow`: networks mirroring may connect to although they are loopback,
    /// private, link-local, … (a local picture server); every public address is allowed.
    package var allow: [IPNetwork] = []

    public static let defaultCache = ".roost-cache"

    public init(cache: String = MediaOptions.defaultCache, offline: Bool = false, refresh: Bool = false) {
        self.cache = cache
        self.offline = offline
        self.refresh = refresh
    }
}
