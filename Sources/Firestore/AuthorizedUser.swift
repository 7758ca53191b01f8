/// A user's login as `gcloud auth application-default login` writes it (`"type":
/// "authorized_user"`): a refresh token traded for access tokens.
package struct AuthorizedUser: Sendable, Equatable {
    package let clientID: String
    package let clientSecret: String
    package let refreshToken: String
    package let tokenURI: String
    /// The project billed for the user's requests (gcloud writes it when one is set); the
    /// HTTP client may send it as `x-goog-user-project`.
    package let quotaProjectID: String?

    init(_ file: CredentialsFile) throws(FirestoreError) {
        let values = try file.required(
            ["client_id", "client_secret", "refresh_token"],
            remedy: "run `gcloud auth application-default login` to write a new one")
        clientID = values[0]
        clientSecret = values[1]
        refreshToken = values[2]
        tokenURI = try file.optional("token_uri") ?? CredentialsFile.googleTokenURI
        quotaProjectID = try file.optional("quota_project_id")
    }
}
