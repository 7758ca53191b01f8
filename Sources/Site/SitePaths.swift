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
    package func userFeed(_ user: Int) -> String { Self.joined("u/", handles[user], "/", "feed.xml") }
    package func tag(_ index: Int, page: Int) -> String { Self.paged("tags/\(tagSlugs[index])/", page) }

    // The files of the pages a plan lists by the thousand (`folder + index.html`), each made
    // in one allocation: a folder made, then extended, was two or three per page.
    func tweetFile(_ index: Int) -> String { Self.joined("t/", tweetSlugs[index], "/", Self.index) }
    func profileFile(_ user: Int, _ tab: ProfileTab, page: Int) -> String {
        Self.joined("u/", handles[user], "/", tab.folder, Self.pagedIndex(page))
    }
    func favoritesFile(_ user: Int) -> String { Self.joined("u/", handles[user], "/favorites/", Self.index) }
    func tagFile(_ index: Int, page: Int) -> String {
        Self.joined("tags/", tagSlugs[index], "/", Self.pagedIndex(page))
    }

    /// `index.html` of page `page` of a folder, from the folder.
    private static func pagedIndex(_ page: Int) -> String { page <= 1 ? index : "page/\(page)/" + index }

    /// The parts as one string, of one allocation.
    private static func joined(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String = "") -> String {
        var s = String()
        s.reserveCapacity(a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count + e.utf8.count)
        s += a
        s += b
        s += c
        s += d
        s += e
        return s
    }

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
