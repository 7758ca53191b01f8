import Model
import Store
import Mustache

/// The context of `atom` (docs/templates.md, "Atom"): the site's or one user's newest tweets.
struct AtomFeedView: MustacheObject {
    let site: SiteContext
    let user: Int?
    let entries: [Int]

    static let entryCount = 20

    static func page(site: SiteContext, user: Int?, cards: [String]) -> AtomFeedView {
        let snapshot = site.snapshot
        guard let user else {
            return AtomFeedView(site: site, user: nil, entries: Array(snapshot.tweets.indices.prefix(entryCount)))
        }
        // Tweets and replies, both already newest first (feed order is index order).
        let activity = snapshot.userActivity[user]
        var merged: [Int] = []
        var a = activity.tweets[...], b = activity.replies[...]
        while merged.count < entryCount, let next = [a.first, b.first].compactMap({ $0 }).min() {
            merged.append(next)
            if a.first == next { a.removeFirst() } else { b.removeFirst() }
        }
        return AtomFeedView(site: site, user: user, entries: merged)
    }

    func value(forKey key: String) -> MustacheValue? {
        key == "feed" ? .object(FeedInfo(view: self)) : nil
    }

    struct FeedInfo: MustacheObject {
        let view: AtomFeedView

        func value(forKey key: String) -> MustacheValue? {
            let site = view.site
            let snapshot = site.snapshot
            let folder = view.user.map { site.paths.user($0) } ?? ""
            switch key {
            case "title":
                guard let user = view.user else { return .string(site.config.title) }
                let u = snapshot.users[user]
                return .string("\(u.fullname) (@\(u.username)) · \(site.config.title)")
            case "id", "alternateURL": return .string(site.absoluteURL(folder))
            case "selfURL": return .string(site.absoluteURL(view.user.map { site.paths.userFeed($0) } ?? "feed.xml"))
            case "baseURL": return .string(site.config.baseURL)
            case "updated":
                let newest = view.entries.first.map { snapshot.tweets[$0].timestamp } ?? Timestamp(seconds: 0)
                return .string(DateText.iso(newest))
            case "entries": return view.entries.map { AtomEntryView(site: site, index: $0) }.mustacheValue
            default: return nil
            }
        }
    }
}

struct AtomEntryView: MustacheObject {
    let site: SiteContext
    let index: Int

    func value(forKey key: String) -> MustacheValue? {
        let snapshot = site.snapshot
        let tweet = snapshot.tweets[index]
        let author = snapshot.tweetRelations[index].author
        switch key {
        case "title":
            let name = author.map { snapshot.users[$0].fullname } ?? "Unknown user"
            return .string("\(name): \(PlainText.excerpt(tweet.caption, limit: 80))")
        case "id", "url": return .string(site.absoluteURL(site.paths.tweet(index)))
        case "published": return .string(DateText.iso(tweet.timestamp))
        case "authorName": return .string(author.map { snapshot.users[$0].fullname } ?? "Unknown user")
        case "authorURL": return author.map { .string(site.absoluteURL(site.paths.user($0))) }
        case "contentHTML": return .string(site.captions[index])
        default: return nil
        }
    }
}
