import Model
import Mustache
import Store
import Support

/// The context of `atom` (docs/templates.md, "Atom"): the site's or one user's newest tweets.
struct AtomFeedView: MustacheObject {
    let site: SiteContext
    let user: Int?
    let entries: [Int]

    static let entryCount = 20

    static func page(site: SiteContext, user: Int?) -> AtomFeedView {
        let snapshot = site.snapshot
        guard let user else {
            return AtomFeedView(site: site, user: nil, entries: Array(snapshot.tweets.indices.prefix(entryCount)))
        }
        // Tweets and replies, both already newest first (feed order is index order).
        let activity = snapshot.userActivity[user]
        var merged: [Int] = []
        var a = activity.tweets[...]
        var b = activity.replies[...]
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
            case "id": return .string(site.atomID(folder))
            case "alternateURL": return .string(site.absoluteURL(folder))
            case "selfURL": return .string(site.absoluteURL(view.user.map { site.paths.userFeed($0) } ?? "feed.xml"))
            case "baseURL": return .string(site.config.baseURL)
            case "language": return .string(site.config.language)
            case "updated":
                // A feed with no entries was last updated when the site's newest tweet was
                // posted (1970 only for a store with no tweets at all).
                let newest =
                    (view.entries.first ?? snapshot.tweets.indices.first).map { snapshot.tweets[$0].timestamp }
                    ?? Timestamp(seconds: 0)
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
            let name = author.map { snapshot.users[$0].fullname } ?? site.words.unknownUser
            return .string("\(name): \(site.caption(index).excerpt)")
        case "id": return .string(site.atomID(site.paths.tweet(index)))
        case "url": return .string(site.absoluteURL(site.paths.tweet(index)))
        case "published": return .string(DateText.iso(tweet.timestamp))
        case "authorName": return .string(author.map { snapshot.users[$0].fullname } ?? site.words.unknownUser)
        case "authorURL": return author.map { .string(site.absoluteURL(site.paths.user($0))) }
        case "contentHTML": return .string(site.caption(index).html)
        case "contentLang": return site.captionLangs[index].map(MustacheValue.string)
        default: return nil
        }
    }
}

extension SiteContext {
    /// Atom ids must be absolute IRIs (RFC 4287). With an absolute base URL, the page's URL;
    /// with a path-only one (the default `/`), a name-based `urn:uuid:` that stays the same
    /// from build to build.
    func atomID(_ folder: String) -> String {
        config.hasAbsoluteBase ? absoluteURL(folder) : "urn:uuid:" + NameUUID.make(config.baseURL + folder)
    }
}

/// A UUID made from a name (two 64-bit FNV-1a hashes with different offsets, each mixed
/// by SplitMix64's finalizer so that similar names differ everywhere, shaped as a version 8
/// "custom" UUID): stable, and unique enough to identify a page.
enum NameUUID {
    static func make(_ name: String) -> String {
        func fnv(_ offset: UInt64) -> UInt64 {
            StableHash.splitMix64Finalize(StableHash.fnv1a(name, offset: offset))
        }
        var high = fnv(0xcbf2_9ce4_8422_2325)
        var low = fnv(0x8422_2325_cbf2_9ce4)
        high = (high & ~0xF000) | 0x8000  // version 8
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        let hex = StableHash.hex(high) + StableHash.hex(low)
        let c = Array(hex)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
    }
}

/// The Atom feed of the whole site (`user` nil) or of one user: its newest tweets.
struct AtomPage: PageDeclaration {
    static let template = "atom"
    static var templateName: String? { template }
    let user: Int?

    func render(_ r: SiteRenderer, path: String) throws -> [UInt8] {
        try r.templates.render(Self.template, AtomFeedView.page(site: r.site, user: user))
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let users = f.inputs.shared.users
        f.combine(user.map { users[$0] })
        let entries = AtomFeedView.page(site: f.site, user: user).entries
        f.cards(entries)
        if entries.isEmpty, let newest = f.snapshot.tweets.first {  // its `updated`
            f.combine(Int(newest.timestamp.seconds))
        }
    }
}
