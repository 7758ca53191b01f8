import Model
import Mustache

/// A tweet as templates see it (docs/templates.md, "A tweet").
struct TweetView: MustacheObject {
    let site: SiteContext
    let index: Int
    /// The card partial rendered for this tweet, when it has been.
    let card: String?

    private var tweet: Tweet { site.snapshot.tweets[index] }
    private var relations: TweetRelations { site.snapshot.tweetRelations[index] }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .string(tweet.id)
        case "url": .string(SitePaths.href(site.paths.tweet(index)))
        case "absoluteURL": .string(site.absoluteURL(site.paths.tweet(index)))
        case "author": UserView(site: site, index: relations.author).mustacheValue
        case "published": .string(DateText.iso(tweet.timestamp))
        case "publishedDisplay": .string(site.dates[index])
        case "captionHTML": .string(site.caption(index).html)
        case "captionLang": site.captionLangs[index].map(MustacheValue.string)
        case "captionText": .string(site.caption(index).excerpt)
        case "likes": .int(relations.likers.count)
        case "liked": .bool(site.viewerLiked[index])
        case "isReply": .bool(tweet.isReply)
        case "replyTo": tweet.isReply ? ReplyTarget(site: site, parent: relations.parent).mustacheValue : nil
        case "replyCount": .int(relations.replies.count)
        case "card": card.map(MustacheValue.string)
        default: nil
        }
    }
}

/// "Replying to @x": the parent's author and permalink, or a note that it is gone.
struct ReplyTarget: MustacheObject {
    let site: SiteContext
    let parent: Int?

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "isMissing": .bool(parent == nil)
        case "url": parent.map { .string(SitePaths.href(site.paths.tweet($0))) }
        case "author": parent.map { UserView(site: site, index: site.snapshot.tweetRelations[$0].author).mustacheValue }
        default: nil
        }
    }
}
