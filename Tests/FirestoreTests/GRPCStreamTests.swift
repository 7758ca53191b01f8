import Firestore
import Foundation
import JSON
import Protobuf
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// gRPC's framing, and one bidirectional call (Listen) over HTTP/2: against the real emulator,
/// and against sockets of ours that refuse, close, cut or keep silent.
@Suite struct GRPCFramingTests {
    static func frames(_ messages: [[UInt8]]) -> [UInt8] { messages.flatMap(GRPCFrameReader.frame) }

    static let messages: [[UInt8]] = [[], [1, 2, 3], Array(repeating: 0xAB, count: 300), [0], Array(0...255)]

    @Test func framesAreAZeroByteABigEndianLengthAndTheBytes() {
        #expect(GRPCFrameReader.frame([7, 8]) == [0, 0, 0, 0, 2, 7, 8])
        #expect(GRPCFrameReader.frame(Array(repeating: 1, count: 0x1_0203)).prefix(5) == [0, 0, 1, 2, 3])
    }

    @Test func chunksSplitAnywhereGiveTheSameMessages() throws {
        let bytes = Self.frames(Self.messages)
        var whole = GRPCFrameReader()
        #expect(try whole.append(bytes) == Self.messages)
        #expect(whole.isAtFrameBoundary)

        var byByte = GRPCFrameReader()
        var got: [[UInt8]] = []
        for byte in bytes { got += try byByte.append([byte]) }
        #expect(got == Self.messages)

        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            var reader = GRPCFrameReader()
            var got: [[UInt8]] = []
            var rest = bytes[...]
            while !rest.isEmpty {
                let take = Int.random(in: 1...min(40, rest.count), using: &generator)
                got += try reader.append(Array(rest.prefix(take)))
                rest = rest.dropFirst(take)
            }
            #expect(got == Self.messages)
        }
        var cut = GRPCFrameReader()
        _ = try cut.append(Array(bytes.dropLast()))
        #expect(!cut.isAtFrameBoundary)
    }

    @Test func aCompressedFlagOrAHugeLengthIsAnError() {
        var reader = GRPCFrameReader()
        #expect(throws: GRPCFrameError.compressed(flag: 1)) { _ = try reader.append([1, 0, 0, 0, 1, 9]) }
        var huge = GRPCFrameReader()
        #expect(throws: GRPCFrameError.tooLong(0x7FFF_FFFF)) { _ = try huge.append([0, 0x7F, 0xFF, 0xFF, 0xFF]) }
        // Found as soon as the prefix is whole, after good messages in the same chunk.
        var late = GRPCFrameReader()
        #expect(throws: GRPCFrameError.compressed(flag: 1)) {
            _ = try late.append(Self.frames([[1]]) + [1, 0, 0, 0, 0])
        }
    }

    @Test func statusMessagesArePercentDecodedAndTheRoutingHeaderEncoded() {
        #expect(GRPCEnd.decodeMessage("Target%20id%201%3A%20gone%") == "Target id 1: gone%")
        #expect(GRPCEnd.decodeMessage("caf%C3%A9 %zz") == "café %zz")
        #expect(
            GRPCStream.percentEncoded("projects/p-1/databases/(default)") == "projects%2Fp-1%2Fdatabases%2F(default)")
        #expect(GRPCEnd.status(code: 14, message: "down").description == "gRPC status 14 (UNAVAILABLE): down")
    }
}

/// Loud when skipped: a warning in the test output, not a failure.
@Test func grpcStreamEmulatorTestsNotice() {
    FirestoreEmulator.noticeIfSkipped("gRPC stream emulator tests")
}

@Suite struct GRPCStreamTests {
    static let listen = "google.firestore.v1.Firestore/Listen"

    /// A ListenRequest adding a target on the collection `tweets` (field numbers: firestore.md).
    static func addTarget(project: String, id: Int) -> [UInt8] {
        var request = ProtobufWriter()
        request.string(1, "projects/\(project)/databases/(default)")
        request.message(2) { target in
            target.message(2) { query in
                query.string(1, FirestoreEmulator.documentsRoot(project))
                query.message(2) { structured in structured.message(2) { from in from.string(2, "tweets") } }
            }
            target.varint(5, UInt64(id))
        }
        return request.bytes
    }

