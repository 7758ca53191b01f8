import Synchronization

/// The top collections of the documents of a read, gathered from the threads that decode
/// them, for SPEC 13: a store whose documents are in none of Roost's collections is refused.
package final class TopCollections: Sendable {
    private let names = Mutex<Set<String>>([])
    /// Set once a document of Roost's is seen: the store passes, and no name need be kept
    /// (so the lock is not taken for each of a large store's documents).
    private let sawRoosts = Atomic<Bool>(false)

    package init() {}

    package func add(_ path: DocumentPath) {
        guard !sawRoosts.load(ordering: .relaxed) else { return }
        let top = path.segments[0]
        if StoreShape.collections.contains(top) { sawRoosts.store(true, ordering: .relaxed) }
        names.withLock { _ = $0.insert(top) }
    }

    /// Throws `noRoostCollections` when documents were read and none is Roost's.
    package func check(store: String) throws(StoreError) {
        if let problem = StoreShape.roostProblem(store: store, collections: names.withLock { $0 }) { throw problem }
    }
}
