import Support
import Synchronization
import Testing

@Suite("parallelForEach: every index once; the earliest error wins")
struct ParallelForEachTests {
    struct Failed: Error, Equatable { let index: Int }

    @Test(arguments: [0, 1, 7, 1000])
    func visitsEveryIndexOnce(count: Int) {
        let seen = Mutex([Int](repeating: 0, count: count))
        parallelForEach(count: count, chunk: 3) { i in seen.withLock { $0[i] += 1 } }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    @Test func theEarliestFailingIndexIsThrown() {
        // Every index from 500 on fails, in chunks that run in any order.
        #expect(throws: Failed(index: 500)) {
            try parallelForEach(count: 10_000, chunk: 10) { i throws(Failed) in
                if i >= 500 { throw Failed(index: i) }
            }
        }
    }
}