    /// A ListenResponse's kind (its field number: 2 target change, 3 document change, …) and,
    /// for a target change, its type and target IDs.
    struct Response: Equatable, CustomStringConvertible {
        var field: Int
        var changeType: Int = 0
        var targets: [Int] = []
        var description: String { field == 2 ? "TargetChange(\(changeType), \(targets))" : "field \(field)" }
    }

    static func parse(_ bytes: [UInt8]) throws -> Response {
        try bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw)
            guard let tag = try reader.nextTag() else { throw EmulatorError("an empty ListenResponse") }
            var response = Response(field: tag.number)
            guard tag.number == 2 else { return response }
            var change = try reader.lengthDelimited()
            while let tag = try change.nextTag() {
                switch (tag.number, tag.wireType) {
                case (1, .varint): response.changeType = Int(try change.varint())
                case (2, .varint): response.targets.append(Int(try change.varint()))
                case (2, .lengthDelimited):
                    var packed = try change.lengthDelimited()
                    while !packed.isAtEnd { response.targets.append(Int(try packed.varint())) }
                default: try change.skip(tag)
                }
            }
            return response
        }
    }

    /// What a call's callbacks gave, with when each came.
    final class Events: Sendable {
        private let state = Mutex<(messages: [(bytes: [UInt8], at: ContinuousClock.Instant)], ends: [GRPCEnd])>(
            ([], []))

        func message(_ bytes: [UInt8]) { state.withLock { $0.messages.append((bytes, .now)) } }
        func end(_ end: GRPCEnd) { state.withLock { $0.ends.append(end) } }
        var messages: [[UInt8]] { state.withLock { $0.messages.map(\.bytes) } }
        var times: [ContinuousClock.Instant] { state.withLock { $0.messages.map(\.at) } }
        var ends: [GRPCEnd] { state.withLock { $0.ends } }

        func responses() throws -> [Response] { try messages.map(GRPCStreamTests.parse) }

        /// Polls until `isDone` holds, for `seconds` at most (generous: the machine is loaded).
        @discardableResult
        func wait(seconds: Double = 30, until isDone: (Events) throws -> Bool) rethrows -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                if try isDone(self) { return true }
                usleep(10_000)
            }
            return try isDone(self)
        }
    }

    static func stream(
        _ endpoint: FirestoreEndpoint, idleLimit: Duration = .seconds(600), _ events: Events
    ) -> GRPCStream {
        GRPCStream(
            endpoint: endpoint, method: listen,
            timeouts: HTTPTimeouts(
                connect: .seconds(5), stall: .seconds(5), attempts: 1, firstPause: .zero, longestPause: .zero),
            idleLimit: idleLimit, onMessage: events.message, onEnd: events.end)
    }

    static func endpoint(host: String, project: String) throws -> FirestoreEndpoint {
        try FirestoreEndpoint.resolve(
            FirestoreAddress(project: project), environment: ["FIRESTORE_EMULATOR_HOST": host])
    }

    /// A tweet written through the emulator's REST API.
    static func writeTweet(_ emulator: FirestoreEmulator, project: String, id: String) throws {
        let body = #"{"fields": {"caption": {"stringValue": "hello \#(id)"}}}"#
        let answer = try emulator.request(
            "PATCH", "/v1/\(FirestoreEmulator.documentsRoot(project))/tweets/\(id)", json: Data(body.utf8))
        guard answer.status == 200 else { throw EmulatorError("writing tweets/\(id): \(answer)") }
    }

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func aListenCallFollowsTheEmulatorBothWays() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("grpc-listen")
        try Self.writeTweet(emulator, project: project, id: "first")
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: emulator.host, project: project), events)
        // Queued before the connection is up.
        stream.send(Self.addTarget(project: project, id: 1))
        stream.start()
        // ADD, the document, CURRENT, then a global NO_CHANGE with a read time.
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 0)) }, "\(events.ends)")
        let initial = try events.responses()
        #expect(initial.first == Response(field: 2, changeType: 1, targets: [1]))
        #expect(initial.contains { $0.field == 3 }, "the document tweets/first: \(initial)")
        #expect(initial.contains(Response(field: 2, changeType: 3, targets: [1])), "\(initial)")

        // A write reaches the call.
        let before = events.messages.count
        let written = ContinuousClock.now
        try Self.writeTweet(emulator, project: project, id: "second")
        #expect(try events.wait { try $0.responses().dropFirst(before).contains { $0.field == 3 } })
        if let arrived = events.times.dropFirst(before).first {
            print("gRPC stream: REST write start → first message after it: \(arrived - written)")
        }

        // A send once the call is up reaches the server: a second target.
        stream.send(Self.addTarget(project: project, id: 2))
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 1, targets: [2])) })
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 3, targets: [2])) })
        #expect(events.ends.isEmpty)

        // Cancel returns at once and nothing comes after, even when there is news.
        let cancelStart = ContinuousClock.now
        stream.cancel()
        let cancelTook = ContinuousClock.now - cancelStart
        #expect(cancelTook < .seconds(5), "cancel took \(cancelTook)")
        print("gRPC stream: cancel took \(cancelTook)")
        let count = events.messages.count
        try Self.writeTweet(emulator, project: project, id: "third")
        stream.send(Self.addTarget(project: project, id: 3))
        usleep(1_000_000)
        #expect(events.messages.count == count)
        #expect(events.ends.isEmpty)
    }

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func writeToMessageTimes() throws {
        // Measured, not asserted tightly: from the REST write's start to the document's change.
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("grpc-timing")
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: emulator.host, project: project), events)
        defer { stream.cancel() }
        stream.start()
        stream.send(Self.addTarget(project: project, id: 1))
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 3, targets: [1])) })
        var delays: [Duration] = []
        for n in 0..<5 {
            let before = events.messages.count
            let start = ContinuousClock.now
            try Self.writeTweet(emulator, project: project, id: "t\(n)")
            try events.wait { try $0.responses().dropFirst(before).contains { $0.field == 3 } }
            let responses = try events.responses()
            guard let index = responses.indices.dropFirst(before).first(where: { responses[$0].field == 3 }) else {
                continue
            }
            delays.append(events.times[index] - start)
        }
        print("gRPC stream: REST write start → document change: \(delays)")
        #expect(delays.count == 5)
        #expect(delays.allSatisfy { $0 < .seconds(10) })
    }

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func theServersStatusEndsTheCall() throws {
        // A method the server does not have: a trailers-only answer, while the upload is open.
        let emulator = try FirestoreEmulator.shared()
        let events = Events()
        let stream = GRPCStream(
            endpoint: try Self.endpoint(host: emulator.host, project: "demo"),
            method: "google.firestore.v1.Firestore/NoSuchMethod", onMessage: events.message, onEnd: events.end)
        stream.start()
        #expect(events.wait { !$0.ends.isEmpty })
        guard case .status(let code, let message) = try #require(events.ends.first) else {
            Issue.record("not a status: \(events.ends)")
            return
        }
        print("gRPC stream: an unknown method gave \(events.ends)")
        #expect(code == 12, "UNIMPLEMENTED: \(message)")
        #expect(events.messages.isEmpty)
    }

    @Test(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
    func aConnectionCutMidStreamEndsTheCallAsFailed() throws {
        let emulator = try FirestoreEmulator.shared()
        let project = FirestoreEmulator.newProject("grpc-cut")
        let relay = try TCPRelay(.relay(to: emulator.host))
        defer { relay.stop() }
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: "127.0.0.1:\(relay.port)", project: project), events)
        defer { stream.cancel() }
        stream.start()
        stream.send(Self.addTarget(project: project, id: 1))
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 3, targets: [1])) })
        relay.cut()
        #expect(events.wait { !$0.ends.isEmpty })
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        print("gRPC stream: cut mid-stream: \(text)")
        #expect(text.contains("127.0.0.1:\(relay.port)"), "\(text)")
        usleep(300_000)
        #expect(events.ends.count == 1)
    }

    /// Runs with the emulator when nghttpx and openssl are there too (or are required).
    static let tlsRuns = FirestoreEmulator.shouldRun && (TLSFront.missing == nil || FirestoreEmulator.isRequired)
    static let tlsSkip =
        FirestoreEmulator.shouldRun ? "SKIPPED: \(TLSFront.missing ?? "") not found" : FirestoreEmulator.skipReason

    /// Production's way (TLS, HTTP/2 by ALPN, the routing header) through a TLS front of the
    /// emulator: the listen call and a REST read both work, trusting the front's certificate.
    @Test(.enabled(if: tlsRuns, Comment(rawValue: tlsSkip)))
    func aListenCallAndAReadOverTLSNegotiateHTTP2() throws {
        let emulator = try FirestoreEmulator.shared()
        let front = try TLSFront(of: emulator.host)
        defer { front.stop() }
        let project = FirestoreEmulator.newProject("grpc-tls")
        try Self.writeTweet(emulator, project: project, id: "first")
        let endpoint = FirestoreEndpoint.tls(
            FirestoreAddress(project: project), host: front.host, certificateAuthorities: front.certificate,
            bearer: "owner")
        let events = Events()
        let stream = Self.stream(endpoint, events)
        defer { stream.cancel() }
        stream.send(Self.addTarget(project: project, id: 1))
        stream.start()
        #expect(try events.wait { try $0.responses().contains(Response(field: 2, changeType: 0)) }, "\(events.ends)")
        #expect(try events.responses().contains { $0.field == 3 }, "the document tweets/first")
        let before = events.messages.count
        try Self.writeTweet(emulator, project: project, id: "second")
        #expect(try events.wait { try $0.responses().dropFirst(before).contains { $0.field == 3 } })
        #expect(events.ends.isEmpty, "\(events.ends)")

        let read = try FirestoreSource(FirestoreClient(endpoint)).readStore()
        #expect(read.documents.map(\.path.description).sorted() == ["tweets/first", "tweets/second"])
    }

    /// A certificate no trusted authority signed: the call fails at once, and says why.
    @Test(.enabled(if: tlsRuns, Comment(rawValue: tlsSkip)))
    func anUntrustedCertificateFailsTheCall() throws {
        let emulator = try FirestoreEmulator.shared()
        let front = try TLSFront(of: emulator.host)
        defer { front.stop() }
        let other = try TLSFront(of: emulator.host)
        defer { other.stop() }
        let endpoint = FirestoreEndpoint.tls(
            FirestoreAddress(project: "demo"), host: front.host, certificateAuthorities: other.certificate,
            bearer: "owner")
        let events = Events()
        let stream = Self.stream(endpoint, events)
        stream.start()
        #expect(events.wait(seconds: 10) { !$0.ends.isEmpty })
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        #expect(text.contains(front.host) && text.lowercased().contains("certificate"), "\(text)")
        #expect(events.messages.isEmpty)
    }

    @Test func nothingListeningEndsTheCallAsFailedQuickly() throws {
        let relay = try TCPRelay(.silent)
        let port = relay.port
        relay.stop()  // the port is free again: a connection is refused
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: "127.0.0.1:\(port)", project: "demo"), events)
        let start = ContinuousClock.now
        stream.send([1, 2, 3])
        stream.start()
        #expect(events.wait(seconds: 10) { !$0.ends.isEmpty })
        print("gRPC stream: refused after \(ContinuousClock.now - start)")
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        #expect(text.contains("127.0.0.1:\(port)"), "\(text)")
        #expect(events.messages.isEmpty)
        usleep(200_000)
        #expect(events.ends.count == 1)
        stream.cancel()  // after the end: returns, changes nothing
        #expect(events.ends.count == 1)
    }

    @Test func aPeerThatClosesAtOnceEndsTheCallAsFailed() throws {
        let relay = try TCPRelay(.closeAtOnce)
        defer { relay.stop() }
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: "127.0.0.1:\(relay.port)", project: "demo"), events)
        stream.start()
        #expect(events.wait(seconds: 10) { !$0.ends.isEmpty })
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        #expect(text.contains("127.0.0.1:\(relay.port)"), "\(text)")
    }

    @Test func aSilentPeerEndsTheCallAfterTheIdleLimit() throws {
        let relay = try TCPRelay(.silent)
        defer { relay.stop() }
        let events = Events()
        let stream = Self.stream(
            try Self.endpoint(host: "127.0.0.1:\(relay.port)", project: "demo"), idleLimit: .seconds(2), events)
        stream.start()
        #expect(events.wait(seconds: 20) { !$0.ends.isEmpty })
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        print("gRPC stream: silent peer: \(text)")
        #expect(text.contains("nothing received") && text.contains("127.0.0.1:\(relay.port)"), "\(text)")
    }

    @Test func aTokenThatCannotBeHadEndsTheCallAsFailedNamingIt() throws {
        // Google's endpoint, with a login whose token endpoint (ours) refuses it: no connection
        // to Google is made, the token comes first.
        let tokens = try TestServer(lifetime: 30) { _ in
            .answer(
                status: 400, headers: [("Content-Type", "application/json")],
                body: Array(#"{"error": "invalid_grant", "error_description": "Bad Request"}"#.utf8))
        }
        defer { tokens.stop() }
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "login.json",
            CredentialFiles.authorizedUser(extra: [("token_uri", .string("http://127.0.0.1:\(tokens.port)/token"))]))
        let endpoint = try FirestoreEndpoint.resolve(
            FirestoreAddress(project: "my-app"), environment: ["GOOGLE_APPLICATION_CREDENTIALS": file])
        #expect(!endpoint.isEmulator)
        let events = Events()
        let stream = Self.stream(endpoint, events)
        stream.start()
        #expect(events.wait { !$0.ends.isEmpty })
        guard case .failed(let text) = try #require(events.ends.first) else {
            Issue.record("not a failure: \(events.ends)")
            return
        }
        print("gRPC stream: without a token: \(text)")
        #expect(text.contains("firestore://my-app") && text.contains("refused the credentials"), "\(text)")
    }

    @Test func cancelBeforeTheEndMeansNoCallbackAtAll() throws {
        let relay = try TCPRelay(.silent)
        defer { relay.stop() }
        let events = Events()
        let stream = Self.stream(try Self.endpoint(host: "127.0.0.1:\(relay.port)", project: "demo"), events)
        stream.start()
        usleep(200_000)
        stream.cancel()
        relay.stop()
        usleep(500_000)
        #expect(events.ends.isEmpty && events.messages.isEmpty)
        // Cancelled before it started: start does nothing.
        let never = Self.stream(try Self.endpoint(host: "127.0.0.1:\(relay.port)", project: "demo"), events)
        never.cancel()
        never.start()
        usleep(200_000)
        #expect(events.ends.isEmpty)
    }
}

