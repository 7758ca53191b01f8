// TEMPORARY until the credentials branch lands (not committed).
package struct Credentials: Sendable {
    package static func find(environment: [String: String], database: String) throws(FirestoreError) -> Credentials? {
        nil
    }
}
package struct TokenRequest: Sendable {
    package let url: String
    package let body: [UInt8]
}
package final class TokenSource: Sendable {
    init(
        credentials: Credentials, database: String,
        post: @escaping @Sendable (TokenRequest) throws(FirestoreError) -> (status: Int, body: [UInt8])
    ) {}
    func bearer() throws(FirestoreError) -> String { "" }
}
