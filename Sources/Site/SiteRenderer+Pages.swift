import Model
import Mustache
import Search

/// The template and context of each kind of HTML page.
extension SiteRenderer {
    /// The template of each kind of page (all in `requiredTemplates`); nil for the files Roost
    /// writes without one. (`TemplateSalts` salts a page with this template: render with no other.)
    static func template(for kind: Page.Kind) -> String? {
        switch kind {
        case .feed: "feed"
        case .tweet: "tweet"
        case .profile: "profile"
        case .favorites: "favorites"
        case .tag: "tag"
        case .notFound: "404"
        case .search: "search"
        case .archive: "archive"
        case .archiveYear: "archive-year"
        case .archiveMonth: "archive-month"
        case .tagIndex: "tags"
        case .top: "top"
        case .stats: "stats"
        case .atom: "atom"
        case .sitemap, .sitemapPart, .searchFile: nil
        }
    }

    /// The partial each tweet's card is rendered with (`card(_:)`).
    static let cardTemplate = "partials/card"

    /// The context of an HTML page (rendered with `template(for: page.kind)`).
    func pageView(_ page: Page) throws -> PageView {
        if let found = try browsePageView(page) { return found }
        return switch page.kind {
        case .feed(let number): try feedPage(number, path: page.path)
        case .tweet(let index): try tweetPage(index, path: page.path)
        case .profile(let user, let tab, let number): try profilePage(user, tab, number, path: page.path)
        case .favorites(let user): try favoritesPage(user, path: page.path)
        case .tag(let index, let number): try tagPage(index, number, path: page.path)
        case .notFound: try notFoundPage(path: page.path)
        case .search: try searchPage(path: page.path)
        case .atom, .sitemap, .sitemapPart, .searchFile: preconditionFailure("not an HTML page: \(page.path)")
        default: preconditionFailure("no view for \(page.path)")
        }
    }

    /// `view` with its title and description: the texts `title.…` and `description.…` rendered
    /// in the page's own context (docs/templates.md, "Words").
    func titled(_ view: PageView, _ kind: String, description: String? = nil) throws -> PageView {
        var view = view
        view.title = try site.words.text("title." + kind, view)
        view.description = try description ?? site.words.text("description." + kind, view)
        return view
    }

    private func feedPage(_ number: Int, path: String) throws -> PageView {
        let paths = site.paths
        // Positions in the feed are tweet indices (the snapshot keeps tweets newest first).
        let (slice, pager) = paginate(count: site.snapshot.tweets.count, number) { paths.feed(page: $0) }
        return try titled(
            PageView(
                site: site, path: path, folder: paths.feed(page: number), kindFlag: "isFeed",
                values: ["tweets": try tweets(slice), "pager": pager.mustacheValue]),
            "feed", description: site.config.description)
    }

    private func tweetPage(_ index: Int, path: String) throws -> PageView {
        let snapshot = site.snapshot
        let relations = snapshot.tweetRelations[index]
        let conversation = Conversation(of: index, in: snapshot)
        var values: [String: MustacheValue] = [
            "tweet": TweetView(site: site, index: index, card: try card(index)).mustacheValue,
            "ancestors": try conversation.ancestors.enumerated().map { i, t -> MustacheValue in
                var entry: [String: MustacheValue] = ["card": .string(try card(t))]
                if i == 0, let hidden = conversation.firstHiddenAncestor(in: snapshot) {  // the gap after the root
                    entry["hiddenAfter"] = .int(conversation.hiddenAncestors)
                    entry["hiddenURL"] = .string(SitePaths.href(site.paths.tweet(hidden)))
                }
                return entry.mustacheValue
            }.mustacheValue,
            "hasAncestors": .bool(!conversation.ancestors.isEmpty),
            "isCutShort": .bool(conversation.isCutShort),
            "replies": try conversation.replies.map { reply -> MustacheValue in
                [
                    "card": .string(try card(reply.tweet)), "depth": .int(reply.depth),
                    "level": .int(min(reply.depth, Self.deepestIndent)),
                ]
            }.mustacheValue,
            "hasReplies": .bool(!conversation.replies.isEmpty),
            "hasMoreReplies": .bool(conversation.hasMoreReplies),
            "archive": archiveLink(of: index),
        ]
        if let parent = relations.parent {
            values["parent"] = TweetView(site: site, index: parent, card: try card(parent)).mustacheValue
        }
        return try titled(
            PageView(site: site, path: path, folder: site.paths.tweet(index), kindFlag: "isTweet", values: values),
            "tweet", description: site.excerpts[index])
    }

    /// Replies deeper than this are drawn at this indent (a phone has room for a few levels).
    static let deepestIndent = 4

