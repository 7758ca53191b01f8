import Model
import Search
import Support

/// Fingerprints of what cards and pages show, computed from the model without rendering:
/// equal fingerprints mean equal bytes. A live preview uses them to re-render only the cards
/// that changed and to tell which pages an edit touched; `build` stores them in the manifest
/// and skips pages whose fingerprint has not changed. They are stable across runs
/// (`StableHasher`). Of the theme, each page takes only what can change its bytes
/// (`TemplateSalts`): an edited template re-renders the pages that can include it.
extension SiteContext {
    /// Everything `partials/card` can show of a tweet (docs/templates.md, "A tweet").
    func cardFingerprint(_ t: Int) -> Int {
        // Field by field: a copy of the tweet and its relations retained every one of their parts.
        var h = StableHasher()
        h.combine(snapshot.tweets[t].id)
        h.combine(snapshot.tweets[t].caption)
        h.combine(captions[t])
        h.combine(Int(snapshot.tweets[t].timestamp.seconds))
        h.combine(Int(snapshot.tweets[t].timestamp.nanoseconds))
        let isReply = snapshot.tweets[t].isReply
        h.combine(isReply)
        h.combine(snapshot.tweetRelations[t].likers.count)
        h.combine(viewerLiked[t])
        h.combine(snapshot.tweetRelations[t].replies.count)
        combineIdentity(of: snapshot.tweetRelations[t].author, into: &h)
        if isReply {
            let parent = snapshot.tweetRelations[t].parent
            h.combine(parent.map { snapshot.tweets[$0].id })
            combineIdentity(of: parent.flatMap { snapshot.tweetRelations[$0].author }, into: &h)
        }
        return h.finalize()
    }

    /// Everything a profile header shows of a user.
    func userFingerprint(_ u: Int) -> Int {
        var h = StableHasher()
        combineIdentity(of: u, into: &h)
        h.combine(bios[u])
        let activity = snapshot.userActivity[u]
        h.combine(activity.tweets.count)
        h.combine(activity.replies.count)
        h.combine(activity.likes.count)
        h.combine(activity.favorites.count)
        return h.finalize()
    }

    /// What a card shows of a user: name, username, handle (its links), picture.
    private func combineIdentity(of user: Int?, into h: inout StableHasher) {
        guard let user else { return h.combine(false) }
        h.combine(true)
        h.combine(snapshot.users[user].fullname)
        h.combine(snapshot.users[user].username)
        h.combine(snapshot.users[user].handle)
        h.combine(avatars[user])  // a mirrored picture's path changes with its bytes
    }
}

/// Each page's fingerprint by path, and which pages show each tweet.
public struct PageFingerprints: Sendable {
    public internal(set) var byPath: [String: Int]
    /// Per tweet, the plan indices of the pages whose fingerprint includes it.
    let pagesShowing: [[Int32]]
    /// What all fingerprints share; a content edit leaves it as it is.
    fileprivate let inputs: SiteRenderer.SharedInputs
}

extension SiteRenderer {
    /// What every page's fingerprint shares: the options, the viewer, the users' headers, the
    /// sitemap, the theme's part by kind of page.
    fileprivate struct SharedInputs: Sendable {
        let global: Int
        let users: [Int]
        let sitemap: Int
        let theme: TemplateSalts
    }

    private func sharedInputs() -> SharedInputs {
        let snapshot = site.snapshot
        var global = StableHasher()
        global.combine(RoostVersion.current)  // a new version may render differently
        global.combine(site.config.baseURL)
        global.combine(site.config.pageSize)
        global.combine(site.config.title)
        global.combine(site.config.description)
        global.combine(site.config.language)
        global.combine(site.config.media.rawValue)  // the CSP, placeholders
        global.combine(site.viewer.map(site.userFingerprint))
        // Only sitemaps show every path and time, and a site has them only with an absolute base.
        var sitemap = StableHasher()
        if site.config.hasAbsoluteBase {
            for page in plan.pages { sitemap.combine(page.path) }
            for tweet in snapshot.tweets { sitemap.combine(Int(tweet.timestamp.seconds)) }
        }
        return SharedInputs(
            global: global.finalize(), users: snapshot.users.indices.map(site.userFingerprint),
            sitemap: sitemap.finalize(), theme: TemplateSalts(templates: templates, inlineStyle: inlineStyle))
    }

