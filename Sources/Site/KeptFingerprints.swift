import Support

/// Every page's fingerprint one renderer made, with what the next build needs to take them
/// instead of making them all again: what they share (`SharedInputs`), the plan they are in
/// order of, each tweet's card fingerprint, and which pages show each tweet. A build keeps
/// them with its snapshot (the build cache); a rebuild whose snapshot differs from theirs in
/// tweets' content alone (`Snapshot.replacingContent`, which keeps every relation, so every
/// page's place and what it lists) fingerprints again only the pages that show a tweet whose
/// card moved, and the search index's files (`SiteRenderer.pageFingerprints(taking:)`).
package struct KeptFingerprints: Sendable, Equatable {
    /// `SiteRenderer.sharedDigest`: the options, viewer, users' headers, sitemap and theme.
    package var shared: UInt64
    /// `SiteRenderer.planDigest`: every page's path, in plan order, but the search index's
    /// term shards: new words cut those elsewhere, and they are fingerprinted again anyway.
    package var plan: UInt64
    /// Where the term shards are in the plan (they are one run of pages).
    package var terms: Range<Int>
    /// Each page's fingerprint, in plan order.
    package var pages: [UInt64]
    /// Each tweet's card fingerprint (`SiteContext.cardFingerprint`).
    package var cards: [UInt64]
    /// The pages (plan indices, ascending) that show tweet `t` are
    /// `showing[showingStarts[t]..<showingStarts[t + 1]]`.
    package var showingStarts: [UInt32]
    package var showing: [UInt32]

    package init(
        shared: UInt64, plan: UInt64, terms: Range<Int>, pages: [UInt64], cards: [UInt64], showingStarts: [UInt32],
        showing: [UInt32]
    ) {
        self.shared = shared
        self.plan = plan
        self.terms = terms
        self.pages = pages
        self.cards = cards
        self.showingStarts = showingStarts
        self.showing = showing
    }

    /// The counts agree with each other, and every page index is in the plan.
    package var isConsistent: Bool {
        guard terms.lowerBound >= 0, terms.upperBound <= pages.count, showingStarts.count == cards.count + 1,
            showingStarts.first == 0,
            Int(showingStarts.last ?? 1) == showing.count, zip(showingStarts, showingStarts.dropFirst()).allSatisfy(<=)
        else { return false }
        return showing.allSatisfy { Int($0) < pages.count }
    }
}

/// The card fingerprints a renderer takes rather than makes: those kept with every page's
/// (`KeptFingerprints`) by a build whose snapshot this one's differs from in the content of
/// the tweets `changed` alone (`Snapshot.replacingContent`: the same users and relations).
package struct KeptCards: Sendable {
    package let kept: KeptFingerprints
    package let changed: [Int]

    package init(_ kept: KeptFingerprints, changed: [Int]) {
        self.kept = kept
        self.changed = changed
    }
}

extension SiteRenderer {
    /// Every tweet's card fingerprint: `kept`'s, but the changed tweets' made again, when it
    /// was made with the same shared inputs and caption context (each of the others shows
    /// what it showed then); nil otherwise.
    static func cardFingerprints(_ site: SiteContext, taking kept: KeptCards, shared: SharedInputs) -> [Int]? {
        guard kept.kept.cards.count == site.snapshot.tweets.count,
            kept.kept.shared == sharedDigest(shared, captionContext: site.captionContext)
        else { return nil }
        var fingerprints = kept.kept.cards.map { Int(Int64(bitPattern: $0)) }
        for t in kept.changed { fingerprints[t] = site.cardFingerprint(t) }
        return fingerprints
    }

    /// Pages per task where fingerprints are made recording what each page shows.
    private static let recordingChunk = 64

