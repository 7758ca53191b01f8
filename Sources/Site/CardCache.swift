import Synchronization

/// Each tweet's card (`partials/card`), rendered on first use and kept for every later page
/// that shows it. A full build ends up rendering every card once (each tweet has its own
/// page); a rebuild renders only the cards of the pages it renders again.
///
/// Kept up to `budget` bytes of cards: a card shows on pages all over the plan (the feed,
/// its own page, profiles, likes tabs, tags, the archive), so each stays until the end of a
/// build; at a million tweets that would be 1.6 GB of cards. Past the budget a card is
/// rendered again at each use: the same bytes, for some more CPU, only in stores that large.
/// (Dropping a card after the last page that shows it would not lower the peak: the feed,
/// first in the plan, shows every card, and the archive, near the end, shows them again.)
final class CardCache: Sendable {
    private struct Slots {
        var cards: [String?]
        var bytes: Int
    }

    private let slots: Mutex<Slots>
    /// Bytes of cards kept at most (`SiteRenderer.defaultCardBudget(tweets:)` unless told otherwise).
    let budget: Int

    /// `seeds`: cards known already (nil where not), one per tweet.
    init(_ seeds: [String?], budget: Int) {
        self.budget = budget
        slots = Mutex(Slots(cards: seeds, bytes: seeds.reduce(0) { $0 + ($1?.utf8.count ?? 0) }))
    }

    /// The cards kept so far.
    var rendered: [String?] { slots.withLock { $0.cards } }

    /// Card `t`, from `render` the first time (or every time, once the cache is full). Two
    /// threads may render the same card at once; both get the same bytes, so either may be kept.
    func card(_ t: Int, render: () throws -> String) rethrows -> String {
        if let card = slots.withLock({ $0.cards[t] }) { return card }
        let card = try render()
        slots.withLock { slots in
            let size = card.utf8.count
            guard slots.cards[t] == nil, slots.bytes + size <= budget else { return }
            slots.cards[t] = card
            slots.bytes += size
        }
        return card
    }
}
