import Model
import Mustache
import Search

/// The declarations of the feed, a tweet's page, a tag's, the search page and 404.html: each
/// kind's template, view and fingerprint side by side (`PageDeclaration`).
extension SiteRenderer {
    /// The partial each tweet's card is rendered with (`card(_:)`).
    static let cardTemplate = "partials/card"

    /// Replies deeper than this are drawn at this indent (a phone has room for a few levels).
    static let deepestIndent = 4

    /// Tags the search page links for browsers without JavaScript.
    static let searchPageTags = 20

    /// `view` with its title and description: the texts `title.…` and `description.…` rendered
    /// in the page's own context (docs/templates.md, "Words").
    func titled(_ view: PageView, _ kind: String, description: String? = nil) throws -> PageView {
        var view = view
        view.title = try site.words.text("title." + kind, view)
        view.description = try description ?? site.words.text("description." + kind, view)
        return view
    }
}

/// The feed, page `number` (1-based): every tweet, newest first.
struct FeedPage: HTMLPage {
    static let template = "feed"
    static let showsCards = true
    let number: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let paths = site.paths
        // Positions in the feed are tweet indices (the snapshot keeps tweets newest first).
        let (slice, pager) = r.paginate(count: site.snapshot.tweets.count, number) { paths.feed(page: $0) }
        return try r.titled(
            PageView(
                site: site, path: path, folder: paths.feed(page: number), kindFlag: "isFeed",
                values: ["tweets": try r.tweets(slice), "pager": pager.mustacheValue]),
            "feed", description: site.config.description)
    }

    func fingerprint(_ f: inout PageFingerprint) {
        f.slice(f.snapshot.tweets.indices, number)
    }
}

/// A tweet's permalink: the tweet in its whole conversation (SPEC 7).
struct TweetPage: HTMLPage {
    static let template = "tweet"
    static let showsCards = true
    let tweet: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let index = tweet
        let snapshot = site.snapshot
        let relations = snapshot.tweetRelations[index]
        let conversation = Conversation(of: index, in: snapshot)
        var values: [String: MustacheValue] = [
            "tweet": TweetView(site: site, index: index, card: try r.card(index)).mustacheValue,
            "ancestors": try conversation.ancestors.enumerated().map { i, t -> MustacheValue in
                var entry: [String: MustacheValue] = ["card": .string(try r.card(t))]
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
                    "card": .string(try r.card(reply.tweet)), "depth": .int(reply.depth),
                    "level": .int(min(reply.depth, SiteRenderer.deepestIndent)),
                ]
            }.mustacheValue,
            "hasReplies": .bool(!conversation.replies.isEmpty),
            "hasMoreReplies": .bool(conversation.hasMoreReplies),
            "moreReplies": .int(conversation.hiddenReplies),
            "isOneMoreReply": .bool(conversation.hiddenReplies == 1 && !conversation.hiddenRepliesOverCount),
            "moreRepliesOverCount": .bool(conversation.hiddenRepliesOverCount),
            "archive": r.archiveLink(of: index),
        ]
        if let parent = relations.parent {
            values["parent"] = TweetView(site: site, index: parent, card: try r.card(parent)).mustacheValue
        }
        return try r.titled(
            PageView(site: site, path: path, folder: site.paths.tweet(index), kindFlag: "isTweet", values: values),
            "tweet", description: site.caption(index).excerpt)
    }

    func fingerprint(_ f: inout PageFingerprint) {
        // The inputs, not their snapshot, handed on: the snapshot read from them for a call that
        // also takes `f` was copied, retaining each of its lists, per page.
        Self.fingerprint(tweet, in: f.inputs, into: &f)
    }

    private static func fingerprint(_ t: Int, in inputs: FingerprintInputs, into f: inout PageFingerprint) {
        let snapshot = inputs.snapshot
        // The whole conversation (SPEC 7): every card, where it sits, and the gap above.
        f.combine(snapshot.tweets[t].caption)
        f.combine(snapshot.tweetRelations[t].author.map { snapshot.users[$0].fullname })
        let conversation = Conversation(of: t, in: snapshot)
        f.combine(conversation.isCutShort)
        f.combine(conversation.ancestors.count)
        f.combine(conversation.hiddenAncestors)
        f.combine(conversation.hiddenReplies)
        f.combine(conversation.hiddenRepliesOverCount)
        if let hidden = conversation.firstHiddenAncestor(in: snapshot) { f.combine(snapshot.tweets[hidden].id) }
        f.cards(conversation.ancestors)
        f.cards(CollectionOfOne(t))
        if let parent = snapshot.tweetRelations[t].parent { f.cards(CollectionOfOne(parent)) }
        for reply in conversation.replies { f.combine(reply.depth) }
        f.cards(conversation.replies.map(\.tweet))
    }
}

