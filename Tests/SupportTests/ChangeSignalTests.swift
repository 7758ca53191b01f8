import Dispatch
import Support
import Synchronization
import Testing

@Suite("ChangeSignal: waiting on a Mutex's state")
struct ChangeSignalTests {
    @Test func timesOutWhenNothingChanges() {
        let signal = ChangeSignal()
        let start = ContinuousClock.now
        #expect(!signal.wait(timeout: .milliseconds(50)) { false })
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func wakesWhenTheStateChanges() {
        let signal = ChangeSignal()
        let ready = Mutex(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            ready.withLock { $0 = true }
            signal.notify()
        }
        #expect(signal.wait(timeout: .seconds(10)) { ready.withLock { $0 } })
    }
}
