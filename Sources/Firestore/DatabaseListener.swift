import Dispatch
import FirestoreListen
import Store
import Synchronization

/// The database followed live for `roost serve` (SPEC 11): one listen stream
/// (`google.firestore.v1.Firestore/Listen`) whose targets `plan` chooses, kept as the official
/// clients keep theirs (`ListenState`), each consistent step handed on as the documents that
/// changed. When the stream ends or fails, what is shown is said to be stale
/// (`SourceChange.interrupted`) and the stream opens again with back-off and the resume tokens,
/// until it is caught up (`resumed`); it never gives up.
package final class DatabaseListener: ChangeFollowing, Sendable {
    private let endpoint: FirestoreEndpoint
    private let onChange: @Sendable ([SourceChange]) -> Void
    /// Waits before opening the stream again: the first, and the longest.
    private let backOff: (first: Duration, longest: Duration)

    private struct State: Sendable {
        var listen = ListenState()
        var stream: GRPCStream?
        /// Counts the streams opened: callbacks of an older one are ignored.
        var generation = 0
        var stopped = false
        /// The first consistent state of every target has been handed on (`everything`).
        var delivered = false
        /// Why the stream is down, while it is (said once per outage).
        var interruption: String?
        /// The stream gave a step since it opened (its resume tokens work).
        var stepSinceConnect = false
        var nextDelay: Duration
        var planned: PlannedTargets
    }

    private let state: Mutex<State>

    package init(
        endpoint: FirestoreEndpoint, plan: ListenPlan,
        backOff: (first: Duration, longest: Duration) = (.milliseconds(250), .seconds(8)),
        onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) {
        self.endpoint = endpoint
        self.backOff = backOff
        self.onChange = onChange
        var listen = ListenState()
        let planned = PlannedTargets(plan, in: &listen)
        state = Mutex(State(listen: listen, nextDelay: backOff.first, planned: planned))
    }

    /// `projects/P/databases/D`, as the requests name the database.
    private var databaseName: String { endpoint.address.resourceName }

    /// Opens the stream; returns at once.
    package func start() { connect() }

    package func stop() {
        let stream = state.withLock { state in
            state.stopped = true
            defer { state.stream = nil }
            return state.stream
        }
        stream?.cancel()
    }

    // MARK: The stream

    private func connect() {
        let (stream, targets): (GRPCStream?, [ListenTarget]) = state.withLock { state in
            guard !state.stopped else { return (nil, []) }
            state.generation += 1
            state.stepSinceConnect = false
            // The emulator resends every target whole anyway, and one started again does not
            // know the old tokens: asking without them makes the resend say what went.
            if endpoint.isEmulator { state.listen.forgetResumeTokens() }
            state.listen.reconnecting()
            let generation = state.generation
            let stream = GRPCStream(
                endpoint: endpoint, method: "google.firestore.v1.Firestore/Listen",
                onMessage: { [weak self] bytes in self?.received(bytes, generation: generation) },
                onEnd: { [weak self] end in self?.ended(end, generation: generation) })
            state.stream = stream
            return (stream, state.listen.listenTargets)
        }
        guard let stream else { return }
        for target in targets { stream.send(ListenRequest.adding(target, database: databaseName)) }
        stream.start()
    }

    private func ended(_ end: GRPCEnd, generation: Int) {
        let (report, delay): (String?, Duration?) = state.withLock { state in
            guard !state.stopped, generation == state.generation else { return (nil, nil) }
            state.stream = nil
            // A stream refused before its first step may hold tokens this server does not know
            // (an emulator started again): the next asks from scratch.
            if !state.stepSinceConnect { state.listen.forgetResumeTokens() }
            let delay = state.nextDelay
            state.nextDelay = min(delay * 2, backOff.longest)
            let why = "\(Self.describe(end, host: endpoint.host)); reconnecting"
            let first = state.interruption == nil
            state.interruption = why
            return (first ? why : nil, delay)
        }
        guard let delay else { return }
        if let report { onChange([SourceChange(.interrupted(report), .modified)]) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1)))) {
            [weak self] in self?.connect()
        }
    }

    /// Fails the stream (a message that cannot be read, targets the server gave up on): it
    /// is opened again as after any failure.
    private func fail(_ why: String, generation: Int) {
        let stream = state.withLock { $0.generation == generation ? $0.stream : nil }
        stream?.cancel()
        ended(.failed(why), generation: generation)
    }

    private func received(_ bytes: [UInt8], generation: Int) {
        let response: ListenResponse
        do {
            response = try ListenResponse.decode(bytes, source: endpoint.address.description)
        } catch {
            fail("\(error)", generation: generation)
            return
        }
        let (changes, requests, failure) = state.withLock { state in
            guard generation == state.generation, !state.stopped else {
                return ([SourceChange](), [[UInt8]](), String?.none)
            }
            return handle(response, in: &state)
        }
        if let failure {
            fail(failure, generation: generation)
            return
        }
        if !requests.isEmpty, let stream = state.withLock({ $0.generation == generation ? $0.stream : nil }) {
            for request in requests { stream.send(request) }
        }
        if !changes.isEmpty { onChange(changes) }
    }

    /// Gathers `response`; returns the changes to hand on, the requests to send, and why the
    /// stream must be opened again, if it must.
    private func handle(
        _ response: ListenResponse, in state: inout State
    ) -> ([SourceChange], [[UInt8]], String?) {
        switch state.listen.receive(response) {
        case nil:
            return ([], [], nil)
        case .relisten(let id)?:
            guard let target = state.listen.relisten(id) else { return ([], [], nil) }
            state.planned.relistened(id, as: target.id)
            return (
                [],
                [
                    ListenRequest.removing(targetID: id, database: databaseName),
                    ListenRequest.adding(target, database: databaseName),
                ], nil
            )
        case .removed(let ids, let cause)?:
            return ([], [], "the database stopped following \(ids.count) target\(ids.count == 1 ? "" : "s"): \(cause)")
        case .step(let step)?:
            state.stepSinceConnect = true
            state.nextDelay = backOff.first
            let replanned = state.planned.replan(&state.listen)
            let requests =
                replanned.adding.map { ListenRequest.adding($0, database: databaseName) }
                + replanned.removing.map { ListenRequest.removing(targetID: $0, database: databaseName) }
            var changes: [SourceChange] = []
            guard state.listen.isCurrent else {
                // Steps before every target is first in sync are part of the first state.
                if state.delivered { changes = Self.changes(in: step) }
                return (changes, requests, nil)
            }
            if !state.delivered {
                state.delivered = true
                changes = [SourceChange(.everything(state.listen.allDocuments.map(\.document)), .modified)]
            } else {
                changes = Self.changes(in: step)
            }
            if state.interruption != nil {
                state.interruption = nil
                changes.append(SourceChange(.resumed, .modified))
            }
            return (changes, requests, nil)
        }
    }

    private static func changes(in step: ListenStep) -> [SourceChange] {
        step.changed.map { SourceChange(.received($0.document.path, $0.document), .modified) }
            + step.removed.map { SourceChange(.received($0, nil), .deleted) }
    }

    /// Why the stream ended, for the pages and the console.
    static func describe(_ end: GRPCEnd, host: String) -> String {
        switch end {
        case .status(let code, let message):
            "the listen stream to \(host) ended: \(message.isEmpty ? "gRPC status \(code)" : "\(message) (gRPC status \(code))")"
        case .failed(let why):
            "the listen stream to \(host) failed: \(why)"
        }
    }
}
