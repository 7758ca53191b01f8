/// A service account's key file (`"type": "service_account"`, downloaded from the Cloud
/// Console): it signs its own token requests.
package struct ServiceAccount: Sendable, Equatable {
    package let clientEmail: String
    /// The key as PEM text.
    package let privateKey: String
    /// Which of the account's keys this is, for the JWT's `kid`; Google's libraries sign
    /// without it when a file has none, and so does Roost.
    package let privateKeyID: String?
    package let tokenURI: String
    package let projectID: String?

    /// The account `file` holds, its private key loaded once to tell a broken one now rather
    /// than at the first request.
    init(_ file: CredentialsFile) throws(FirestoreError) {
        let values = try file.required(
            ["client_email", "private_key"],
            remedy: "download a new key file (Cloud Console, IAM, Service accounts, Keys)")
        clientEmail = values[0]
        privateKey = values[1]
        privateKeyID = try file.optional("private_key_id")
        tokenURI = try file.optional("token_uri") ?? CredentialsFile.googleTokenURI
        projectID = try file.optional("project_id")
        do {
            _ = try RSAPrivateKey(pem: privateKey)
        } catch {
            throw file.bad("its private_key \(error.detail); download a new key file for \(clientEmail)")
        }
    }
}
