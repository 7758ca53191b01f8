import Model
import Site
import Store
import TestSupport
import Testing

/// A renderer takes the fingerprints an earlier one kept (`KeptFingerprints`) when its snapshot
/// differs from that one's in tweets' content alone: every page's fingerprint is then the one
/// it would have made itself; with other options or another plan, it takes none.
@Suite struct KeptFingerprintsTests {
    static let config = SiteConfig(baseURL: "https://example.com/r/", pageSize: 4, viewer: "mina")

    static func renderer(
        _ documents: [Document], config: SiteConfig = config, images: SiteImages = SiteImages(),
        keptCards: KeptCards? = nil
    ) throws -> SiteRenderer {
        try SiteRenderer(
            snapshot: Snapshot(documents: documents), config: config,
            templates: defaultTemplates(language: config.language), images: images, keptCards: keptCards)
    }

    /// The indices of these tweets in the snapshot of `documents`.
    static func indices(_ paths: some Sequence<String>, in documents: [Document]) throws -> [Int] {
        let snapshot = Snapshot(documents: documents)
        return try paths.map { path in try #require(snapshot.tweet(id: String(path.dropFirst("tweets/".count)))) }
    }

    /// `richStore` with these tweets' captions replaced (their hashtags kept, so every
    /// relation is the same).
    static func reworded(_ captions: [String: String]) -> [Document] {
        richStore.map { document in
            guard let caption = captions[document.path.description] else { return document }
            var document = document
            document.fields.append("caption", .string(caption))  // (the last of a key wins)
            return document
        }
    }

    @Test func theKeptFingerprintsAreTheRenderersOwn() throws {
        let renderer = try Self.renderer(richStore)
        let kept = renderer.keptFingerprints()
        #expect(kept.pages == renderer.pageFingerprints())
        #expect(kept.isConsistent)
        #expect(kept.cards.count == renderer.snapshot.tweets.count)
        // Every tweet is shown by some page (its own, at least).
        #expect(kept.cards.indices.allSatisfy { kept.showingStarts[$0] < kept.showingStarts[$0 + 1] })
    }

    /// Captions reworded: a root with replies, a reply, a tweet with a hashtag, a mention
    /// that now links, a caption in another script; one at a time and all at once.
    @Test(arguments: [
        ["tweets/a1": "Hello #Swift everyone, again"],
        ["tweets/r1": "Nice one indeed"],
        ["tweets/a3": "Seoul trip #서울 with friends"],
        ["tweets/s1": "Now I mention @bob"],
        ["tweets/m1": "Верхняя луна"],
        ["tweets/a1": "Hello #Swift", "tweets/r4": "Who?", "tweets/k1": "#서울 again, quokka zebra"],
    ])
    func aRewordedCaptionTakesTheKeptFingerprints(_ captions: [String: String]) throws {
        let kept = try Self.renderer(richStore).keptFingerprints()
        let renderer = try Self.renderer(Self.reworded(captions))
        let full = renderer.pageFingerprints()
        // (New words may cut the search index's shards elsewhere: the pages after them move.)
        #expect(renderer.pageFingerprints(taking: kept) == full)
        #expect(full != kept.pages, "the edit changes some page")

        // A renderer that takes the kept cards (the reworded ones made again) has every card
        // fingerprint, so every page's, of one that made them all.
        let reworded = Self.reworded(captions)
        let taking = try Self.renderer(
            reworded, keptCards: KeptCards(kept, changed: Self.indices(captions.keys, in: reworded)))
        #expect(taking.keptFingerprints().cards == renderer.keptFingerprints().cards)
        #expect(taking.pageFingerprints(taking: kept) == full)
    }

    /// A caption that did not change but renders otherwise now (its image mirrored since)
    /// changes its card: kept cards made in another caption context are not taken.
    @Test func keptCardsOfAnotherCaptionContextAreNotTaken() throws {
        var config = Self.config
        config.media = .mirror
        let url = "https://example.com/cat.png"
        let store = Self.reworded(["tweets/a2": "A cat ![a cat](\(url)) #swift"])
        let kept = try Self.renderer(store, config: config).keptFingerprints()
        let images = SiteImages([url: SiteImages.Copy(path: "media/0123abcd.png", width: 40, height: 30)])
        let made = try Self.renderer(store, config: config, images: images)
        let taking = try Self.renderer(
            store, config: config, images: images, keptCards: KeptCards(kept, changed: []))
        #expect(made.keptFingerprints().cards != kept.cards, "the mirrored image changes a card")
        #expect(taking.keptFingerprints().cards == made.keptFingerprints().cards)
        #expect(taking.pageFingerprints(taking: kept) == nil)
    }

    /// So many new words that the search index has more term shards: the pages after them are
    /// found that many places further on.
    @Test func newTermShardsMoveThePagesAfterThem() throws {
        let original = try Self.renderer(richStore)
        let kept = original.keptFingerprints()
        let words = (0..<400).map { "zq\($0)word\($0 * 7919 % 1000)" }.joined(separator: " ")
        let renderer = try Self.renderer(Self.reworded(["tweets/s1": "Dots " + words]))
        #expect(renderer.search.shards.count > original.search.shards.count)
        #expect(renderer.pageFingerprints(taking: kept) == renderer.pageFingerprints())
    }

    /// Fingerprints kept before a caption was reworded serve the renderer of the caption
    /// reworded back, and of another caption reworded after it.
    @Test func fingerprintsKeptAfterAnEditServeTheNextOnes() throws {
        let kept = try Self.renderer(Self.reworded(["tweets/a2": "#swift is fine"])).keptFingerprints()
        for captions in [[:], ["tweets/a2": "#swift is fine", "tweets/r2": "Agreed, twice"]] {
            let renderer = try Self.renderer(Self.reworded(captions))
            #expect(renderer.pageFingerprints(taking: kept) == renderer.pageFingerprints())
        }
    }

    @Test func otherOptionsOrAnotherPlanTakeNone() throws {
        let kept = try Self.renderer(richStore).keptFingerprints()
        var config = Self.config
        config.title = "Another title"
        #expect(try Self.renderer(richStore, config: config).pageFingerprints(taking: kept) == nil)
        config = Self.config
        config.pageSize = 3
        #expect(try Self.renderer(richStore, config: config).pageFingerprints(taking: kept) == nil)
        let renamed = richStore.map { document -> Document in
            guard document.path.description == "users/uBob" else { return document }
            return user("uBob", "bob", fullname: "Robert")
        }
        #expect(try Self.renderer(renamed).pageFingerprints(taking: kept) == nil)
        var damaged = kept
        damaged.showing[0] = UInt32(kept.pages.count)
        #expect(try Self.renderer(richStore).pageFingerprints(taking: damaged) == nil)
    }
}
