import Synchronization

/// Each tweet's card (`partials/card`), rendered on first use and kept for every later page
/// that shows it. A full build ends up rendering every card once (each tweet has its own
/// page); a rebuild renders only the cards of the pages it renders again.
final class CardCache: Sendable {
    private let slots: Mutex<[String?]>

    /// `seeds`: cards known already (nil where not), one per tweet.
    init(_ seeds: [String?]) {
        slots = Mutex(seeds)
    }

    /// The cards rendered so far.
    var rendered: [String?] { slots.withLock { $0 } }

    /// Card `t`, from `render` the first time. Two threads may render the same card at once;
    /// both get the same bytes, so either may be kept.
    func card(_ t: Int, render: () throws -> String) rethrows -> String {
        if let card = slots.withLock({ $0[t] }) { return card }
        let card = try render()
        slots.withLock { $0[t] = card }
        return card
    }
}
