import Model
import Search

/// Every page of the site, in a fixed order (SPEC 3).
package struct SitePlan: Sendable {
    package let pages: [Page]
    package let paths: SitePaths
    package let config: SiteConfig
    /// Positions in `pages` of the HTML pages a sitemap lists, in plan order (found once:
    /// every part of a large sitemap needs them).
    let sitemapIndices: [Int32]

    /// The sitemap protocol's limit of URLs per file.
    package static let sitemapLimit = 50_000

    init(snapshot: Snapshot, paths: SitePaths, archive: ArchiveIndex, config: SiteConfig, search: SearchIndex) {
        let size = config.pageSize
        var pages: [Page] = []
        // The HTML pages are those `add` adds (a folder's index.html); the others are appended.
        var html: [Int32] = []
        // About as many as there will be (a few more): grown by doubling, the plan's pages
        // were copied some twenty times over.
        let listed = snapshot.tweets.count * 3 + snapshot.likeCount
        let estimate =
            snapshot.tweets.count + snapshot.users.count * 5 + snapshot.tags.count * 2 + listed / size
            + search.shards.count + search.docBuckets + search.userBuckets + 256
        pages.reserveCapacity(estimate)
        html.reserveCapacity(estimate)
        func pageCount(_ items: Int) -> Int { max(1, (items + size - 1) / size) }
        func add(_ kind: Page.Kind, _ folder: String) { add(kind, file: folder + SitePaths.index) }
        func add(_ kind: Page.Kind, file: String) {
            html.append(Int32(pages.count))
            pages.append(Page(kind: kind, path: file))
        }

        for n in 1...pageCount(snapshot.tweets.count) { add(.feed(page: n), paths.feed(page: n)) }
        for t in snapshot.tweets.indices { add(.tweet(TweetIndex(t)), file: paths.tweetFile(t)) }
        for (u, activity) in snapshot.userActivity.enumerated() {
            for tab in ProfileTab.allCases {
                let count =
                    switch tab {
                    case .tweets: activity.tweets.count
                    case .replies: activity.replies.count
                    case .likes: activity.likes.count
                    }
                for n in 1...pageCount(count) {
                    add(.profile(user: UserIndex(u), tab: tab, page: n), file: paths.profileFile(u, tab, page: n))
                }
            }
            add(.favorites(user: UserIndex(u)), file: paths.favoritesFile(u))
            pages.append(Page(kind: .atom(user: UserIndex(u)), path: paths.userFeed(u)))
        }
        for (i, tag) in snapshot.tags.enumerated() {
            for n in 1...pageCount(tag.tweets.count) {
                add(.tag(TagIndex(i), page: n), file: paths.tagFile(i, page: n))
            }
        }
        add(.archive, SitePaths.archive)
        for (y, year) in archive.years.enumerated() {
            for n in 1...pageCount(year.tweets.count) {
                add(.archiveYear(y, page: n), SitePaths.archive(year: year.year, page: n))
            }
            for (m, month) in year.months.enumerated() {
                for n in 1...pageCount(month.tweets.count) {
                    add(.archiveMonth(year: y, month: m, page: n), SitePaths.archive(month.month, page: n))
                }
            }
        }
        add(.tagIndex, SitePaths.tagIndex)
        add(.top, SitePaths.top)
        add(.stats, SitePaths.stats)
        add(.search, SearchIndex.folder)
        pages.append(Page(kind: .searchFile(.manifest), path: SearchIndex.manifestPath))
        pages.append(Page(kind: .searchFile(.days), path: SearchIndex.daysPath))
        for (i, shard) in search.shards.enumerated() {
            pages.append(Page(kind: .searchFile(.terms(i)), path: shard.path))
        }
        for b in 0..<search.docBuckets {
            pages.append(Page(kind: .searchFile(.docs(b)), path: SearchIndex.docsPath(b)))
        }
        for b in 0..<search.userBuckets {
            pages.append(Page(kind: .searchFile(.users(b)), path: SearchIndex.usersPath(b)))
        }
        pages.append(Page(kind: .atom(user: nil), path: "feed.xml"))
        pages.append(Page(kind: .notFound, path: "404.html"))
        let htmlPages = html.count
        // Sitemaps need absolute URLs (sitemaps.org): none with a path-only base.
        if config.hasAbsoluteBase {
            pages.append(Page(kind: .sitemap, path: "sitemap.xml"))
        }
        if config.hasAbsoluteBase, htmlPages > Self.sitemapLimit {
            for part in 1...((htmlPages + Self.sitemapLimit - 1) / Self.sitemapLimit) {
                pages.append(Page(kind: .sitemapPart(part), path: "sitemap-\(part).xml"))
            }
        }
        self.pages = pages
        self.paths = paths
        self.config = config
        sitemapIndices = html
    }
}
