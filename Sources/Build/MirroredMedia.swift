import Dispatch
import Media
import Model
import Output
import Site
import Support
import Synchronization

/// The remote images of a snapshot mirrored through the cache (SPEC 9, `--media mirror`):
/// what pages point at, the files to write into `media/`, and a warning per use of an image
/// that could not be mirrored. Shared by `roost build` and `roost serve`.
package struct MirroredMedia: Sendable {
    /// Per URL, its copy: what `SiteRenderer` is given.
    package let images: SiteImages
    /// One per use (document and field) of an image without a copy; that page shows the placeholder.
    package let warnings: [Diagnostic]
    package let statistics: MediaStatistics
    /// The blobs to write, once each, by output path.
    let files: [String: MediaImage]
    package let cache: MediaCache

    /// The `User-Agent` of every download.
    package static let userAgent = "Roost/\(RoostVersion.current) (static site generator; mirroring a site's images)"

    /// Every remote image `snapshot` uses, with the document and field, in a stable order:
    /// users' pictures and bios' images, then captions' images.
    package static func references(in snapshot: Snapshot) -> [MediaReference] {
        var references: [MediaReference] = []
        for user in snapshot.users {
            let path = "users/\(user.uid)"
            if let url = user.profileImageURL {
                references.append(MediaReference(url: url, path: path, field: "profileImageUrl"))
            }
            for url in user.bioImages { references.append(MediaReference(url: url, path: path, field: "bio")) }
        }
        return references + captionReferences(of: snapshot.tweets.indices, in: snapshot)
    }

    /// The images of the captions of `tweets` (indices into `snapshot.tweets`).
    package static func captionReferences(of tweets: some Sequence<Int>, in snapshot: Snapshot) -> [MediaReference] {
        tweets.flatMap { t in
            let tweet = snapshot.tweets[t]
            return tweet.images.map { MediaReference(url: $0, path: "tweets/\(tweet.id)", field: "caption") }
        }
    }

    /// Opens the cache (creating it) and mirrors `references`; `progress(done, total)` as URLs
    /// are settled. Only the cache folder can make this fail; an image that cannot be had is
    /// a warning.
    package static func mirror(
        _ references: [MediaReference], options: MediaOptions, progress: ((Int, Int) -> Void)? = nil
    ) throws(BuildError) -> MirroredMedia {
        var mirrorOptions = MediaMirror.Options(
            userAgent: userAgent, offline: options.offline, refresh: options.refresh)
        mirrorOptions.limits.addresses = AddressRule(allowed: options.allow)
        let mirror: MediaMirror
        do {
            mirror = try MediaMirror(cache: options.cache, options: mirrorOptions)
        } catch {
            throw .mediaCache(error.description)
        }
        return MirroredMedia(mirror.fetch(references, progress: progress), references, cache: mirror.cache)
    }

    private init(
        images: SiteImages, warnings: [Diagnostic], statistics: MediaStatistics, files: [String: MediaImage],
        cache: MediaCache
    ) {
        self.images = images
        self.warnings = warnings
        self.statistics = statistics
        self.files = files
        self.cache = cache
    }

    /// These copies and `other`'s (a live preview's edit that brought new images); the warnings
    /// and statistics are `other`'s.
    package func merging(_ other: MirroredMedia) -> MirroredMedia {
        MirroredMedia(
            images: SiteImages(images.copies.merging(other.images.copies) { _, new in new }),
            warnings: other.warnings, statistics: other.statistics,
            files: files.merging(other.files) { _, new in new }, cache: other.cache)
    }

    /// The blob of a copy this mirror has (`media/{hash}.{ext}`), for a live preview to serve.
    package func file(at path: String) -> [UInt8]? {
        guard let image = files[path] else { return nil }
        return cache.bytes(of: image, verify: false)
    }

    init(_ results: MediaResults, _ references: [MediaReference], cache: MediaCache) {
        var copies: [String: SiteImages.Copy] = [:]
        for (url, outcome) in results.outcomes {
            if case .success(let image) = outcome {
                copies[url] = SiteImages.Copy(path: image.outputPath, width: image.width, height: image.height)
            }
        }
        images = SiteImages(copies)
        warnings = results.warnings(for: references).map {
            Diagnostic(
                $0.failure.isAddressRefusal ? .imageAddressRefused : .imageNotMirrored, path: $0.reference.path,
                field: $0.reference.field,
                "\($0.reference.url): \($0.failure); the placeholder is shown")
        }
        statistics = results.statistics
        files = Dictionary(results.images.map { ($0.outputPath, $0) }, uniquingKeysWith: { a, _ in a })
        self.cache = cache
    }

    /// Images per task where they are staged on all cores.
    private static let imageChunk = 64

    /// Output paths of the copies (`media/{hash}.{ext}`), sorted.
    package var paths: [String] { files.keys.sorted() }

    /// Stages every copy (of `shard`) with `writer`, on all cores: a file the last build wrote
    /// from the same bytes is kept without reading it (its fingerprint is its hash). Returns
    /// how many there are.
    func write(into writer: SiteWriter, shard: Shard?) throws -> Int {
        let files = paths.filter { shard?.contains($0) ?? true }.map { self.files[$0]! }
        let cache = self.cache
        try parallelForEach(count: files.count, chunk: Self.imageChunk) { i in
            let image = files[i]
            let fingerprint = UInt64(image.hash.prefix(16), radix: 16)!
            if try writer.keep(image.outputPath, fingerprint: fingerprint) { return }
            // Checked against its hash: a damaged blob never reaches the site.
            guard let bytes = cache.bytes(of: image) else {
                throw BuildError.mediaCache("\(image.blobPath): missing or damaged since it was looked up; build again")
            }
            _ = try writer.write(image.outputPath, bytes, fingerprint: fingerprint)
        }
        return files.count
    }
}
