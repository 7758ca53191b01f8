import Model
import Mustache
import Output
import Site
import Store
import Support

/// `roost build`: the store rendered into the output folder.
enum BuildCommand: Command {
    static let name = "build"
    static let summary = "render the store into a static site"
    static let options: Set<String> = ["store", "templates", "output", "base-url", "page-size", "viewer", "shard"]
    static let flags: Set<String> = ["strict", "quiet"]
    static let help = """
    usage: roost build [options]

    Renders the store into a static site: the feed, every profile with its Tweets,
    Replies and Likes tabs, favorites, tweet permalinks, hashtag pages, Atom feeds
    and a sitemap. Only files whose bytes changed are written; files an earlier
    build wrote and this one does not are removed (others are never touched). A
    build that fails leaves the output folder as it was.

    options:
      --store PATH       a directory store or a single-file export (default: content)
      --templates DIR    the theme (default: templates)
      --output DIR       where the site goes (default: public)
      --base-url URL     the URL path or absolute URL the site is served from (default: /)
      --page-size N      tweets per page (default: 20)
      --viewer HANDLE    render the site as this user sees it: their likes filled
      --strict           fail on warnings (dangling references), not only on errors
      --shard K/N        write only part K of N of the site (a stable split by URL), so N
                         machines can each build a part; copied together, the parts are
                         the whole site
      --quiet            print nothing but errors
    """

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        let options = BuildOptions(
            store: arguments.value("store", default: "content"),
            templates: arguments.value("templates", default: "templates"),
            output: arguments.value("output", default: "public"),
            config: SiteConfig(baseURL: arguments.value("base-url", default: "/"),
                               pageSize: try arguments.integer("page-size", default: 20, range: 1...10_000),
                               viewer: arguments.value("viewer")),
            strict: arguments.flag("strict"),
            quiet: arguments.flag("quiet"),
            shard: try arguments.value("shard").map(Shard.init(parsing:)))
        return try SiteBuild(options).run()
    }
}

struct BuildOptions {
    var store: String
    var templates: String
    var output: String
    var config: SiteConfig
    var strict: Bool
    var quiet: Bool
    var shard: Shard?
}

/// `--shard K/N`: part K (1-based) of N of the site's files, split by a stable hash of each
/// file's path, so every machine of a job runner agrees on the split without talking.
struct Shard {
    let index: Int
    let count: Int

    init(parsing text: String) throws(UsageError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw UsageError("--shard takes K/N with 1 ≤ K ≤ N, like 2/4; not '\(text)'")
        }
        index = k
        count = n
    }

    /// FNV-1a of the path: the same on every machine and in every build.
    func contains(_ path: String) -> Bool {
        Int(StableHash.fnv1a(path) % UInt64(count)) == index - 1
    }
}
