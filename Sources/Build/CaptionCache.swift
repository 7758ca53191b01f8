import Search
import Site
import Support

/// The build cache of captions (docs/architecture.md, "The build cache"): what a build made
/// of each caption text, kept for the next build of the same store: its search keys
/// (`SearchIndex.captionKeys`) and its HTML and excerpt (`CaptionRender`, valid for the
/// context it was rendered in). Parsing captions with cmark twice over (pages and search)
/// is, after reading the store, most of what a rebuild spends before rendering.
///
/// One `CacheFile` per store, `captions-<hash of its real path>.cache`; keyed by the caption
/// text itself, so a caption is never taken for another.
final class CaptionCache: Sendable {
    static let format = "captions 1"

    private struct Entry: Sendable {
        let keys: [String]
        let render: CaptionRender
    }

    /// The context the renders were made in (`SiteRenderer.captionContext`).
    private let context: UInt64
    private let entries: [String: Entry]

    private init(context: UInt64, entries: [String: Entry]) {
        self.context = context
        self.entries = entries
    }

    static func path(folder: String, identity: StoreIdentity) -> String {
        identity.cachePath(in: folder, name: "captions")
    }

    static func header(identity: StoreIdentity) -> [String] { [format, CacheFile.writer, identity.path] }

    /// The cache at `path` when it is whole and this binary wrote it for `identity`; nil otherwise.
    static func load(path: String, identity: StoreIdentity) -> CaptionCache? {
        guard let file = CacheFile.open(path, header: header(identity: identity)) else { return nil }
        var reader = file.reader
        do {
            let context = try reader.uint64()
            let count = try reader.length()
            var entries: [String: Entry] = [:]
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let caption = try reader.string()
                let render = CaptionRender(html: try reader.string(), excerpt: try reader.string())
                entries[caption] = Entry(keys: try reader.strings(), render: render)
            }
            guard reader.isAtEnd else { return nil }
            return CaptionCache(context: context, entries: entries)
        } catch {
            return nil
        }
    }

    /// The search keys of `caption`, when known.
    func keys(_ caption: String) -> [String]? { entries[caption]?.keys }

    /// The render of `caption` in `context`, when known.
    func render(_ caption: String, context: UInt64) -> CaptionRender? {
        context == self.context ? entries[caption]?.render : nil
    }

    /// `render(_:context:)` as a `SiteRenderer` takes it.
    var renders: CaptionRenders { { [self] caption, context in render(caption, context: context) } }

    /// How many of `captions` the cache lacks, or how many it holds that are none of them,
    /// whichever is more (an edited caption is one of each); nil when its renders were made
    /// in another context (then none of it serves).
    func drift(_ captions: Set<String>, context: UInt64) -> Int? {
        guard context == self.context else { return nil }
        let missing = captions.count { entries[$0] == nil }
        return max(missing, entries.count - (captions.count - missing))
    }

    /// Writes the cache of `identity` at `path`: each distinct caption of `tweets` (indices into
    /// `captions`) with its keys and render.
    static func write(
        path: String, identity: StoreIdentity, context: UInt64, captions: [String], keys: [[String]],
        renders: (Int) -> CaptionRender
    ) throws(BuildError) {
        var seen = Set<String>()
        let distinct = captions.indices.filter { seen.insert(captions[$0]).inserted }
        let file = try CacheFileWriter(path: path, header: header(identity: identity))
        do throws(BuildError) {
            try file.append {
                $0.append(context)
                $0.append(length: distinct.count)
            }
            for t in distinct {
                let render = renders(t)
                try file.append {
                    $0.append(captions[t])
                    $0.append(render.html)
                    $0.append(render.excerpt)
                    $0.append(keys[t])
                }
            }
        } catch {
            file.abandon()
            throw error
        }
        try file.finish()
    }
}
