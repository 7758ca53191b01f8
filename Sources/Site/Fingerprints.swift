import Model
import Mustache
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
    func cardFingerprint(_ t: Int) -> Int { cardFingerprint(t, identity: identity(of:)) }

    /// Every tweet's `cardFingerprint`, on all cores: each user's identity hashed once, not
    /// once per card that shows it.
    func cardFingerprints() -> [Int] {
        let identities = snapshot.users.indices.map { identity(of: $0) }
        let none = identity(of: nil)
        return [Int](parallelCount: snapshot.tweets.count, chunk: 256) { t in
            cardFingerprint(t) { $0.map { identities[$0] } ?? none }
        }
    }

    private func cardFingerprint(_ t: Int, identity: (Int?) -> UInt64) -> Int {
        // Field by field: a copy of the tweet and its relations retained every one of their parts.
        var h = StableHasher()
        h.combine(snapshot.tweets[t].id)
        h.combine(snapshot.tweets[t].caption)
        h.combine(captionDigests[t])
        h.combine(Int(snapshot.tweets[t].timestamp.seconds))
        h.combine(Int(snapshot.tweets[t].timestamp.nanoseconds))
        let isReply = snapshot.tweets[t].isReply
        h.combine(isReply)
        h.combine(snapshot.tweetRelations[t].likers.count)
        h.combine(viewerLiked[t])
        h.combine(snapshot.tweetRelations[t].replies.count)
        h.combine(identity(snapshot.tweetRelations[t].author))
        if isReply {
            let parent = snapshot.tweetRelations[t].parent
            h.combine(parent.map { snapshot.tweets[$0].id })
            h.combine(identity(parent.flatMap { snapshot.tweetRelations[$0].author }))
        }
        return h.finalize()
    }

    /// Everything a profile header shows of a user.
    func userFingerprint(_ u: Int) -> Int {
        var h = StableHasher()
        h.combine(identity(of: u))
        h.combine(bios[u])
        let activity = snapshot.userActivity[u]
        h.combine(activity.tweets.count)
        h.combine(activity.replies.count)
        h.combine(activity.likes.count)
        h.combine(activity.favorites.count)
        return h.finalize()
    }

    /// What a card shows of a user (none: nil), hashed: name, username, handle (its links), picture.
    private func identity(of user: Int?) -> UInt64 {
        var h = StableHasher()
        guard let user else {
            h.combine(false)
            return UInt64(bitPattern: Int64(h.finalize()))
        }
        h.combine(true)
        h.combine(snapshot.users[user].fullname)
        h.combine(snapshot.users[user].username)
        h.combine(snapshot.users[user].handle)
        h.combine(avatars[user])  // a mirrored picture's path changes with its bytes
        return UInt64(bitPattern: Int64(h.finalize()))
    }
}

/// Each page's fingerprint by path, and which pages show each tweet.
package struct PageFingerprints: Sendable {
    package internal(set) var byPath: [String: Int]
    /// Per tweet, the plan indices of the pages whose fingerprint includes it.
    let pagesShowing: [[Int32]]
    /// What all fingerprints share; a content edit leaves it as it is.
    fileprivate let inputs: SiteRenderer.SharedInputs
}

extension SiteRenderer {
    /// What every page's fingerprint shares: the options, the viewer, the users' headers, the
    /// sitemap, the theme's part by kind of page.
    struct SharedInputs: Sendable {
        let global: Int
        let users: [Int]
        let sitemap: Int
        let theme: TemplateSalts
    }

    /// What every page's fingerprint shares (`SiteRenderer.shared`, made once with the renderer).
    static func sharedInputs(
        site: SiteContext, plan: SitePlan, templates: TemplateLibrary, inlineStyle: InlineStyle?
    ) -> SharedInputs {
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
        // Only sitemaps show every HTML page's path and every time, and a site has them only
        // with an absolute base. (Not the other files' paths: a search term shard cut elsewhere
        // leaves the sitemaps as they are.)
        var sitemap = StableHasher()
        if site.config.hasAbsoluteBase {
            for p in plan.sitemapIndices { sitemap.combine(plan.pages[Int(p)].path) }
            for tweet in snapshot.tweets { sitemap.combine(Int(tweet.timestamp.seconds)) }
        }
        return SharedInputs(
            global: global.finalize(), users: snapshot.users.indices.map(site.userFingerprint),
            sitemap: sitemap.finalize(), theme: TemplateSalts(templates: templates, inlineStyle: inlineStyle))
    }

    /// Each page's fingerprint, in plan order: what a build compares with the manifest.
    /// Each page's is its own work: on all cores.
    package func pageFingerprints() -> [UInt64] {
        let inputs = FingerprintInputs(renderer: self, shared: shared)
        return plan.pages.parallelMap { [self] page in
            UInt64(bitPattern: Int64(fingerprint(of: page, inputs, recordingShown: false).value))
        }
    }

    /// Every page's fingerprint by path, and which pages show each tweet: what a live preview
    /// needs to tell which pages an edit touched.
    package func pageFingerprintsByPath() -> PageFingerprints {
        let inputs = FingerprintInputs(renderer: self, shared: shared)
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(plan.pages.count)
        var showing = [[Int32]](repeating: [], count: site.snapshot.tweets.count)
        for (p, page) in plan.pages.enumerated() {
            let (value, shown) = fingerprint(of: page, inputs, recordingShown: true)
            byPath[page.path] = value
            for t in shown ?? [] { showing[t].append(Int32(p)) }
        }
        return PageFingerprints(byPath: byPath, pagesShowing: showing, inputs: inputs.shared)
    }

    /// After `updatingContent(of: changed, …)`: recomputes the fingerprints of the pages that
    /// show a changed tweet and returns the paths whose fingerprint differs.
    package func updateFingerprints(_ fingerprints: inout PageFingerprints, changed: [Int]) -> [String] {
        let inputs = FingerprintInputs(renderer: self, shared: fingerprints.inputs)
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
        for p in candidates.sorted() {
            let page = plan.pages[Int(p)]
            let new = fingerprint(of: page, inputs, recordingShown: false).value
            if fingerprints.byPath[page.path] != new {
                fingerprints.byPath[page.path] = new
                updated.append(page.path)
            }
        }
        return updated
    }

    /// A page's fingerprint: what every page has (the options, the viewer, the theme's part for
    /// its kind, its path), then what its kind's declaration hashes (`PageDeclaration`); and,
    /// when `recordingShown`, every tweet whose card or content it includes.
    func fingerprint(of page: Page, _ inputs: FingerprintInputs, recordingShown: Bool)
        -> (value: Int, shown: [Int]?)
    {
        let declaration = page.kind.declaration
        var f = PageFingerprint(inputs, recordingShown: recordingShown)
        f.combine(inputs.shared.global)
        f.combine(inputs.shared.theme.salt(for: declaration))
        f.combine(page.path)
        declaration.fingerprint(&f)
        return (f.finalize(), f.shown)
    }
}
