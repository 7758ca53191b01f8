import Dispatch
import Store
import Synchronization

/// Pages of documents handed from the threads that read groups at once to the one that
/// takes them, and the first failure of any.
final class PageQueue: Sendable {
    private struct State {
        var pages: [[Document]] = []
        var running: Int
        var error: StoreError?
    }

    private let state: Mutex<State>
    /// One signal for each page put and each reader finished.
    private let events = DispatchSemaphore(value: 0)

    init(producers: Int) { state = Mutex(State(running: producers)) }

    func put(_ page: [Document]) {
        state.withLock { $0.pages.append(page) }
        events.signal()
    }

    /// A reader is done; `error` when it failed.
    func finish(_ error: StoreError?) {
        state.withLock {
            $0.running -= 1
            if $0.error == nil { $0.error = error }
        }
        events.signal()
    }

    /// The next page; nil once every reader is done and every page taken.
    func next() -> [Document]? {
        while true {
            events.wait()
            let (page, done): ([Document]?, Bool) = state.withLock { s in
                s.pages.isEmpty ? (nil, s.running == 0) : (s.pages.removeFirst(), false)
            }
            if let page { return page }
            if done { return nil }
        }
    }

    var firstError: StoreError? { state.withLock { $0.error } }
}
