/// A bearer token from a token endpoint and when it stops working.
package struct AccessToken: Sendable, Equatable {
    package let token: String
    /// Unix seconds.
    package let expiresAt: Int64

    package init(token: String, expiresAt: Int64) {
        self.token = token
        self.expiresAt = expiresAt
    }
}
