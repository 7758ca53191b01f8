import Model
import Mustache

/// The declarations of a user's pages: the profile's tabs and the favorite places
/// (`PageDeclaration`; the user's Atom feed is `AtomPage`).
extension SiteRenderer {
    /// The Tweets / Replies / Likes / Favorites tabs of user `user`'s pages.
    func tabs(_ user: Int, current: String) -> MustacheValue {
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

/// Page `number` of a profile's tab; the Tweets tab's first page has the user's chart.
struct ProfilePage: HTMLPage {
    static let template = "profile"
    static let showsCards = true
    let user: Int
    let tab: ProfileTab
    let number: Int

    /// The tab's tweets.
    private func items(_ activity: UserActivity) -> [Int] {
        switch tab {
        case .tweets: activity.tweets
        case .replies: activity.replies
        case .likes: activity.likes
        }
    }

    /// Whether the page has the user's chart: once, on the profile's first page.
    private var hasChart: Bool { tab == .tweets && number == 1 }

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let (site, user, tab) = (r.site, user, tab)
        let paths = site.paths
        let activity = site.snapshot.userActivity[user]
        let items = items(activity)
        let (range, pager) = r.paginate(count: items.count, number) { paths.profile(user, tab, page: $0) }
        var view = PageView(
            site: site, path: path, folder: paths.profile(user, tab, page: number), kindFlag: "isProfile",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": r.tabs(user, current: tab.rawValue),
                "tab": .string(tab.rawValue),
                "tweets": try r.tweets(items[range]), "pager": pager.mustacheValue,
                "isEmpty": .bool(items.isEmpty),
            ])
        view.values["emptyMessage"] = .string(try site.words.text("empty." + tab.rawValue, view))
        if hasChart {
            view.values["chart"] = try r.chart(
                site.archive.monthlyCounts(of: activity.tweets + activity.replies), id: "profile-chart", context: view)
        }
        // One description for the three tabs; a title each.
        return try r.titled(
            view, tab == .tweets ? "profile" : tab.rawValue,
            description: try site.words.text("description.profile", view))
    }

    func fingerprint(_ f: inout PageFingerprint) {
        f.user(user)
        let activity = f.snapshot.userActivity[user]
        f.slice(items(activity), number)
        if hasChart { f.combine(f.site.archive.monthlyCounts(of: activity.tweets + activity.replies)) }
    }
}

/// A user's favorite places, with their map.
struct FavoritesPage: HTMLPage {
    static let template = "favorites"
    let user: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let places = site.snapshot.userActivity[user].favorites
        let scripts = site.scripts
        var view = PageView(
            site: site, path: path, folder: site.paths.favorites(user), kindFlag: "isFavorites",
            values: [
                "user": UserView(site: site, index: user).mustacheValue,
                "tabs": r.tabs(user, current: "favorites"),
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
        return try r.titled(view, "favorites")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        f.user(user)
        for place in f.snapshot.userActivity[user].favorites {
            f.combine(place.id)
            f.combine(place.name)
            f.combine(place.address)
            f.combine(place.coordinate?.latitude)
            f.combine(place.coordinate?.longitude)
        }
    }
}