    /// Each page's fingerprint, in plan order: what a build compares with the manifest.
    /// Each page's is its own work: on all cores.
    public func pageFingerprints() -> [UInt64] {
        let inputs = sharedInputs()
        let snapshot = site.snapshot
        return plan.pages.parallelMap { [self] page in
            UInt64(bitPattern: Int64(fingerprint(of: page, inputs, snapshot) { _ in }))
        }
    }

    /// Every page's fingerprint by path, and which pages show each tweet: what a live preview
    /// needs to tell which pages an edit touched.
    public func pageFingerprintsByPath() -> PageFingerprints {
        let inputs = sharedInputs()
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(plan.pages.count)
        let snapshot = site.snapshot
        var showing = [[Int32]](repeating: [], count: snapshot.tweets.count)
        for (p, page) in plan.pages.enumerated() {
            byPath[page.path] = fingerprint(of: page, inputs, snapshot) { showing[$0].append(Int32(p)) }
        }
        return PageFingerprints(byPath: byPath, pagesShowing: showing, inputs: inputs)
    }

    /// After `updatingContent(of: changed, …)`: recomputes the fingerprints of the pages that
    /// show a changed tweet and returns the paths whose fingerprint differs.
    public func updateFingerprints(_ fingerprints: inout PageFingerprints, changed: [Int]) -> [String] {
        let inputs = fingerprints.inputs
        var candidates = Set<Int32>()
        for t in changed { candidates.formUnion(fingerprints.pagesShowing[t]) }
        // The term shards hold every tweet's words: a content edit may change any of them.
        for (p, page) in plan.pages.enumerated() {
            switch page.kind {
            case .searchFile(.terms), .searchFile(.manifest): candidates.insert(Int32(p))
            default: break
            }
        }
        var updated: [String] = []
        let snapshot = site.snapshot
        for p in candidates.sorted() {
            let page = plan.pages[Int(p)]
            let new = fingerprint(of: page, inputs, snapshot) { _ in }
            if fingerprints.byPath[page.path] != new {
                fingerprints.byPath[page.path] = new
                updated.append(page.path)
            }
        }
        return updated
    }

