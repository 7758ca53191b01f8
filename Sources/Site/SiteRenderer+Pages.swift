import Model
import Mustache

/// The template and context of each kind of HTML page.
extension SiteRenderer {
    func pageView(_ page: Page) throws -> (String, PageView) {
        let snapshot = site.snapshot
        let paths = site.paths
        let siteTitle = site.config.title
        func view(_ folder: String, _ title: String, _ description: String, _ flag: String,
                  _ values: [String: MustacheValue]) -> PageView {
            PageView(site: site, path: page.path, folder: folder, title: title, description: description,
                     kindFlag: flag, values: values)
        }

        switch page.kind {
        case .feed(let number):
            // Positions in the feed are tweet indices (the snapshot keeps tweets newest first).
            let (slice, pager) = paginate(count: snapshot.tweets.count, number) { paths.feed(page: $0) }
            let title = number == 1 ? siteTitle : "\(siteTitle) · page \(number)"
            return ("feed", view(paths.feed(page: number), title, "The latest tweets on \(siteTitle).", "isFeed",
                                 ["tweets": try tweets(slice), "pager": pager.mustacheValue]))

        case .tweet(let index):
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
            return ("tweet", view(paths.tweet(index), "\(author) on \(siteTitle): “\(excerpt)”", excerpt, "isTweet", values))

        case .profile(let user, let tab, let number):
            let activity = snapshot.userActivity[user]
            let items = switch tab {
            case .tweets: activity.tweets
            case .replies: activity.replies
            case .likes: activity.likes
            }
            let (range, pager) = paginate(count: items.count, number) { paths.profile(user, tab, page: $0) }
            let slice = items[range]
            let u = snapshot.users[user]
            let tabName = tab == .tweets ? "" : " · \(tab.rawValue.capitalized)"
            let pageName = number == 1 ? "" : " · page \(number)"
            let empty = switch tab {
            case .tweets: "@\(u.username) hasn’t tweeted yet."
            case .replies: "@\(u.username) hasn’t replied to anyone yet."
            case .likes: "@\(u.username) hasn’t liked any tweets yet."
            }
            return ("profile", view(paths.profile(user, tab, page: number),
                                    "\(u.fullname) (@\(u.username))\(tabName)\(pageName) · \(siteTitle)",
                                    "Tweets of \(u.fullname) (@\(u.username)) on \(siteTitle).", "isProfile", [
                                        "user": UserView(site: site, index: user).mustacheValue,
                                        "tabs": tabs(user, current: tab.rawValue),
                                        "tab": .string(tab.rawValue),
                                        "tweets": try tweets(slice), "pager": pager.mustacheValue,
                                        "isEmpty": .bool(items.isEmpty), "emptyMessage": .string(empty),
                                    ]))

        case .favorites(let user):
            let u = snapshot.users[user]
            let places = snapshot.userActivity[user].favorites
            return ("favorites", view(paths.favorites(user), "\(u.fullname) (@\(u.username)) · Favorites · \(siteTitle)",
                                      "Favorite places of \(u.fullname) (@\(u.username)).", "isFavorites", [
                                          "user": UserView(site: site, index: user).mustacheValue,
                                          "tabs": tabs(user, current: "favorites"),
                                          "places": places.map(PlaceView.init).mustacheValue,
                                          "isEmpty": .bool(places.isEmpty),
                                      ]))

        case .tag(let index, let number):
            let tag = snapshot.tags[index]
            let (range, pager) = paginate(count: tag.tweets.count, number) { paths.tag(index, page: $0) }
            let slice = tag.tweets[range]
            let pageName = number == 1 ? "" : " · page \(number)"
            return ("tag", view(paths.tag(index, page: number), "#\(tag.tag)\(pageName) · \(siteTitle)",
                                "Tweets with #\(tag.tag) on \(siteTitle).", "isTag", [
                                    "tag": .string(tag.tag), "tagURL": .string(SitePaths.href(paths.tag(index, page: 1))),
                                    "tweetCount": .int(tag.tweets.count), "tweets": try tweets(slice),
                                    "pager": pager.mustacheValue,
                                ]))

        case .notFound:
            var notFound = view("", "Page not found · \(siteTitle)", "This page does not exist.", "isNotFound", [:])
            notFound.isServedAtAnyURL = true
            return ("404", notFound)

        case .atom, .sitemap, .sitemapPart:
            preconditionFailure("not an HTML page: \(page.path)")
        }
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
