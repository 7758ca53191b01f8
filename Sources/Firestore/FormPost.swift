/// A form POSTed to a token endpoint (`Credentials.tokenRequest`), on a connection of its
/// own: tokens are asked for seldom, before the first call and once an hour.
enum FormPost {
    static func send(
        _ request: TokenRequest, database: String, timeouts: HTTPTimeouts
    ) throws(FirestoreError) -> (status: Int, body: [UInt8]) {
        guard let connection = HTTPConnection(timeouts: timeouts) else {
            throw .unreachable(
                database: database, host: request.url, detail: "libcurl could not start a transfer", emulator: false)
        }
        switch connection.post(
            request.url, headers: ["Content-Type: application/x-www-form-urlencoded"], body: request.body)
        {
        case .success(let answer): return (answer.status, answer.body)
        case .failure(.unreachable(let detail)):
            throw .unreachable(database: database, host: request.url, detail: detail, emulator: false)
        case .failure(.broken(let detail)):
            throw .connectionLost(database: database, detail: detail)
        }
    }
}
