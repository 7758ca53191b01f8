import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Access tokens for one set of credentials: asked for on first use, kept, and asked for again
/// when fewer than five minutes of one are left. One thread asks at a time; the others wait
/// for its token.
package final class TokenSource: Sendable {
    private let credentials: Credentials
    private let database: String
    private let post: @Sendable (TokenRequest) throws(FirestoreError) -> (status: Int, body: [UInt8])
    private let now: @Sendable () -> Int64
    private let current = Mutex<(token: String, expires: Int64)?>(nil)

    package init(
        credentials: Credentials, database: String,
        post: @escaping @Sendable (TokenRequest) throws(FirestoreError) -> (status: Int, body: [UInt8]),
        now: @escaping @Sendable () -> Int64 = { Int64(time(nil)) }
    ) {
        self.credentials = credentials
        self.database = database
        self.post = post
        self.now = now
    }

    package func bearer() throws(FirestoreError) -> String {
        try current.withLock { (current) throws(FirestoreError) -> String in
            let time = now()
            if let current, current.expires - time > 300 { return current.token }
            let request = try credentials.tokenRequest(now: time)
            let answer = try post(request)
            let token = try Credentials.accessToken(
                status: answer.status, body: answer.body, endpoint: request.url, database: database)
            current = (token.token, time + token.lifetime)
            return token.token
        }
    }
}
