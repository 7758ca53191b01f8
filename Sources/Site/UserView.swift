import Model
import Mustache

/// A user as templates see it (docs/templates.md, "A user"); `index` nil is the
/// placeholder for an author with no user document.
struct UserView: MustacheObject {
    let site: SiteContext
    let index: Int?

    static let placeholderAvatar = SiteImages.placeholderAvatar

    func value(forKey key: String) -> MustacheValue? {
        guard let index else {
            switch key {
            case "isMissing": return .bool(true)
            case "name": return .string(site.words.unknownUser)
            case "username", "handle": return .string("unknown")
            case "avatarURL": return .string(Self.placeholderAvatar)
            default: return nil
            }
        }
        let user = site.snapshot.users[index]
        let activity = site.snapshot.userActivity[index]
        let paths = site.paths
        switch key {
        case "isMissing": return .bool(false)
        case "name": return .string(user.fullname)
        case "nameLang": return site.userLangs[index].name.map(MustacheValue.string)
        case "username": return .string(user.username)
        case "usernameLang": return site.userLangs[index].username.map(MustacheValue.string)
        case "handle": return .string(user.handle)
        case "url": return .string(SitePaths.href(paths.profile(index, .tweets, page: 1)))
        case "repliesURL": return .string(SitePaths.href(paths.profile(index, .replies, page: 1)))
        case "likesURL": return .string(SitePaths.href(paths.profile(index, .likes, page: 1)))
        case "favoritesURL": return .string(SitePaths.href(paths.favorites(index)))
        case "feedURL": return .string(Slug.percentEncoded(paths.userFeed(index)))
        case "absoluteURL": return .string(site.absoluteURL(paths.user(index)))
        case "avatarURL": return .string(site.avatars[index] ?? Self.placeholderAvatar)
        case "hasAvatar": return .bool(site.avatars[index] != nil)
        case "bioHTML": return site.bios[index].map(MustacheValue.string)
        case "bioLang": return site.userLangs[index].bio.map(MustacheValue.string)
        case "hasBio": return .bool(site.bios[index].map { !$0.isEmpty } ?? false)
        case "tweetCount": return .int(activity.tweets.count)
        case "replyCount": return .int(activity.replies.count)
        case "likeCount": return .int(activity.likes.count)
        case "favoriteCount": return .int(activity.favorites.count)
        default: return nil
        }
    }
}
