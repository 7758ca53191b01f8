import JSON
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An image in the cache: its bytes are the file `blobPath`, named by their SHA-256.
package struct MediaImage: Sendable, Hashable {
    /// The URL it was downloaded from (as the store has it).
    package var url: String
    /// SHA-256 of the bytes, 64 lowercase hex digits.
    package var hash: String
    package var format: ImageFormat
    package var width: Int?
    package var height: Int?
    package var byteCount: Int
    /// The file in the cache.
    package var blobPath: String

    /// `{hash}.{ext}`.
    package var fileName: String { "\(hash).\(format.fileExtension)" }
    /// Where the image goes in the output: `media/{hash}.{ext}` (SPEC 9).
    package var outputPath: String { "media/" + fileName }
}

/// What the cache knows about one URL.
package struct MediaCacheEntry: Sendable, Hashable {
    package enum Content: Sendable, Hashable {
        case image(hash: String, format: ImageFormat, width: Int?, height: Int?, byteCount: Int)
        /// A lasting failure (`MediaFailure.isLasting`), so a rebuild does not ask again.
        case failure(MediaFailure)
    }

    package var url: String
    package var content: Content
    /// The validators of the response, for a conditional request on refresh.
    package var etag: String?
    package var lastModified: String?
    /// When it was downloaded or last revalidated (seconds since 1970).
    package var fetchedAt: Int64
}

package struct MediaCacheError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
}

