/// One file of the site and what it shows.
package struct Page: Sendable, Hashable {
    /// Each kind's template, view and fingerprint are its `declaration` (`PageDeclaration`).
    package enum Kind: Sendable, Hashable {
        /// The feed, 1-based page number.
        case feed(page: Int)
        /// A tweet's permalink (index into the snapshot's tweets).
        case tweet(TweetIndex)
        /// A profile tab of a user (index into the snapshot's users).
        case profile(user: UserIndex, tab: ProfileTab, page: Int)
        case favorites(user: UserIndex)
        /// A hashtag page (index into the snapshot's tags).
        case tag(TagIndex, page: Int)
        /// The Atom feed of the whole site (nil) or of one user.
        case atom(user: UserIndex?)
        /// `sitemap.xml`: the only one, or the index of parts past 50,000 URLs.
        case sitemap
        /// A part of a split sitemap, 1-based.
        case sitemapPart(Int)
        case notFound
        /// `/archive/`: the years (SPEC 7).
        case archive
        /// A year of the archive (index into `ArchiveIndex.years`).
        case archiveYear(Int, page: Int)
        /// A month of the archive (indices into `ArchiveIndex.years` and its `months`).
        case archiveMonth(year: Int, month: Int, page: Int)
        /// `/tags/`, `/top/`, `/stats/` (SPEC 7).
        case tagIndex, top, stats
        /// `search/index.html`: the search page (SPEC 8).
        case search
        /// A script file of the search index (`SearchIndex`, `SearchData`).
        case searchFile(SearchFile)
    }

    package let kind: Kind
    /// The file's path from the output folder's root: `u/mina/likes/page/2/index.html`.
    package let path: String

    /// A term shard of the search index: bytes made with the index, not rendered.
    package var isSearchTermShard: Bool {
        if case .searchFile(.terms) = kind { return true }
        return false
    }
}

/// The Tweets / Replies / Likes tabs of a profile.
package enum ProfileTab: String, Sendable, Hashable, CaseIterable {
    case tweets, replies, likes

    /// The folder under `u/{handle}/`: empty for the Tweets tab.
    var folder: String { self == .tweets ? "" : rawValue + "/" }
}

/// The script files of search, besides the page.
package enum SearchFile: Sendable, Hashable {
    /// `search/index.js`: counts and the shard list.
    case manifest
    /// `search/days.js`: the first tweet of each day.
    case days
    /// A term shard (index into `SearchIndex.shards`).
    case terms(Int)
    /// Result cards' data of a bucket of tweet numbers.
    case docs(Int)
    /// Users' data of a bucket of user numbers.
    case users(Int)
}
