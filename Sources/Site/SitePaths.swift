import Model
import Support

/// Where every page lives (SPEC 3). Folders end in `/`; files are `folder + index.html`.
/// Links in pages are these paths, relative to the site root (pages carry `<base>`).
///
/// Made once per build from the snapshot's names (each tweet's slug, each user's handle, each
/// tag's slug), so that asking for a path computes nothing but the string.
package struct SitePaths: Sendable {
    /// Per tweet (snapshot order): the folder name under `t/`.
    private let tweetSlugs: [String]
    /// Per user: the folder name under `u/`.
    private let handles: [String]
    /// Per hashtag (snapshot order): the folder name under `tags/`.
    private let tagSlugs: [String]

    package init(snapshot: Snapshot) {
        // (By index: mapping the tweets copied, and retained, each whole tweet.)
        tweetSlugs = Self.caseSafe(
            snapshot.tweets.indices.map { Slug.id(snapshot.tweets[$0].id) }, names: { snapshot.tweets[$0].id })
        handles = snapshot.users.indices.map { snapshot.users[$0].handle }  // case-safe already (Model)
        tagSlugs = Self.caseSafe(snapshot.tags.map { Slug.tag($0.tag) }, names: { snapshot.tags[$0].tag })
    }

    /// `slugs` where none differs from another only in case (a case-insensitive file system
    /// would make them one folder): those that do take the hashed form of their name. Names
    /// that clash with none keep their readable slug, so the common case stays stable.
    private static func caseSafe(_ slugs: [String], names: (Int) -> String) -> [String] {
        var slugs = slugs
        for group in CaseFold.clashes(in: slugs) {
            for i in group { slugs[i] = Slug.hashed(names(i)) }
        }
        return slugs
    }

    package static let index = "index.html"

    /// `page/N/` under a folder, for N ≥ 2.
    static func paged(_ folder: String, _ page: Int) -> String {
        page <= 1 ? folder : folder + "page/\(page)/"
    }

    package func feed(page: Int) -> String { Self.paged("", page) }
    package func tweet(_ index: Int) -> String { "t/\(tweetSlugs[index])/" }
    package func user(_ index: Int) -> String { "u/\(handles[index])/" }
    package func profile(_ user: Int, _ tab: ProfileTab, page: Int) -> String {
        Self.paged(self.user(user) + tab.folder, page)
    }
    package func favorites(_ user: Int) -> String { self.user(user) + "favorites/" }
    package func userFeed(_ user: Int) -> String { self.user(user) + "feed.xml" }
    package func tag(_ index: Int, page: Int) -> String { Self.paged("tags/\(tagSlugs[index])/", page) }

    // Browsing by date and by number (SPEC 7).
    package static let archive = "archive/"
    static func archive(year: Int, page: Int) -> String {
        paged(archive + Month(year: year, month: 1).yearText + "/", page)
    }
    static func archive(_ month: Month, page: Int) -> String {
        paged(archive + month.yearText + "/" + month.monthText + "/", page)
    }
    package static let tagIndex = "tags/"
    package static let top = "top/"
    package static let stats = "stats/"

    /// A folder path as an `href`: `index.html` appended (so `file://` opens the page, not a
    /// listing) and non-ASCII bytes percent-encoded.
    package static func href(_ folder: String) -> String {
        Slug.percentEncoded(folder.hasSuffix("/") || folder.isEmpty ? folder + index : folder)
    }

    /// `../../` for `u/mina/index.html`; `./` at the root.
    package static func root(of path: String) -> String {
        let depth = path.utf8.count { $0 == UInt8(ascii: "/") }
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }
}
