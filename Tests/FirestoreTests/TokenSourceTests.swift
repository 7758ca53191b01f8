import Dispatch
import Firestore
import Foundation
import Synchronization
import TestSupport
import Testing

/// The token kept between requests: one fetch for many callers, another near expiry.
@Suite struct TokenSourceTests {
    let database = "firestore://roost-demo"

    /// A token endpoint and a clock the test drives: each POST gives `token-N` for an hour.
    final class FakeEndpoint: Sendable {
        struct State {
            var now: Int64 = 1_700_000_000
            var requests: [TokenRequest] = []
            var failures: [FirestoreError] = []
        }
        let state = Mutex(State())
        /// How long each POST takes, so that callers on other threads come while one is under way.
        let delayMicroseconds: UInt32

        init(delayMicroseconds: UInt32 = 0) { self.delayMicroseconds = delayMicroseconds }

        var now: Int64 {
            get { state.withLock { $0.now } }
            set { state.withLock { $0.now = newValue } }
        }
        var requests: [TokenRequest] { state.withLock { $0.requests } }

        func post(_ request: TokenRequest) throws(FirestoreError) -> (status: Int, body: [UInt8]) {
            if delayMicroseconds > 0 { usleep(delayMicroseconds) }
            let (count, failure) = state.withLock { state in
                state.requests.append(request)
                return (state.requests.count, state.failures.isEmpty ? nil : state.failures.removeFirst())
            }
            if let failure { throw failure }
            return (200, Array(#"{"access_token": "token-\#(count)", "expires_in": 3600}"#.utf8))
        }

        func source(_ credentials: Credentials, database: String) -> TokenSource {
            TokenSource(
                credentials: credentials, database: database,
                post: { request throws(FirestoreError) in try self.post(request) },
                now: { self.now })
        }
    }

    private func userLogin() throws -> (Credentials, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let file = try folder.write("adc.json", CredentialFiles.authorizedUser())
        return (try Credentials.load(file: file, database: database), folder)
    }

    @Test func oneFetchForManyCalls() throws {
        let (credentials, _) = try userLogin()
        let endpoint = FakeEndpoint()
        let source = endpoint.source(credentials, database: database)
        #expect(endpoint.requests.isEmpty, "nothing is fetched before the first use")
        for _ in 0..<20 { #expect(try source.bearer() == "token-1") }
        #expect(endpoint.requests == [try credentials.tokenRequest(now: 1_700_000_000)])
    }

    @Test func oneFetchForCallersOnManyThreads() throws {
        let (credentials, _) = try userLogin()
        let endpoint = FakeEndpoint(delayMicroseconds: 50_000)
        let source = endpoint.source(credentials, database: database)
        let tokens = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let token = (try? source.bearer()) ?? "failed"
            tokens.withLock { $0.append(token) }
        }
        #expect(endpoint.requests.count == 1)
        #expect(tokens.withLock { $0 } == Array(repeating: "token-1", count: 16))
    }

    @Test func anotherFetchWhenFewerThanFiveMinutesAreLeft() throws {
        let (credentials, _) = try userLogin()
        let endpoint = FakeEndpoint()
        let source = endpoint.source(credentials, database: database)
        let start = endpoint.now
        #expect(try source.bearer() == "token-1")
        endpoint.now = start + 3600 - 300
        #expect(try source.bearer() == "token-1")
        endpoint.now = start + 3600 - 299
        #expect(try source.bearer() == "token-2")
        #expect(try source.bearer() == "token-2")
        #expect(endpoint.requests.count == 2)
        #expect(endpoint.requests.last == (try credentials.tokenRequest(now: start + 3600 - 299)))
    }

    @Test func aDiscardedTokenIsFetchedAgain() throws {
        let (credentials, _) = try userLogin()
        let endpoint = FakeEndpoint()
        let source = endpoint.source(credentials, database: database)
        #expect(try source.bearer() == "token-1")
        source.discard("token-1")
        #expect(try source.bearer() == "token-2")
        // A caller that still held the old token does not throw away the new one.
        source.discard("token-1")
        #expect(try source.bearer() == "token-2")
        #expect(endpoint.requests.count == 2)
    }

    @Test func aFailedFetchIsTriedAgainByTheNextCall() throws {
        let (credentials, _) = try userLogin()
        let endpoint = FakeEndpoint()
        endpoint.state.withLock {
            $0.failures = [
                .unreachable(database: database, host: "oauth2.googleapis.com", detail: "timed out", emulator: false)
            ]
        }
        let source = endpoint.source(credentials, database: database)
        let error = #expect(throws: FirestoreError.self) { try source.bearer() }
        guard case .unreachable? = error else {
            Issue.record("expected .unreachable, got \(String(describing: error))")
            return
        }
        #expect(try source.bearer() == "token-2")
        #expect(endpoint.requests.count == 2)
    }

    @Test func aRefusalIsThrown() throws {
        let (credentials, _) = try userLogin()
        let body = Array(#"{"error": "invalid_grant", "error_description": "Token has been expired or revoked."}"#.utf8)
        let source = TokenSource(credentials: credentials, database: database, post: { _ in (400, body) })
        let error = #expect(throws: FirestoreError.self) { try source.bearer() }
        guard case .tokenRefused(_, let endpoint, 400, let detail)? = error else {
            Issue.record("expected .tokenRefused, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "https://oauth2.googleapis.com/token")
        #expect(detail == "invalid_grant: Token has been expired or revoked.")
    }
}
