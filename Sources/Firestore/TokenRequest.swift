/// The form POST that asks a token endpoint for an access token: send `body` to `url` with
/// `Content-Type: application/x-www-form-urlencoded`.
package struct TokenRequest: Sendable, Equatable {
    package let url: String
    package let body: [UInt8]

    package init(url: String, body: [UInt8]) {
        self.url = url
        self.body = body
    }

    package static let contentType = "application/x-www-form-urlencoded"
}
