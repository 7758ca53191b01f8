import Foundation
import Support
import Synchronization
import Testing

@Suite("BlockingWork: every index once, many at once")
struct BlockingWorkTests {
    @Test(arguments: [(0, 16), (1, 16), (5, 16), (1000, 16), (1000, 1)])
    func makesEveryCallOnce(count: Int, threads: Int) {
        let seen = Mutex([Int](repeating: 0, count: count))
        let work = BlockingWork(count: count, threads: threads) { i in seen.withLock { $0[i] += 1 } }
        work.wait()
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
        work.wait()  // (again: nothing more)
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    /// Eight calls that each wait for all eight to have begun: made one after another (or two
    /// at a time, as a dispatch queue on two cores would), each would wait in vain.
    @Test func callsThatWaitRunAtOnce() {
        let begun = Atomic<Int>(0)
        let metAll = Atomic<Int>(0)
        let work = BlockingWork(count: 8, threads: 8) { _ in
            begun.add(1, ordering: .relaxed)
            let deadline = Date().addingTimeInterval(10)
            while begun.load(ordering: .relaxed) < 8, Date() < deadline { usleep(1000) }
            if begun.load(ordering: .relaxed) == 8 { metAll.add(1, ordering: .relaxed) }
        }
        work.wait()
        #expect(metAll.load(ordering: .relaxed) == 8)
    }

    @Test func callsAreMadeWhenDroppedWithoutWaiting() {
        let made = Atomic<Int>(0)
        do {
            _ = BlockingWork(count: 100, threads: 4) { _ in made.add(1, ordering: .relaxed) }
        }
        let deadline = Date().addingTimeInterval(10)
        while made.load(ordering: .relaxed) < 100, Date() < deadline { usleep(1000) }
        #expect(made.load(ordering: .relaxed) == 100)
    }
}
