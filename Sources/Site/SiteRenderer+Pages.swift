import Model
import Mustache

/// The template and context of each kind of HTML page.
extension SiteRenderer {
    func pageView(_ page: Page) throws -> (template: String, view: PageView) {
        switch page.kind {
        case .feed(let number): ("feed", try feedPage(number, path: page.path))
        case .tweet(let index): ("tweet", try tweetPage(index, path: page.path))
        case .profile(let user, let tab, let number): ("profile", try profilePage(user, tab, number, path: page.path))
        case .favorites(let user): ("favorites", favoritesPage(user, path: page.path))
        case .tag(let index, let number): ("tag", try tagPage(index, number, path: page.path))
        case .notFound: ("404", notFoundPage(path: page.path))
        case .atom, .sitemap, .sitemapPart: preconditionFailure("not an HTML page: \(page.path)")
        }
    }

    private var siteTitle: String { site.config.title }

    private func feedPage(_ number: Int, path: String) throws -> PageView {
        let paths = site.paths
        // Positions in the feed are tweet indices (the snapshot keeps tweets newest first).
        let (slice, pager) = paginate(count: site.snapshot.tweets.count, number) { paths.feed(page: $0) }
        return PageView(
            site: site, path: path, folder: paths.feed(page: number),
            title: number == 1 ? siteTitle : "\(siteTitle) · page \(number)",
            description: "The latest tweets on \(siteTitle).", kindFlag: "isFeed",
            values: ["tweets": try tweets(slice), "pager": pager.mustacheValue])
    }

    private func tweetPage(_ index: Int, path: String) throws -> PageView {
        let snapshot = site.snapshot
        let tweet = snapshot.tweets[index]
        let relations = snapshot.tweetRelations[index]
        let author = relations.author.map { snapshot.users[$0].fullname } ?? "Unknown user"
        let excerpt = site.excerpts[index]
        var values: [String: MustacheValue] = [
            "tweet": TweetView(site: site, index: index, card: try card(index)).mustacheValue,
            "replies": try tweets(relations.replies[...]),
            "hasReplies": .bool(!relations.replies.isEmpty),
            "parentMissing": .bool(tweet.isReply && relations.parent == nil),
        ]
        if let parent = relations.parent {
            values["parent"] = TweetView(site: site, index: parent, card: try card(parent)).mustacheValue
        }
        return PageView(
            site: site, path: path, folder: site.paths.tweet(index),
            title: "\(author) on \(siteTitle): “\(excerpt)”", description: excerpt, kindFlag: "isTweet",
            values: values)
    }

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
        let u = site.snapshot.users[user]
        let tabName = tab == .tweets ? "" : " · \(tab.rawValue.capitalized)"
        let pageName = number == 1 ? "" : " · page \(number)"
        let empty =
            switch tab {
            case .tweets: "@\(u.username) hasn’t tweeted yet."
            case .replies: "@\(u.username) hasn’t replied to anyone yet."
            case .likes: "@\(u.username) hasn’t liked any tweets yet."
            }
        return PageView(
            site: site, path: path, folder: paths.profile(user, tab, page: number),
            title: "\(u.fullname) (@\(u.username))\(tabName)\(pageName) · \(siteTitle)",
            description: "Tweets of \(u.fullname) (@\(u.username)) on \(siteTitle).", kindFlag: "isProfile",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": tabs(user, current: tab.rawValue),
                "tab": .string(tab.rawValue),
                "tweets": try tweets(items[range]), "pager": pager.mustacheValue,
                "isEmpty": .bool(items.isEmpty), "emptyMessage": .string(empty),
            ])
    }

    private func favoritesPage(_ user: Int, path: String) -> PageView {
        let u = site.snapshot.users[user]
        let places = site.snapshot.userActivity[user].favorites
        return PageView(
            site: site, path: path, folder: site.paths.favorites(user),
            title: "\(u.fullname) (@\(u.username)) · Favorites · \(siteTitle)",
            description: "Favorite places of \(u.fullname) (@\(u.username)).", kindFlag: "isFavorites",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": tabs(user, current: "favorites"),
                "places": places.map(PlaceView.init).mustacheValue,
                "isEmpty": .bool(places.isEmpty),
            ])
    }

    private func tagPage(_ index: Int, _ number: Int, path: String) throws -> PageView {
        let paths = site.paths
        let tag = site.snapshot.tags[index]
        let (range, pager) = paginate(count: tag.tweets.count, number) { paths.tag(index, page: $0) }
        let pageName = number == 1 ? "" : " · page \(number)"
        return PageView(
            site: site, path: path, folder: paths.tag(index, page: number),
            title: "#\(tag.tag)\(pageName) · \(siteTitle)",
            description: "Tweets with #\(tag.tag) on \(siteTitle).", kindFlag: "isTag",
            values: [
                "tag": .string(tag.tag), "tagURL": .string(SitePaths.href(paths.tag(index, page: 1))),
                "tweetCount": .int(tag.tweets.count), "tweets": try tweets(tag.tweets[range]),
                "pager": pager.mustacheValue,
            ])
    }

    private func notFoundPage(path: String) -> PageView {
        var view = PageView(
            site: site, path: path, folder: "", title: "Page not found · \(siteTitle)",
            description: "This page does not exist.", kindFlag: "isNotFound", values: [:])
        view.isServedAtAnyURL = true
        return view
    }

    private func tabs(_ user: Int, current: String) -> MustacheValue {
        let activity = site.snapshot.userActivity[user]
        let paths = site.paths
        let entries: [(String, String, Int)] = [
            ("Tweets", paths.profile(user, .tweets, page: 1), activity.tweets.count),
            ("Replies", paths.profile(user, .replies, page: 1), activity.replies.count),
            ("Likes", paths.profile(user, .likes, page: 1), activity.likes.count),
            ("Favorites", paths.favorites(user), activity.favorites.count),
        ]
        return entries.map {
            TabView(name: $0.0, url: SitePaths.href($0.1), count: $0.2, isCurrent: $0.0.lowercased() == current)
        }.mustacheValue
    }
}
