import Synchronization
import Testing

@testable import Support

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background: a value made on another thread")
struct BackgroundTests {
    @Test func theValueIsMadeOnceAndWaitedFor() {
        let made = Atomic<Int>(0)
        let value = Background { () -> Int in
            usleep(20_000)
            made.add(1, ordering: .relaxed)
            return 42
        }
        #expect(value.value == 42)
        #expect(value.value == 42)
        let times = made.load(ordering: .relaxed)
        #expect(times == 1)
    }

    /// What the work made is not left running past the scope that dropped it.
    @Test func droppingItWaitsForTheWork() {
        let done = Atomic<Bool>(false)
        do {
            _ = Background { () -> Int in
                usleep(50_000)
                done.store(true, ordering: .relaxed)
                return 0
            }
        }
        let finished = done.load(ordering: .relaxed)
        #expect(finished)
    }
}
