import JSON
import Store
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Application Default Credentials for Cloud Firestore (SPEC 11): a service account's key
/// file or a gcloud user login, and the token requests they make.
package struct Credentials: Sendable {
    package let kind: Kind
    /// The file they were read from, for messages.
    package let file: String
    /// The database they are for, for messages.
    package let database: String

    /// The variable that names a credentials file, as every Google client library reads it.
    package static let fileVariable = "GOOGLE_APPLICATION_CREDENTIALS"

    /// The credentials in their usual order: the file `GOOGLE_APPLICATION_CREDENTIALS` names
    /// (which must then be good: falling through to another login would act as someone
    /// else), else gcloud's `application_default_credentials.json` when there is one; nil
    /// when neither is. Reads files only, never the network.
    package static func find(environment: [String: String], database: String) throws(FirestoreError) -> Credentials? {
        if let named = environment[fileVariable], !named.isEmpty {
            switch readWholeFile(named, regularOnly: true) {
            case .success(let bytes): return try parse(bytes, file: named, database: database)
            case .failure(let error) where error.code == ENOENT:
                throw .badCredentials(
                    database: database, file: named,
                    detail: "\(fileVariable) names it, but there is no such file; set \(fileVariable) to a key "
                        + "file's path, or unset it to use gcloud's login")
            case .failure(let error):
                throw .badCredentials(
                    database: database, file: named, detail: "\(fileVariable) names it, but \(unreadable(error))")
            }
        }
        guard let gcloudFile = gcloudFile(environment) else { return nil }
        switch readWholeFile(gcloudFile, regularOnly: true) {
        case .success(let bytes): return try parse(bytes, file: gcloudFile, database: database)
        case .failure(let error) where error.code == ENOENT || error.code == ENOTDIR: return nil
        case .failure(let error):
            throw .badCredentials(database: database, file: gcloudFile, detail: unreadable(error))
        }
    }

    /// Where gcloud keeps its login: in `CLOUDSDK_CONFIG` when set (gcloud then keeps all its
    /// state there, and Google's libraries look nowhere else), else in `~/.config/gcloud`.
    static func gcloudFile(_ environment: [String: String]) -> String? {
        let name = "application_default_credentials.json"
        if let config = environment["CLOUDSDK_CONFIG"], !config.isEmpty { return joinPath(config, name) }
        if let home = environment["HOME"], !home.isEmpty { return joinPath(home, ".config/gcloud/" + name) }
        return nil
    }

    /// The credentials in `file`, or why they cannot be used.
    package static func load(file: String, database: String) throws(FirestoreError) -> Credentials {
        switch readWholeFile(file, regularOnly: true) {
        case .success(let bytes): return try parse(bytes, file: file, database: database)
        case .failure(let error): throw .badCredentials(database: database, file: file, detail: unreadable(error))
        }
    }

    private static func unreadable(_ error: ErrnoCode) -> String {
        // `readWholeFile` says EINVAL for a folder or device, which it does not read.
        error.code == EINVAL ? "it is not a regular file" : "it cannot be read (\(error.text))"
    }

    private static let typesTaken =
        "Roost takes \"service_account\" (a key file, named by \(fileVariable)) and \"authorized_user\" "
        + "(what `gcloud auth application-default login` writes)"

    /// The credentials the bytes of `file` hold.
    static func parse(_ bytes: [UInt8], file: String, database: String) throws(FirestoreError) -> Credentials {
        func bad(_ detail: String) -> FirestoreError { .badCredentials(database: database, file: file, detail: detail) }
        let object: JSONValue
        do {
            object = try JSONParser.parse(bytes)
        } catch {
            throw bad("it is not JSON (\(error)); \(typesTaken)")
        }
        guard object.objectPairs != nil else { throw bad("it holds \(object.kindDescription), not a JSON object") }
        guard let type = object["type"]?.stringValue else {
            throw bad("it has no \"type\" string, so it is no credentials file Roost knows; \(typesTaken)")
        }
        let fields = CredentialsFile(object: object, type: type, path: file, database: database)
        switch type {
        case "service_account":
            return Credentials(kind: .serviceAccount(try ServiceAccount(fields)), file: file, database: database)
        case "authorized_user":
            return Credentials(kind: .authorizedUser(try AuthorizedUser(fields)), file: file, database: database)
        default:
            throw bad("its type is \"\(type)\"\(unsupportedNote(type)), which Roost does not take; \(typesTaken)")
        }
    }

    /// What a known but unsupported type is, so the user sees why it is refused.
    private static func unsupportedNote(_ type: String) -> String {
        switch type {
        case "external_account": " (workload identity federation)"
        case "external_account_authorized_user": " (workforce identity federation)"
        case "impersonated_service_account":
            " (service-account impersonation: log in without --impersonate-service-account, or use the account's key)"
        default: ""
        }
    }

    /// The project a service account belongs to; nil for a user login, which has none.
    package var projectID: String? {
        if case .serviceAccount(let account) = kind { return account.projectID }
        return nil
    }

    /// The token endpoint these credentials ask.
    package var tokenURI: String {
        switch kind {
        case .serviceAccount(let account): account.tokenURI
        case .authorizedUser(let user): user.tokenURI
        }
    }

    /// The form POST that asks for an access token at `now` (unix seconds): a signed JWT for a
    /// service account, a refresh-token grant for a user login.
    package func tokenRequest(now: Int64) throws(FirestoreError) -> TokenRequest {
        switch kind {
        case .serviceAccount(let account):
            let assertion: String
            do {
                assertion = try JSONWebToken.assertion(for: account, now: now)
            } catch {
                throw .badCredentials(database: database, file: file, detail: "its private_key \(error.detail)")
            }
            let fields = [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)]
            return TokenRequest(url: account.tokenURI, body: FormEncoding.body(fields))
        case .authorizedUser(let user):
            let fields = [
                ("grant_type", "refresh_token"), ("client_id", user.clientID), ("client_secret", user.clientSecret),
                ("refresh_token", user.refreshToken),
            ]
            return TokenRequest(url: user.tokenURI, body: FormEncoding.body(fields))
        }
    }

    /// The access token in a token endpoint's answer, or why there is none. `now` (unix
    /// seconds) is when the request was sent: the token lives `expires_in` seconds from it.
    package static func accessToken(
        status: Int, body: [UInt8], endpoint: String, database: String, now: Int64 = unixSecondsNow()
    ) throws(FirestoreError) -> AccessToken {
        try TokenAnswer(status: status, body: body, endpoint: endpoint, database: database).token(now: now)
    }
}