/// A TCP listener on 127.0.0.1 that relays each connection to another address (until `cut`),
/// keeps it open in silence, or closes it at once.
final class TCPRelay: Sendable {
    enum Mode: Sendable {
        case relay(to: String)
        case silent
        case closeAtOnce
    }

    let port: UInt16
    private let listener: Int32
    private let mode: Mode
    /// Every socket of a connection, to shut down on `cut` and `stop`.
    private let sockets = Mutex<(open: [Int32], stopped: Bool)>(([], false))
    private let listenerClosed = Atomic<Bool>(false)

    init(_ mode: Mode) throws {
        self.mode = mode
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound, listen(listener, 8) == 0 else {
            throw EmulatorError("relay: \(String(cString: strerror(errno)))")
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    private func acceptLoop() {
        defer {
            close(listener)
            listenerClosed.store(true, ordering: .releasing)
        }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            switch mode {
            case .closeAtOnce:
                close(client)
            case .silent:
                keep(client)
            case .relay(let host):
                let parts = host.split(separator: ":")
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = Self.loopback(port: UInt16(parts[1])!)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                guard connected else {
                    close(client)
                    close(server)
                    continue
                }
                keep(client)
                keep(server)
                Thread.detachNewThread { Self.copy(from: client, to: server) }
                Thread.detachNewThread { Self.copy(from: server, to: client) }
            }
        }
    }

    private func keep(_ fd: Int32) {
        let stopped = sockets.withLock { state in
            state.open.append(fd)
            return state.stopped
        }
        if stopped { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func copy(from: Int32, to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            let sent = buffer.withUnsafeBytes { send(to, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }
            if sent != n { break }
        }
        shutdown(from, Int32(SHUT_RDWR))
        shutdown(to, Int32(SHUT_RDWR))
    }

    /// Every connection broken, as a peer that goes away does (the sockets are closed at `stop`).
    func cut() {
        for fd in sockets.withLock({ $0.open }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// No more connections (the port refuses once this returns); every one broken.
    func stop() {
        let open = sockets.withLock { state in
            defer { state.stopped = true }
            return state.stopped ? nil : state.open
        }
        guard let open else { return }
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        // Wakes the accept loop, which closes the listener; waited for, so that the port is free.
        shutdown(listener, Int32(SHUT_RDWR))
        let deadline = Date(timeIntervalSinceNow: 5)
        while !listenerClosed.load(ordering: .acquiring), Date() < deadline { usleep(1000) }
    }
}
