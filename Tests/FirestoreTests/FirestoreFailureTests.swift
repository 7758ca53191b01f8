import Firestore
import Glibc
import Store
import Synchronization
import TestSupport
import Testing

/// Every way the database can fail a read (SPEC 11, "Bad input and failure"), played by a
/// test server of ours on 127.0.0.1 standing in for the emulator: each is an error naming
/// the database and what to try; transient ones are tried again, a bounded number of times.
@Suite struct FirestoreFailureTests {
    static let timeouts = HTTPTimeouts(
        connect: .seconds(2), stall: .seconds(1), attempts: 3, firstPause: .milliseconds(10),
        longestPause: .milliseconds(40))

    static func source(port: UInt16, attempts: Int = timeouts.attempts) throws -> FirestoreSource {
        let endpoint = try FirestoreEndpoint.resolve(
            FirestoreAddress(project: "demo"), environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:\(port)"])
        var timeouts = Self.timeouts
        timeouts.attempts = attempts
        return FirestoreSource(FirestoreClient(endpoint, timeouts: timeouts), pageSize: 2)
    }

    /// What the emulator answers for an empty database, but for the calls `answer` takes.
    static func server(_ answer: @escaping @Sendable (TestServer.Request) -> TestServer.Response?) throws -> TestServer
    {
        try TestServer(lifetime: 30) { request in
            if let response = answer(request) { return response }
            if request.path.hasSuffix(":listCollectionIds") { return json(#"{"collectionIds": ["users"]}"#) }
            return json(#"[{"readTime": "2026-12-01T10:00:00.000001Z"}]"#)
        }
    }

    /// True for the query of a collection group (not the read-time query before them).
    static func isGroupQuery(_ request: TestServer.Request) -> Bool {
        String(decoding: request.body, as: UTF8.self).contains("allDescendants")
    }

    static func json(_ text: String, status: Int = 200) -> TestServer.Response {
        .answer(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    static func googleError(_ code: Int, _ status: String, _ message: String) -> TestServer.Response {
        json(#"{"error": {"code": \#(code), "message": "\#(message)", "status": "\#(status)"}}"#, status: code)
    }

    static func readError(_ source: FirestoreSource) -> String? {
        do {
            _ = try source.readStore()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func noEmulatorListeningSaysToStartIt() throws {
        // A port just closed: nothing listens there.
        let closed = try TestServer(lifetime: 1) { _ in .drop }
        closed.stop()
        usleep(200_000)
        let port = closed.port
        let message = try #require(Self.readError(try Self.source(port: port)))
        #expect(message.hasPrefix("firestore://demo: cannot reach 127.0.0.1:\(port)"))
        #expect(message.contains("is the emulator running? Start it with `gcloud emulators firestore start"))
    }

    @Test(arguments: [
        (401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", "renew them"),
        (403, "PERMISSION_DENIED", "Missing or insufficient permissions.", "Cloud Datastore User role"),
        (404, "NOT_FOUND", "The database (default) does not exist for project nope", "check the project and database"),
    ])
    func refusalsNameTheStatusAndWhatToDo(code: Int, status: String, message: String, hint: String) throws {
        let server = try Self.server { $0.path.hasSuffix(":runQuery") ? Self.googleError(code, status, message) : nil }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(
            text.hasPrefix("firestore://demo: the database refused the request (\(status), HTTP \(code)): \(message)"))
        #expect(text.contains(hint))
        #expect(server.log.requests.count == 1, "a refusal is not tried again")
    }

    @Test func tooManyRequestsThenAnAnswerIsRead() throws {
        let calls = Atomic<Int>(0)
        let server = try Self.server { request in
            guard request.path.hasSuffix(":runQuery") else { return nil }
            return calls.add(1, ordering: .relaxed).newValue == 1
                ? Self.googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded.") : nil
        }
        let store = try Self.source(port: server.port).readStore()
        #expect(store.documents.isEmpty)
        #expect(server.log.requests.count == 1 + 1 + 4, "the read time twice (429, then 200), then four groups")
    }

    @Test func aServiceThatKeepsFailingIsGivenUpOnAfterTheTries() throws {
        let server = try Self.server {
            $0.path.hasSuffix(":runQuery") ? Self.googleError(503, "UNAVAILABLE", "down") : nil
        }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(text.contains("(UNAVAILABLE, HTTP 503): down; the service failed: try again later"))
        #expect(server.log.requests.count == Self.timeouts.attempts)
    }

    @Test func anAnswerCutOffMidPageIsTriedAgainThenSaid() throws {
        let page = Array(
            #"[{"document": {"name": "projects/demo/databases/(default)/documents/users/u1", "fields": {}}, "#.utf8)
        let server = try Self.server { request in
            Self.isGroupQuery(request) ? .cut(announced: page.count + 500, body: page) : nil
        }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(text.hasPrefix("firestore://demo: the connection broke during a read"))
        #expect(text.hasSuffix("; try again"))
    }

    @Test func anAnswerThatIsNotJSONIsSaid() throws {
        let server = try Self.server { request in
            Self.isGroupQuery(request)
                ? .answer(status: 200, headers: [], body: Array("<html>proxy login</html>".utf8)) : nil
        }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(text.hasPrefix("firestore://demo: the answer is not a Firestore answer: runQuery of "))
        #expect(text.contains("cut off or not JSON"))
    }

    @Test func aResultArrayCutShortIsNotASmallerStore() throws {
        let server = try Self.server { request in
            Self.isGroupQuery(request)
                ? Self.json(#"[{"document": {"name": "projects/demo/databases/(default)/documents/users/u1"}}, {"docu"#)
                : nil
        }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(text.contains("cut off or not JSON"))
    }

    @Test func anAnswerThatStallsIsBroken() throws {
        // (libcurl measures the speed over the last seconds: the stall is seen some seconds late.)
        let server = try Self.server { Self.isGroupQuery($0) ? .stall(seconds: 20) : nil }
        let text = try #require(Self.readError(try Self.source(port: server.port, attempts: 1)))
        #expect(text.hasPrefix("firestore://demo: the connection broke during a read"))
    }

    @Test func anErrorInsideTheResultStreamIsARefusal() throws {
        let server = try Self.server { request in
            Self.isGroupQuery(request)
                ? Self.json(#"[{"error": {"code": 400, "message": "bad cursor", "status": "INVALID_ARGUMENT"}}]"#) : nil
        }
        let text = try #require(Self.readError(try Self.source(port: server.port)))
        #expect(text.contains("(INVALID_ARGUMENT, HTTP 400): bad cursor"))
    }

    @Test func aDatabaseWithNoneOfRoostsCollectionsIsRefusedSayingWhatItHolds() throws {
        let server = try Self.server { request in
            request.path.hasSuffix(":listCollectionIds") ? Self.json(#"{"collectionIds": ["orders", "carts"]}"#) : nil
        }
        do {
            try Self.source(port: server.port).checkShape()
            Issue.record("no error")
        } catch {
            #expect(
                "\(error)"
                    == "firestore://demo: not a store of Roost's: it holds the collections carts, orders, and none of "
                    + "users, tweets, favorites (SPEC 2.1)")
        }
    }

    @Test func anEmptyDatabaseIsAProjectToCheck() throws {
        let server = try Self.server { request in
            request.path.hasSuffix(":listCollectionIds") ? Self.json("{}") : nil
        }
        do {
            try Self.source(port: server.port).checkShape()
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix("firestore://demo: the database holds no documents: check the project"))
        }
    }

    @Test func noCredentialsIsSaidBeforeAnyNetworkUse() {
        #expect(throws: FirestoreError.self) {
            try FirestoreEndpoint.resolve(FirestoreAddress(project: "app"), environment: ["HOME": "/nonexistent"])
        }
        do {
            _ = try FirestoreEndpoint.resolve(FirestoreAddress(project: "app"), environment: ["HOME": "/nonexistent"])
        } catch {
            #expect(error.description.contains("gcloud auth application-default login"))
            #expect(error.description.contains("FIRESTORE_EMULATOR_HOST"))
        }
    }
}
