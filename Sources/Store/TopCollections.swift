import Synchronization

/// The top collections of the documents of a read, gathered from the threads that decode
/// them, for SPEC 13: a store whose documents are in none of Roost's collections is refused.
package final class TopCollections: Sendable {
    private let names = Mutex<Set<String>>([])

    package init() {}

    package func add(_ path: DocumentPath) {
        let top = path.segments[0]
        names.withLock { _ = $0.insert(top) }
    }

    /// Throws `noRoostCollections` when documents were read and none is Roost's.
    package func check(store: String) throws(StoreError) {
        if let problem = StoreShape.roostProblem(store: store, collections: names.withLock { $0 }) { throw problem }
    }
}
