import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Remote images mirrored into a cache, for a site that makes no request to another host
/// (SPEC 9). Knows no site, template or store: it takes URLs with the document and field
/// that use them, and gives, per URL, an image in the cache or the reason there is none.
///
/// ## How the build uses it (SPEC 9: `Build/MirroredMedia.swift`)
///
/// `--media link|mirror|none` (config key `media`) chooses; only `mirror` makes a
/// `MediaMirror`, in one place of the build, after the snapshot is read and before pages are
/// rendered (`link` and `none` never touch the network or the cache), roughly:
///
///     let media = try MediaMirror(
///         cache: options.cacheFolder,                      // --cache DIR, default ".roost-cache"
///         options: .init(userAgent: "Roost/\(RoostVersion.current)",
///                        offline: options.offline,         // --offline: the cache alone
///                        refresh: options.refreshMedia))   // --refresh-media: conditional GETs
///     let results = media.fetch(references) { done, total in observer.progress(done, total) }
///     for warning in results.warnings(for: references) { report(warning) }  // that page: placeholder
///     for image in results.images {                                        // media/{hash}.{ext}
///         writer.write(image.outputPath, media.cache.bytes(of: image)!)    // or cache.copy(image, toOutput:)
///     }
///
/// `references` are every profile picture and every image of a caption or bio, each with
/// its document's path and field. A page then points at `results.image(url)?.outputPath`
/// (with `width` and `height` when known) and at the placeholder when there is none; the
/// CSP can say `img-src 'self' data:`. A warm cache makes no connection at all (a rebuild
/// costs a file read and a `stat` per URL); a failure that will not change soon (a 404, not an
/// image, too large) is remembered for `rememberFailures` seconds so a rebuild does not ask
/// again, and a refresh asks again for everything. `roost serve` can share the cache folder
/// with builds (see `MediaCache`) and answer `media/…` with `cache.blobPath(fileName:)`.
package final class MediaMirror: Sendable {
    package struct Options: Sendable {
        package var limits: FetchLimits
        /// Only the cache: no connection is ever opened; a URL it does not have fails.
        package var offline = false
        /// Ask again for every cached URL: a conditional GET (`If-None-Match`,
        /// `If-Modified-Since`) when the cache has validators, and a 304 keeps the copy. A
        /// refresh that fails keeps the cached copy too (`MediaResults.keptStale`).
        package var refresh = false
        /// Seconds a lasting failure (`MediaFailure.isLasting`) is remembered; 0: never.
        package var rememberFailures = 86_400.0

        package init(userAgent: String, offline: Bool = false, refresh: Bool = false) {
            limits = FetchLimits(userAgent: userAgent)
            self.offline = offline
            self.refresh = refresh
        }
    }

    package let cache: MediaCache
    package let options: Options

    package init(cache folder: String, options: Options) throws(MediaCacheError) {
        cache = try MediaCache(folder: folder)
        self.options = options
    }

    package init(cache: MediaCache, options: Options) {
        self.cache = cache
        self.options = options
    }

    /// Each distinct URL of `references` from the cache or downloaded (blocking; at most
    /// about the total timeout per host queue, see `MediaFetcher`). `progress(done, total)`
    /// is called on this thread as URLs are settled, for a progress bar.
    package func fetch(_ references: [MediaReference], progress: ((Int, Int) -> Void)? = nil) -> MediaResults {
        let began = Self.monotonic()
        var urls: [String] = []
        var seen = Set<String>()
        for reference in references where seen.insert(reference.url).inserted { urls.append(reference.url) }

        var results = MediaResults()
        results.statistics.urls = urls.count
        let total = urls.count
        var done = 0
        let now = MediaCache.now()
        let cache = self.cache
        let options = self.options

        // What the cache says, on all cores (a file or two per URL).
        let plans = urls.parallelMap { url in Self.plan(url, cache: cache, options: options, now: now) }
        var jobs: [MediaFetcher.Job] = []
        for (url, plan) in zip(urls, plans) {
            switch plan {
            case .settled(let outcome):
                results.settle(url, outcome, fromCache: true)
                done += 1
            case .download(let job):
                jobs.append(job)
            }
        }
        if done > 0 { progress?(done, total) }

        if !jobs.isEmpty {
            results.statistics.requests = jobs.count
            MediaFetcher(limits: options.limits).run(jobs) { i, outcome in
                let job = jobs[i]
                let result = keep(job, outcome, in: &results)
                results.settle(job.url, result, fromCache: false)
                done += 1
                progress?(done, total)
            }
        }
        results.statistics.seconds = Self.monotonic() - began
        return results
    }

    /// What a download's outcome leaves in the cache, and the URL's result.
    private func keep(_ job: MediaFetcher.Job, _ outcome: MediaFetcher.Outcome, in results: inout MediaResults)
        -> Result<MediaImage, MediaFailure>
    {
        switch outcome {
        case .downloaded(let bytes, let info, let etag, let lastModified):
            results.statistics.downloadedBytes += bytes.count
            do {
                let entry = try cache.store(
                    url: job.url, bytes: bytes, info: info, etag: etag, lastModified: lastModified)
                results.statistics.downloaded += 1
                return .success(cache.image(entry)!)
            } catch {
                return .failure(.cache(error.description))
            }
        case .notModified(let etag, let lastModified):
            var entry = job.revalidating!
            entry.fetchedAt = MediaCache.now()
            if let etag { entry.etag = etag }
            if let lastModified { entry.lastModified = lastModified }
            try? cache.write(entry)
            results.statistics.notModified += 1
            return .success(cache.image(entry)!)
        case .failed(let failure):
            if let cached = job.revalidating, let image = cache.image(cached) {
                results.keptStale[job.url] = failure
                return .success(image)
            }
            if failure.isLasting && options.rememberFailures > 0 {
                try? cache.remember(url: job.url, failure: failure)
            }
            return .failure(failure)
        }
    }

    private enum Plan: Sendable {
        case settled(Result<MediaImage, MediaFailure>)
        case download(MediaFetcher.Job)
    }

    private static func plan(_ url: String, cache: MediaCache, options: Options, now: Int64) -> Plan {
        let entry = cache.entry(for: url)
        // A cached image: its URL was checked when it was downloaded (a warm build's path).
        if case .image? = entry?.content, !options.refresh || options.offline {
            return .settled(.success(cache.image(entry!)!))
        }
        let request: String
        let host: String
        let name: String
        switch MediaFetcher.parse(url) {
        case .failure(let failure): return .settled(.failure(failure))
        case .success(let parsed): (request, host, name) = parsed
        }
        switch entry?.content {
        case .image?:
            // A refusal of the refresh keeps the copy, as any failed refresh does.
            return .download(MediaFetcher.Job(url: url, request: request, host: host, revalidating: entry))
        case .failure(let failure)?:
            let fresh = Double(now - entry!.fetchedAt) < options.rememberFailures
            if options.offline || (fresh && !options.refresh) {
                return .settled(.failure(.remembered(failure, since: entry!.fetchedAt)))
            }
        case nil:
            if options.offline { return .settled(.failure(.notCached)) }
        }
        if let refusal = MediaFetcher.refusal(ofHost: name, rule: options.limits.addresses) {
            return .settled(.failure(refusal))
        }
        return .download(MediaFetcher.Job(url: url, request: request, host: host, revalidating: nil))
    }

    private static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// What `MediaMirror.fetch` found: per URL, the image in the cache or the failure.
package struct MediaResults: Sendable {
    package var outcomes: [String: Result<MediaImage, MediaFailure>] = [:]
    /// URLs whose refresh failed: the cached copy was kept (it is among the images), and
    /// this is why (worth a note, not a warning).
    package var keptStale: [String: MediaFailure] = [:]
    package var statistics = MediaStatistics()

    package init() {}

    package subscript(url: String) -> Result<MediaImage, MediaFailure>? { outcomes[url] }

    /// The image of `url`, if it was mirrored.
    package func image(_ url: String) -> MediaImage? {
        if case .success(let image)? = outcomes[url] { return image }
        return nil
    }

    /// Every mirrored image once per blob (two URLs may have the same bytes), by output path:
    /// what the build writes into `media/`.
    package var images: [MediaImage] {
        var byPath: [String: MediaImage] = [:]
        for case .success(let image) in outcomes.values where byPath[image.outputPath] == nil {
            byPath[image.outputPath] = image
        }
        return byPath.keys.sorted().map { byPath[$0]! }
    }

    /// One warning per reference whose URL failed, in the references' order.
    package func warnings(for references: [MediaReference]) -> [MediaWarning] {
        references.compactMap { reference in
            guard case .failure(let failure)? = outcomes[reference.url] else { return nil }
            return MediaWarning(reference: reference, failure: failure)
        }
    }

    mutating func settle(_ url: String, _ outcome: Result<MediaImage, MediaFailure>, fromCache: Bool) {
        outcomes[url] = outcome
        switch outcome {
        case .success: if fromCache { statistics.fromCache += 1 }
        case .failure: statistics.failed += 1
        }
    }
}

/// Counts of a `fetch`, for the build's report and the benchmark.
package struct MediaStatistics: Sendable, Hashable {
    /// Distinct URLs asked for.
    package var urls = 0
    /// Images taken from the cache without a request.
    package var fromCache = 0
    /// Requests started (a redirect chain is one).
    package var requests = 0
    /// Images downloaded and stored.
    package var downloaded = 0
    /// Cached images a conditional request found current (304).
    package var notModified = 0
    /// URLs without an image (remembered failures and offline misses included).
    package var failed = 0
    /// Bytes of the images downloaded.
    package var downloadedBytes = 0
    package var seconds = 0.0

    package init() {}
}