/// A hashtag's page `number`: every tweet with it.
struct TagPage: HTMLPage {
    static let template = "tag"
    static let showsCards = true
    let tag: Int
    let number: Int

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let paths = site.paths
        let index = tag
        let tag = site.snapshot.tags[index]
        let (range, pager) = r.paginate(count: tag.tweets.count, number) { paths.tag(index, page: $0) }
        return try r.titled(
            PageView(
                site: site, path: path, folder: paths.tag(index, page: number), kindFlag: "isTag",
                values: [
                    "tag": .string(tag.tag), "tagLang": site.tagLangs[index].map(MustacheValue.string) ?? .null,
                    "tagURL": .string(SitePaths.href(paths.tag(index, page: 1))),
                    "tweetCount": .int(tag.tweets.count), "tweets": try r.tweets(tag.tweets[range]),
                    "pager": pager.mustacheValue,
                ]),
            "tag")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let tag = f.snapshot.tags[tag]
        f.combine(tag.tag)
        f.slice(tag.tweets, number)
    }
}

/// The search page: the form, and what shows without JavaScript (links to the most used tags).
struct SearchPage: HTMLPage {
    static let template = "search"

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        let site = r.site
        let tags = site.snapshot.tags.indices.sorted {
            let (a, b) = (site.snapshot.tags[$0], site.snapshot.tags[$1])
            return a.tweets.count != b.tweets.count ? a.tweets.count > b.tweets.count : $0 < $1
        }.prefix(SiteRenderer.searchPageTags)
        let tagValues: [MustacheValue] = tags.map { i in
            [
                "tag": .string(site.snapshot.tags[i].tag),
                "tagLang": site.tagLangs[i].map(MustacheValue.string) ?? .null,
                "url": .string(SitePaths.href(site.paths.tag(i, page: 1))),
                "tweetCount": .int(site.snapshot.tags[i].tweets.count),
            ]
        }
        return try r.titled(
            PageView(
                site: site, path: path, folder: SearchIndex.folder, kindFlag: "isSearch",
                values: [
                    "tags": .list(tagValues), "hasTags": .bool(!tagValues.isEmpty),
                    "pageSize": .int(site.config.pageSize),
                ]),
            "search")
    }

    func fingerprint(_ f: inout PageFingerprint) {
        // The tag links of the page.
        for tag in f.snapshot.tags {
            f.combine(tag.tag)
            f.combine(tag.tweets.count)
        }
    }
}

/// 404.html: served at any URL, with the stylesheet inside (`InlineStyle`) and the script that
/// gives it a base from `file://` (`FileBaseScript`).
struct NotFoundPage: HTMLPage {
    static let template = "404"
    static let inlinesStylesheet = true

    func view(_ r: SiteRenderer, path: String) throws -> PageView {
        var values: [String: MustacheValue] = [:]
        if let inlineStyle = r.inlineStyle {
            values["inlineStyle"] = .string(inlineStyle.css)
            values["inlineStyleHash"] = .string(inlineStyle.hashSource)
        }
        values["fileBaseScript"] = .string(FileBaseScript.text)
        values["fileBaseScriptHash"] = .string(FileBaseScript.hashSource)
        var view = PageView(site: r.site, path: path, folder: "", kindFlag: "isNotFound", values: values)
        view.isServedAtAnyURL = true
        return try r.titled(view, "notFound")
    }

    func fingerprint(_ f: inout PageFingerprint) {}  // the stylesheet and the script are the theme's part
}
