import Synchronization

/// The bearer token for Cloud Firestore's requests: fetched on first use, kept, and fetched
/// again before it runs out. Safe to share between threads.
package final class TokenSource: Sendable {
    /// Sends a token request and gives the endpoint's HTTP status and body.
    package typealias Post = @Sendable (TokenRequest) throws(FirestoreError) -> (status: Int, body: [UInt8])

    /// A token with fewer seconds left than this is replaced: a request that takes it must
    /// not find it expired on arrival, even after retries.
    package static let renewalMargin: Int64 = 5 * 60

    private let credentials: Credentials
    private let database: String
    private let post: Post
    private let now: @Sendable () -> Int64
    /// The token kept. The lock is held through a fetch, so that callers on other threads
    /// wait for that one fetch rather than each making their own.
    private let kept = Mutex<AccessToken?>(nil)

    package init(
        credentials: Credentials, database: String, post: @escaping Post,
        now: @escaping @Sendable () -> Int64 = unixSecondsNow
    ) {
        self.credentials = credentials
        self.database = database
        self.post = post
        self.now = now
    }

    /// The access token to send as `Authorization: Bearer …`.
    package func bearer() throws(FirestoreError) -> String {
        try kept.withLock { (token: inout AccessToken?) throws(FirestoreError) -> String in
            let time = now()
            if let token, token.expiresAt - time >= Self.renewalMargin { return token.token }
            let fresh = try fetch(at: time)
            token = fresh
            return fresh.token
        }
    }

    /// Forgets `token` when the database refused it (HTTP 401 before its expiry: revoked),
    /// so that the next `bearer()` fetches another; a newer token another thread already
    /// fetched is kept.
    package func discard(_ token: String) {
        kept.withLock { kept in
            if kept?.token == token { kept = nil }
        }
    }

    private func fetch(at time: Int64) throws(FirestoreError) -> AccessToken {
        let request = try credentials.tokenRequest(now: time)
        let answer = try post(request)
        return try Credentials.accessToken(
            status: answer.status, body: answer.body, endpoint: request.url, database: database, now: time)
    }
}