    /// A page's fingerprint; `shows` is told every tweet whose card or content it includes.
    /// `snapshot` is `site.snapshot`, passed in: taken here, it was copied (retained) per page.
    private func fingerprint(of page: Page, _ inputs: SharedInputs, _ snapshot: Snapshot, shows: (Int) -> Void)
        -> Int
    {
        var h = StableHasher()
        h.combine(inputs.global)
        h.combine(inputs.theme.salt(for: page.kind))
        h.combine(page.path)
        func cards(_ items: some Collection<Int>) {
            for t in items {
                h.combine(cardFingerprints[t])
                shows(t)
            }
        }
        func combine(_ series: [(month: Month, count: Int)]) {
            for entry in series {
                h.combine(entry.month.year)
                h.combine(entry.month.month)
                h.combine(entry.count)
            }
        }
        func slice(_ items: some RandomAccessCollection<Int>, _ number: Int) {
            let size = site.config.pageSize
            h.combine(items.count)  // the pager's page count
            cards(items.dropFirst((number - 1) * size).prefix(size))
        }
        switch page.kind {
        case .feed(let number):
            slice(snapshot.tweets.indices, number)
        case .tweet(let t):
            // The whole conversation (SPEC 7): every card, where it sits, and the gap above.
            h.combine(snapshot.tweets[t].caption)
            h.combine(snapshot.tweetRelations[t].author.map { snapshot.users[$0].fullname })
            let conversation = Conversation(of: t, in: snapshot)
            h.combine(conversation.isCutShort)
            h.combine(conversation.ancestors.count)
            h.combine(conversation.hiddenAncestors)
            h.combine(conversation.hasMoreReplies)
            if let hidden = conversation.firstHiddenAncestor(in: snapshot) { h.combine(snapshot.tweets[hidden].id) }
            cards(conversation.ancestors)
            cards([t])
            cards(snapshot.tweetRelations[t].parent.map { [$0] } ?? [])
            for reply in conversation.replies { h.combine(reply.depth) }
            cards(conversation.replies.map(\.tweet))
        case .profile(let user, let tab, let number):
            h.combine(inputs.users[user])
            let activity = snapshot.userActivity[user]
            slice(tab == .tweets ? activity.tweets : tab == .replies ? activity.replies : activity.likes, number)
            if tab == .tweets, number == 1 {  // the user's chart
                combine(site.archive.monthlyCounts(of: activity.tweets + activity.replies))
            }
        case .favorites(let user):
            h.combine(inputs.users[user])
            for place in snapshot.userActivity[user].favorites {
                h.combine(place.id)
                h.combine(place.name)
                h.combine(place.address)
                h.combine(place.coordinate?.latitude)
                h.combine(place.coordinate?.longitude)
            }
        case .tag(let index, let number):
            h.combine(snapshot.tags[index].tag)
            slice(snapshot.tags[index].tweets, number)
        case .atom(let user):
            h.combine(user.map { inputs.users[$0] })
            let entries = AtomFeedView.page(site: site, user: user).entries
            cards(entries)
            if entries.isEmpty, let newest = snapshot.tweets.first {  // its `updated` (AtomFeedView)
                h.combine(Int(newest.timestamp.seconds))
            }
        case .sitemap, .sitemapPart:
            h.combine(inputs.sitemap)
        case .notFound:
            break
        case .archive:
            for year in site.archive.years {
                h.combine(year.year)
                h.combine(year.tweets.count)
            }
        case .archiveYear(let y, let number):
            let year = site.archive.years[y]
            h.combine(year.year)
            for month in year.months {
                h.combine(month.month.month)
                h.combine(month.tweets.count)
            }
            slice(year.tweets, number)
        case .archiveMonth(let y, let m, let number):
            let year = site.archive.years[y]
            h.combine(year.year)
            h.combine(year.tweets.count)
            h.combine(year.months[m].month.month)
            slice(year.months[m].tweets, number)
        case .tagIndex:
            for i in site.tagsByUse {
                h.combine(snapshot.tags[i].tag)
                h.combine(snapshot.tags[i].tweets.count)
            }
        case .top:
            cards(site.top)
        case .stats:
            h.combine(snapshot.users.count)
            h.combine(snapshot.tweets.count)
            h.combine(snapshot.tweets.count { $0.isReply })
            h.combine(snapshot.likeCount)
            h.combine(snapshot.userActivity.reduce(0) { $0 + $1.favorites.count })
            for i in site.tagsByUse.prefix(Self.statsListLength) {
                h.combine(snapshot.tags[i].tag)
                h.combine(snapshot.tags[i].tweets.count)
            }
            for u in Self.mostActive(snapshot).prefix(Self.statsListLength) { h.combine(inputs.users[u]) }
            combine(site.archive.monthlyCounts(of: snapshot.tweets.indices))
        case .search:
            // The tag links of the page (`searchPage`).
            for tag in snapshot.tags {
                h.combine(tag.tag)
                h.combine(tag.tweets.count)
            }
        case .searchFile(let file):
            searchFileFingerprint(file, into: &h)
            if case .docs(let bucket) = file {
                for n in docNumbers(bucket) { shows(search.tweet(number: n)) }
            }
        }
        return h.finalize()
    }
}
