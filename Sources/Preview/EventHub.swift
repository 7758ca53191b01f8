import Support
import Synchronization

/// The open `/__roost/events` streams and what is waiting to be sent on each.
final class EventHub: Sendable {
    private struct Streams {
        var pending: [Int: [UInt8]] = [:]
        var nextID = 0
        var closed = false
    }

    private let streams = Mutex(Streams())
    /// Notified when bytes are published or the hub closes: blocked `next` calls look again.
    private let changed = ChangeSignal()
    let keepAliveInterval: Duration

    private static let keepAlive = Array(": keep-alive\n\n".utf8)

    init(keepAliveInterval: Duration) {
        self.keepAliveInterval = keepAliveInterval
    }

    /// Registers a stream; `initial` is sent first.
    func connect(initial: [UInt8]) -> Int {
        streams.withLock { streams in
            streams.nextID += 1
            streams.pending[streams.nextID] = initial
            return streams.nextID
        }
    }

    func disconnect(_ id: Int) {
        streams.withLock { _ = $0.pending.removeValue(forKey: id) }
    }

    var count: Int {
        streams.withLock { $0.pending.count }
    }

    func broadcast(_ bytes: [UInt8]) {
        streams.withLock { streams in
            for id in streams.pending.keys { streams.pending[id]!.append(contentsOf: bytes) }
        }
        changed.notify()
    }

    /// Opens the hub (again) after `close()`.
    func open() {
        streams.withLock { $0.closed = false }
    }

    /// Ends every stream: blocked `next` calls return nil.
    func close() {
        streams.withLock { $0.closed = true }
        changed.notify()
    }

    /// The next bytes for a stream, at most `max`: blocks until something is published, or sends a
    /// keep-alive comment after `keepAliveInterval`. Nil when the hub is closed (end of the stream).
    func next(for id: Int, max: Int) -> [UInt8]? {
        let woken = changed.wait(timeout: keepAliveInterval) {
            streams.withLock { $0.closed || !($0.pending[id]?.isEmpty ?? false) }
        }
        return streams.withLock { streams -> [UInt8]? in
            if !woken, !streams.closed, streams.pending[id] != nil { streams.pending[id]! += Self.keepAlive }
            guard !streams.closed, var bytes = streams.pending[id] else { return nil }
            if bytes.count > max {
                streams.pending[id] = Array(bytes[max...])
                bytes.removeSubrange(max...)
            } else {
                streams.pending[id] = []
            }
            return bytes
        }
    }
}