    /// What every page's fingerprint shares, as one value, with the context captions are
    /// rendered in: when that is the same, a caption that did not change rendered the same, so
    /// its tweet's card fingerprint is the kept one (`cardFingerprints(_:taking:)`).
    static func sharedDigest(_ shared: SharedInputs, captionContext: UInt64) -> UInt64 {
        var h = StableHasher()
        h.combine(shared.global)
        h.combine(captionContext)
        h.combine(shared.users.count)
        for user in shared.users { h.combine(user) }
        h.combine(shared.sitemap)
        h.combine(shared.theme.digest)
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// Where the search index's term shards are in the plan.
    private var termShards: Range<Int> {
        guard let first = plan.pages.firstIndex(where: \.isSearchTermShard) else { return 0..<0 }
        return first..<first + search.shards.count
    }

    /// Every page's path, in plan order, but the term shards', as one value.
    private func planDigest(terms: Range<Int>) -> UInt64 {
        var h = StableHasher()
        h.combine(plan.pages.count - terms.count)
        h.combine(terms.lowerBound)
        for (p, page) in plan.pages.enumerated() where !terms.contains(p) { h.combine(page.path) }
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// Each page's fingerprint (as `pageFingerprints()`), with which pages show each tweet:
    /// what a later renderer takes them from.
    package func keptFingerprints() -> KeptFingerprints {
        let inputs = FingerprintInputs(renderer: self, shared: shared)
        let pages = plan.pages
        let chunk = Self.recordingChunk
        // Per task, its pages' fingerprints and the (tweet, page) pairs they show.
        let parts = [(values: [UInt64], shown: [(tweet: UInt32, page: UInt32)])](
            parallelCount: (pages.count + chunk - 1) / chunk
        ) { [self] c in
            var part = (values: [UInt64](), shown: [(tweet: UInt32, page: UInt32)]())
            for p in (c * chunk)..<min(pages.count, (c + 1) * chunk) {
                let (value, shown) = fingerprint(of: pages[p], inputs, recordingShown: true)
                part.values.append(UInt64(bitPattern: Int64(value)))
                // (A page that shows a tweet twice, a reply under its parent's card, lists it once.)
                var last = -1
                for t in (shown ?? []).sorted() where t != last {
                    part.shown.append((UInt32(t), UInt32(p)))
                    last = t
                }
            }
            return part
        }
        var values: [UInt64] = []
        values.reserveCapacity(pages.count)
        var starts = [UInt32](repeating: 0, count: snapshot.tweets.count + 1)
        for part in parts {
            values += part.values
            for pair in part.shown { starts[Int(pair.tweet) + 1] += 1 }
        }
        for t in snapshot.tweets.indices { starts[t + 1] += starts[t] }
        // In page order within each tweet: the parts are in page order.
        var next = starts
        var showing = [UInt32](repeating: 0, count: Int(starts.last ?? 0))
        for part in parts {
            for pair in part.shown {
                showing[Int(next[Int(pair.tweet)])] = pair.page
                next[Int(pair.tweet)] += 1
            }
        }
        let terms = termShards
        return KeptFingerprints(
            shared: Self.sharedDigest(shared, captionContext: site.captionContext), plan: planDigest(terms: terms),
            terms: terms, pages: values,
            cards: cardFingerprints.map { UInt64(bitPattern: Int64($0)) }, showingStarts: starts, showing: showing)
    }

    /// Each page's fingerprint, in plan order, taking from `kept` (made by a renderer of a
    /// snapshot that differs from this one's in tweets' content alone) those of the pages that
    /// show no tweet whose card differs from its card there; the others, and the search
    /// index's files (new words change its terms), are made now. Nil when `kept` was made with
    /// other shared inputs or for another plan (but its term shards): then every page is
    /// fingerprinted.
    package func pageFingerprints(taking kept: KeptFingerprints) -> [UInt64]? {
        let terms = termShards
        guard kept.cards.count == cardFingerprints.count, kept.isConsistent, kept.terms.lowerBound == terms.lowerBound,
            kept.pages.count - kept.terms.count == plan.pages.count - terms.count,
            kept.plan == planDigest(terms: terms),
            kept.shared == Self.sharedDigest(shared, captionContext: site.captionContext)
        else { return nil }
        // The kept pages after the term shards are as many places further on as there are more shards now.
        var fingerprints = Array(kept.pages[..<kept.terms.lowerBound])
        fingerprints += repeatElement(0, count: terms.count)
        fingerprints += kept.pages[kept.terms.upperBound...]
        let shift = terms.count - kept.terms.count
        var again = Set<Int>()
        for t in cardFingerprints.indices where UInt64(bitPattern: Int64(cardFingerprints[t])) != kept.cards[t] {
            for p in kept.showing[Int(kept.showingStarts[t])..<Int(kept.showingStarts[t + 1])] {
                // (No term shard shows a card.)
                again.insert(Int(p) < kept.terms.lowerBound ? Int(p) : Int(p) + shift)
            }
        }
        for (p, page) in plan.pages.enumerated() {
            if case .searchFile(let file) = page.kind, !file.isDocs { again.insert(p) }
        }
        let inputs = FingerprintInputs(renderer: self, shared: shared)
        for p in again {
            fingerprints[p] = UInt64(
                bitPattern: Int64(fingerprint(of: plan.pages[p], inputs, recordingShown: false).value))
        }
        return fingerprints
    }
}

extension SearchFile {
    /// Result cards' data, whose fingerprint is its tweets' cards.
    fileprivate var isDocs: Bool {
        if case .docs = self { return true }
        return false
    }
}