    private func profilePage(_ user: Int, _ tab: ProfileTab, _ number: Int, path: String) throws -> PageView {
        let paths = site.paths
        let activity = site.snapshot.userActivity[user]
        let items =
            switch tab {
            case .tweets: activity.tweets
            case .replies: activity.replies
            case .likes: activity.likes
            }
        let (range, pager) = paginate(count: items.count, number) { paths.profile(user, tab, page: $0) }
        var view = PageView(
            site: site, path: path, folder: paths.profile(user, tab, page: number), kindFlag: "isProfile",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": tabs(user, current: tab.rawValue),
                "tab": .string(tab.rawValue),
                "tweets": try tweets(items[range]), "pager": pager.mustacheValue,
                "isEmpty": .bool(items.isEmpty),
            ])
        view.values["emptyMessage"] = .string(try site.words.text("empty." + tab.rawValue, view))
        if tab == .tweets, number == 1 {  // the user's chart, once, on the profile's first page
            view.values["chart"] = try chart(
                site.archive.monthlyCounts(of: activity.tweets + activity.replies), id: "profile-chart", context: view)
        }
        // One description for the three tabs; a title each.
        return try titled(
            view, tab == .tweets ? "profile" : tab.rawValue,
            description: try site.words.text("description.profile", view))
    }

    private func favoritesPage(_ user: Int, path: String) throws -> PageView {
        let places = site.snapshot.userActivity[user].favorites
        let scripts = site.scripts
        var view = PageView(
            site: site, path: path, folder: site.paths.favorites(user), kindFlag: "isFavorites",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": tabs(user, current: "favorites"),
                "places": places.enumerated().map { PlaceView(place: $1, number: $0 + 1, scripts: scripts) }
                    .mustacheValue,
                "isEmpty": .bool(places.isEmpty),
            ])
        let drawn = places.enumerated().filter { $0.element.coordinate != nil }
        if !drawn.isEmpty {
            let notDrawn = places.count - drawn.count
            view.values["map"] = ["notDrawn": .int(notDrawn), "isOneNotDrawn": .bool(notDrawn == 1)]
            let ownPath = Slug.percentEncoded(path)
            let map = PlaceMap(
                points: try drawn.map { n, place in
                    PlaceMap.Point(
                        number: n + 1, latitude: place.coordinate!.latitude, longitude: place.coordinate!.longitude,
                        href: ownPath + "#" + PlaceView.anchor(n + 1),
                        label: try site.words.text(
                            "map.point", ["number": MustacheValue.int(n + 1), "name": .string(place.name)]),
                        lang: scripts.lang(of: place.name))
                })
            let svg = map.svg(
                id: "place-map",
                words: PlaceMap.Words(
                    title: try site.words.text("map.title", view),
                    notDrawn: notDrawn > 0 ? try site.words.text("map.notDrawn", view) : nil))
            view.values["map"] = [
                "notDrawn": .int(notDrawn), "isOneNotDrawn": .bool(notDrawn == 1), "svgHTML": .string(svg),
            ]
        }
        return try titled(view, "favorites")
    }

    private func tagPage(_ index: Int, _ number: Int, path: String) throws -> PageView {
        let paths = site.paths
        let tag = site.snapshot.tags[index]
        let (range, pager) = paginate(count: tag.tweets.count, number) { paths.tag(index, page: $0) }
        return try titled(
            PageView(
                site: site, path: path, folder: paths.tag(index, page: number), kindFlag: "isTag",
                values: [
                    "tag": .string(tag.tag), "tagLang": site.tagLangs[index].map(MustacheValue.string) ?? .null,
                    "tagURL": .string(SitePaths.href(paths.tag(index, page: 1))),
                    "tweetCount": .int(tag.tweets.count), "tweets": try tweets(tag.tweets[range]),
                    "pager": pager.mustacheValue,
                ]),
            "tag")
    }

    /// The search page: the form, and what shows without JavaScript (links to the most used tags).
    private func searchPage(path: String) throws -> PageView {
        let tags = site.snapshot.tags.indices.sorted {
            let (a, b) = (site.snapshot.tags[$0], site.snapshot.tags[$1])
            return a.tweets.count != b.tweets.count ? a.tweets.count > b.tweets.count : $0 < $1
        }.prefix(Self.searchPageTags)
        let tagValues: [MustacheValue] = tags.map { i in
            [
                "tag": .string(site.snapshot.tags[i].tag),
                "tagLang": site.tagLangs[i].map(MustacheValue.string) ?? .null,
                "url": .string(SitePaths.href(site.paths.tag(i, page: 1))),
                "tweetCount": .int(site.snapshot.tags[i].tweets.count),
            ]
        }
        return try titled(
            PageView(
                site: site, path: path, folder: SearchIndex.folder, kindFlag: "isSearch",
                values: [
                    "tags": .list(tagValues), "hasTags": .bool(!tagValues.isEmpty),
                    "pageSize": .int(site.config.pageSize),
                ]),
            "search")
    }

    /// Tags the search page links for browsers without JavaScript.
    static let searchPageTags = 20

    private func notFoundPage(path: String) throws -> PageView {
        var values: [String: MustacheValue] = [:]
        if let inlineStyle {
            values["inlineStyle"] = .string(inlineStyle.css)
            values["inlineStyleHash"] = .string(inlineStyle.hashSource)
        }
        var view = PageView(site: site, path: path, folder: "", kindFlag: "isNotFound", values: values)
        view.isServedAtAnyURL = true
        return try titled(view, "notFound")
    }

    private func tabs(_ user: Int, current: String) -> MustacheValue {
        let activity = site.snapshot.userActivity[user]
        let paths = site.paths
        let entries: [(String, String, Int)] = [
            ("tweets", paths.profile(user, .tweets, page: 1), activity.tweets.count),
            ("replies", paths.profile(user, .replies, page: 1), activity.replies.count),
            ("likes", paths.profile(user, .likes, page: 1), activity.likes.count),
            ("favorites", paths.favorites(user), activity.favorites.count),
        ]
        return entries.map {
            TabView(
                id: $0.0, name: site.words.tabNames[$0.0] ?? $0.0, url: SitePaths.href($0.1), count: $0.2,
                isCurrent: $0.0 == current)
        }.mustacheValue
    }
}
