import Synchronization

/// Which entries of the previous manifest a build has produced, by position, taken without
/// the writer's lock: a rebuild keeps tens of thousands of files from as many threads, and
/// each one locking and hashing its path into the table of what was produced cost more
/// than the `lstat` that checks it. Each position is claimed once; a second claim is a path
/// produced twice.
final class PositionClaims: @unchecked Sendable {  // each slot is an atomic; `slots` never moves
    /// What became of a position.
    enum Claim: UInt8 {
        case none = 0
        /// Kept as the last build left it (`SiteWriter.keep`).
        case kept = 1
        /// Written, or found unchanged, through `SiteWriter.write` (in the table of what was produced).
        case written = 2
    }

    let count: Int
    private let slots: UnsafeMutablePointer<Atomic<UInt8>>
    /// Set once the writer committed or was abandoned: no claim is taken after.
    private let closed = Atomic<Bool>(false)

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        for k in 0..<count { (slots + k).initialize(to: Atomic(Claim.none.rawValue)) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Claims `position` as `claim`; false when it was claimed already.
    func claim(_ position: Int, as claim: Claim) -> Bool {
        slots[position].compareExchange(expected: Claim.none.rawValue, desired: claim.rawValue, ordering: .relaxed)
            .exchanged
    }

    /// Gives `position` up again (a write that failed).
    func release(_ position: Int) { slots[position].store(Claim.none.rawValue, ordering: .relaxed) }

    /// Read once the threads that claimed are done (the commit).
    subscript(position: Int) -> Claim { Claim(rawValue: slots[position].load(ordering: .relaxed)) ?? .none }

    var isClosed: Bool { closed.load(ordering: .relaxed) }
    func close() { closed.store(true, ordering: .relaxed) }
}
