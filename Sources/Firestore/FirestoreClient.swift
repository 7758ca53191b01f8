import JSON
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Calls of a database's REST API (SPEC 11): each a POST of JSON to `{documents}:method`,
/// over kept-alive connections (one per thread that calls at once), tried again after a
/// pause when it fails in a way worth retrying (a broken connection, 429, 5xx), a bounded
/// number of times. Every failure is a `FirestoreError` naming the database.
package final class FirestoreClient: Sendable {
    package let endpoint: FirestoreEndpoint
    let timeouts: HTTPTimeouts
    private let idle = Mutex<[IdleConnection]>([])

    /// A connection not in use, handed between threads through `idle` only.
    private struct IdleConnection: @unchecked Sendable {
        let connection: HTTPConnection
    }

    package init(_ endpoint: FirestoreEndpoint, timeouts: HTTPTimeouts = .standard) {
        self.endpoint = endpoint
        self.timeouts = timeouts
    }

    package var database: String { endpoint.address.description }

    /// POSTs `body` to `{documents}{suffix}` and returns the body of its `200 OK` answer.
    func call(_ suffix: String, body: [UInt8]) throws(FirestoreError) -> [UInt8] {
        let url = endpoint.url(suffix)
        var attempt = 1
        while true {
            do {
                return try callOnce(url, body: body)
            } catch {
                guard error.failure.isTransient, attempt < timeouts.attempts else { throw error.failure }
                attempt += 1
                sleep(timeouts.pause(before: attempt, retryAfter: error.retryAfter))
            }
        }
    }

    /// A failure, and the pause the server asked for before the next try.
    struct CallFailure: Error {
        var failure: FirestoreError
        var retryAfter: Int?
    }

    private func callOnce(_ url: String, body: [UInt8]) throws(CallFailure) -> [UInt8] {
        let headers: [String]
        do {
            headers = try endpoint.headers()
        } catch {
            throw CallFailure(failure: error)
        }
        guard let connection = take() else {
            throw CallFailure(
                failure: .unreachable(
                    database: database, host: endpoint.host, detail: "libcurl could not start a transfer",
                    emulator: endpoint.isEmulator))
        }
        switch connection.post(url, headers: headers, body: body) {
        case .failure(.unreachable(let detail)):
            // (A connection that failed is not kept: its next use would start afresh anyway.)
            throw CallFailure(
                failure: .unreachable(
                    database: database, host: endpoint.host, detail: detail, emulator: endpoint.isEmulator))
        case .failure(.broken(let detail)):
            throw CallFailure(failure: .connectionLost(database: database, detail: detail))
        case .success(let answer):
            give(connection)
            guard answer.status == 200 else {
                let said = GoogleErrorAnswer(body: answer.body)
                throw CallFailure(
                    failure: .refused(
                        database: database, code: answer.status, status: said.status, message: said.message),
                    retryAfter: answer.retryAfter)
            }
            return answer.body
        }
    }

    /// The service's time now, the read time of every page of a read: the `readTime` of a
    /// query of a collection no store has, which matches nothing.
    func readTime() throws(FirestoreError) -> String {
        let query: JSONValue = .object([
            (
                "structuredQuery",
                .object([("from", .array([.object([("collectionId", .string("roost-read-time"))])]))])
            )
        ])
        let body = try call(":runQuery", body: JSONWriter.write(query, pretty: false))
        let json = try? JSONParser.parse(body)
        let said = GoogleErrorAnswer(json: json, body: body)
        if said.status != nil {
            throw .refused(database: database, code: said.code ?? 500, status: said.status, message: said.message)
        }
        guard let time = json?.arrayValue?.lazy.compactMap({ $0["readTime"]?.stringValue }).first else {
            throw .badResponse(
                database: database, detail: "a runQuery answer without a readTime: \(GoogleErrorAnswer.excerpt(body))")
        }
        return time
    }

    private func take() -> HTTPConnection? {
        if let idle = idle.withLock({ $0.popLast() }) { return idle.connection }
        return HTTPConnection(timeouts: timeouts, certificateAuthorities: endpoint.certificateAuthorities)
    }

    private func give(_ connection: HTTPConnection) {
        idle.withLock { $0.append(IdleConnection(connection: connection)) }
    }

    private func sleep(_ pause: Duration) {
        let (seconds, attoseconds) = pause.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
    }
}