/// The media cache (`--cache DIR`, default `.roost-cache/`): downloads stored by the hash of
/// their bytes, and what is known of each URL.
///
///     DIR/media/{sha256}.{ext}          the bytes of an image, never changed once there
///     DIR/urls/{xx}/{sha256(url)}.json  one URL: hash, ext, size, width, height, ETag,
///                                       Last-Modified, fetched-at (or a lasting failure)
///     DIR/tmp/                          files being written
///
/// Safe for several processes at once (`roost build` and `roost serve` on one folder) and
/// after SIGKILL, without a lock: every file is written under a unique name in `tmp/` and
/// renamed into place, so a reader sees the whole old file or the whole new one. A blob is
/// in place before any entry names it, and blobs are never rewritten with other bytes (their
/// name is their hash), so an entry never names a missing or partial blob; the size is
/// checked on every look-up all the same, and the hash when the bytes are read. Two
/// processes that download the same URL both write it; the later rename wins, and both
/// versions are whole. Temporary files older than an hour (left by a killed process) are
/// removed when a cache is opened. Nothing is fsync'ed (a cache can be downloaded again):
/// after a power cut a file may be empty, which the size check and the entry's parse catch.
package final class MediaCache: Sendable {
    package let folder: String
    private let counter = Atomic<Int>(0)

    /// Opens `folder`, creating it (and its parents) if missing.
    package init(folder: String) throws(MediaCacheError) {
        var path = folder
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.folder = path.isEmpty ? "." : path
        for sub in ["", "/media", "/urls", "/tmp"] {
            let error = makeDirectories(self.folder + sub)
            if error != 0 { throw MediaCacheError(path: self.folder + sub, reason: errnoText(error)) }
        }
        removeStaleTemporaries()
    }

    /// Where the bytes of `hash` in `format` are.
    package func blobPath(hash: String, format: ImageFormat) -> String {
        "\(folder)/media/\(hash).\(format.fileExtension)"
    }

    /// The file of `url`'s entry: the first two hex digits of its SHA-256 as a folder, so no
    /// folder holds more than a few hundred files for a store of a hundred thousand URLs.
    func entryPath(_ url: String) -> String {
        let key = SHA256.hex(url)
        return "\(folder)/urls/\(key.prefix(2))/\(key).json"
    }

    /// The entry of `url`, if the cache has one that can be used: an image entry whose blob is
    /// missing or of another size is no entry (the image is downloaded again).
    package func entry(for url: String) -> MediaCacheEntry? {
        guard let bytes = Self.readFile(entryPath(url)), let entry = Self.decode(bytes), entry.url == url
        else { return nil }
        if case .image(let hash, let format, _, _, let byteCount) = entry.content {
            var st = stat()
            guard stat(blobPath(hash: hash, format: format), &st) == 0, st.st_mode & S_IFMT == S_IFREG,
                Int(st.st_size) == byteCount
            else { return nil }
        }
        return entry
    }

    /// The image an entry names (nil for a failure).
    package func image(_ entry: MediaCacheEntry) -> MediaImage? {
        guard case .image(let hash, let format, let width, let height, let byteCount) = entry.content else {
            return nil
        }
        return MediaImage(
            url: entry.url, hash: hash, format: format, width: width, height: height, byteCount: byteCount,
            blobPath: blobPath(hash: hash, format: format))
    }

    /// The bytes of `image`, checked against its hash (`verify`) or at least its size: nil
    /// when the blob is missing or not what the entry says (then download it again).
    package func bytes(of image: MediaImage, verify: Bool = true) -> [UInt8]? {
        guard let bytes = Self.readFile(image.blobPath), bytes.count == image.byteCount else { return nil }
        if verify && SHA256.hex(bytes) != image.hash { return nil }
        return bytes
    }

    /// The blob named `fileName` (`{64 hex digits}.{ext}`, as in `MediaImage.fileName`), for
    /// `roost serve` to answer `media/…` from the cache: nil for any other name (no path
    /// can be made of it) or a missing blob.
    package func blobPath(fileName: String) -> String? {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let format = ImageFormat(fileExtension: String(parts[1]))
        else { return nil }
        let path = blobPath(hash: String(parts[0]), format: format)
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    /// Copies `image` to `{output}/media/{hash}.{ext}` (under a temporary name, then renamed),
    /// unless a file of its size is there already; the bytes are checked against the hash
    /// first. For writing a site without `SiteWriter`; a build passes `bytes(of:)` to its writer.
    package func copy(_ image: MediaImage, toOutput output: String) throws(MediaCacheError) {
        let folder = output + "/media"
        let error = makeDirectories(folder)
        if error != 0 { throw MediaCacheError(path: folder, reason: errnoText(error)) }
        let target = folder + "/" + image.fileName
        var st = stat()
        if stat(target, &st) == 0 && Int(st.st_size) == image.byteCount { return }
        guard let bytes = bytes(of: image) else {
            throw MediaCacheError(path: image.blobPath, reason: "missing, or not the bytes its name says")
        }
        try writeAtomically(target, bytes, temporaryFolder: folder)
    }

    /// Stores a download: the blob (unless the same bytes are there already), then the
    /// entry. `info` is what `ImageSniffer.identify` said of `bytes`.
    @discardableResult
    package func store(
        url: String, bytes: [UInt8], info: ImageInfo, etag: String? = nil, lastModified: String? = nil,
        now: Int64 = MediaCache.now()
    ) throws(MediaCacheError) -> MediaCacheEntry {
        let hash = SHA256.hex(bytes)
        let blob = blobPath(hash: hash, format: info.format)
        var st = stat()
        if !(stat(blob, &st) == 0 && Int(st.st_size) == bytes.count) {
            try writeAtomically(blob, bytes)
        }
        let entry = MediaCacheEntry(
            url: url,
            content: .image(
                hash: hash, format: info.format, width: info.width, height: info.height, byteCount: bytes.count),
            etag: etag, lastModified: lastModified, fetchedAt: now)
        try write(entry)
        return entry
    }

    /// Remembers a lasting failure of `url`.
    package func remember(url: String, failure: MediaFailure, now: Int64 = MediaCache.now()) throws(MediaCacheError) {
        try write(MediaCacheEntry(url: url, content: .failure(failure), etag: nil, lastModified: nil, fetchedAt: now))
    }

    /// Writes `entry` (after a 304: the same image, a new fetched-at and maybe new validators).
    package func write(_ entry: MediaCacheEntry) throws(MediaCacheError) {
        let path = entryPath(entry.url)
        let shard = String(path[..<path.lastIndex(of: "/")!])
        if mkdir(shard, 0o755) != 0 && errno != EEXIST {
            throw MediaCacheError(path: shard, reason: errnoText())
        }
        try writeAtomically(path, Self.encode(entry))
    }

    /// Seconds since 1970.
    package static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec)
    }

    // MARK: Files

    /// Writes `bytes` to a new file in `tmp/` (or `temporaryFolder`, on the same file system
    /// as `path`) and renames it to `path`.
    private func writeAtomically(_ path: String, _ bytes: [UInt8], temporaryFolder: String? = nil)
        throws(MediaCacheError)
    {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let name = "\(getpid())-\(n)-\(UInt32.random(in: 0...UInt32.max))"
        let temporary = temporaryFolder.map { "\($0)/.roost-media-\(name)" } ?? "\(folder)/tmp/\(name)"
        let error: Int32
        do {  // the file is closed at the end of this scope, before it is renamed
            guard let file = FileDescriptor(open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)) else {
                throw MediaCacheError(path: temporary, reason: errnoText())
            }
            error = bytes.withUnsafeBytes { writeAll(file.raw, $0) }
        }
        if error != 0 {
            unlink(temporary)
            throw MediaCacheError(path: temporary, reason: errnoText(error))
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw MediaCacheError(path: path, reason: errnoText(error))
        }
    }

    private func removeStaleTemporaries() {
        let tmp = folder + "/tmp"
        guard let folder = FileDescriptor(open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)),
            let names = try? DirectoryListing.names(in: folder.raw, dotNames: true).get()
        else { return }
        let hourAgo = Self.now() - 3600
        for name in names {
            var st = stat()
            if lstat(tmp + "/" + name, &st) == 0, Int64(st.st_mtim.tv_sec) < hourAgo { unlink(tmp + "/" + name) }
        }
    }

    /// The bytes of the regular file at `path`, or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        try? readWholeFile(path, regularOnly: true).get()
    }

    // MARK: Entries as JSON

    static func encode(_ entry: MediaCacheEntry) -> [UInt8] {
        var pairs: [(key: String, value: JSONValue)] = [("url", .string(entry.url))]
        switch entry.content {
        case .image(let hash, let format, let width, let height, let byteCount):
            pairs += [
                ("hash", .string(hash)), ("ext", .string(format.fileExtension)), ("size", .integer(Int64(byteCount))),
            ]
            if let width, let height {
                pairs += [("width", .integer(Int64(width))), ("height", .integer(Int64(height)))]
            }
        case .failure(let failure):
            pairs.append(("failure", encode(failure)))
        }
        if let etag = entry.etag { pairs.append(("etag", .string(etag))) }
        if let lastModified = entry.lastModified { pairs.append(("lastModified", .string(lastModified))) }
        pairs.append(("fetchedAt", .integer(entry.fetchedAt)))
        return JSONWriter.write(.object(pairs), pretty: false) + [0x0A]
    }

    static func decode(_ bytes: [UInt8]) -> MediaCacheEntry? {
        guard let value = try? JSONParser.parse(bytes), let url = value["url"]?.stringValue,
            case .integer(let fetchedAt)? = value["fetchedAt"]
        else { return nil }
        let content: MediaCacheEntry.Content
        if let failure = value["failure"] {
            guard let decoded = decodeFailure(failure) else { return nil }
            content = .failure(decoded)
        } else {
            guard let hash = value["hash"]?.stringValue, hash.count == 64,
                hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                let ext = value["ext"]?.stringValue, let format = ImageFormat(fileExtension: ext),
                case .integer(let size)? = value["size"], size >= 0
            else { return nil }
            var width: Int?
            var height: Int?
            if case .integer(let w)? = value["width"], case .integer(let h)? = value["height"], w > 0, h > 0 {
                width = Int(w)
                height = Int(h)
            }
            content = .image(hash: hash, format: format, width: width, height: height, byteCount: Int(size))
        }
        return MediaCacheEntry(
            url: url, content: content, etag: value["etag"]?.stringValue,
            lastModified: value["lastModified"]?.stringValue, fetchedAt: fetchedAt)
    }

    /// Only lasting failures are stored (`MediaFailure.isLasting`).
    private static func encode(_ failure: MediaFailure) -> JSONValue {
        switch failure {
        case .invalidURL: return .object([("kind", .string("invalid-url"))])
        case .notHTTP(let scheme): return .object([("kind", .string("not-http")), ("scheme", .string(scheme))])
        case .httpStatus(let code): return .object([("kind", .string("http")), ("status", .integer(Int64(code)))])
        case .tooLarge(let limit):
            return .object([("kind", .string("too-large")), ("limit", .integer(Int64(limit)))])
        case .notAnImage(let looksLike):
            return .object([("kind", .string("not-an-image")), ("looksLike", looksLike.map(JSONValue.string) ?? .null)])
        case .tooManyRedirects(let limit):
            return .object([("kind", .string("too-many-redirects")), ("limit", .integer(Int64(limit)))])
        case .redirectRefused(let target):
            return .object([("kind", .string("redirect-refused")), ("to", target.map(JSONValue.string) ?? .null)])
        case .remembered(let inner, _): return encode(inner)
        default: return .object([("kind", .string("other")), ("text", .string(failure.description))])
        }
    }

    private static func decodeFailure(_ value: JSONValue) -> MediaFailure? {
        func int(_ key: String) -> Int? {
            if case .integer(let n)? = value[key] { return Int(n) }
            return nil
        }
        switch value["kind"]?.stringValue {
        case "invalid-url": return .invalidURL
        case "not-http": return value["scheme"]?.stringValue.map { .notHTTP(scheme: $0) }
        case "http": return int("status").map { .httpStatus($0) }
        case "too-large": return int("limit").map { .tooLarge(limit: $0) }
        case "not-an-image": return .notAnImage(looksLike: value["looksLike"]?.stringValue)
        case "too-many-redirects": return int("limit").map { .tooManyRedirects(limit: $0) }
        case "redirect-refused": return .redirectRefused(to: value["to"]?.stringValue)
        default: return nil
        }
    }
}
