/// Why the database cannot be read or written (SPEC 11). `description` names the database
/// and says what to do.
package enum FirestoreError: Error, Sendable, CustomStringConvertible {
    /// `--store firestore://…` that is not a valid address.
    case badAddress(String, String)
    /// No emulator named and no Application Default Credentials found.
    case noCredentials(database: String)
    /// A credentials file that cannot be used: unreadable, not JSON, a kind Roost does not
    /// know, or a key that does not load.
    case badCredentials(database: String, file: String, detail: String)
    /// The token endpoint refused the credentials, or its answer held no token.
    case tokenRefused(database: String, endpoint: String, status: Int, detail: String)
    /// The host could not be reached: refused, unknown, timed out.
    case unreachable(database: String, host: String, detail: String, emulator: Bool)
    /// The connection broke while a response was coming.
    case connectionLost(database: String, detail: String)
    /// An HTTP error answer; `status` is Google's canonical status (`PERMISSION_DENIED`)
    /// when its error JSON says one, `message` its message.
    case refused(database: String, code: Int, status: String?, message: String)
    /// An answer that is not what the API sends: cut off, not JSON, or of another shape.
    case badResponse(database: String, detail: String)
    /// A write to Cloud Firestore itself (not the emulator) without `--production`.
    case productionWriteNotAllowed(database: String)
    /// A database with no collection at all: on the emulator, every project ID is one.
    case empty(database: String)

    package var description: String {
        switch self {
        case .badAddress(let location, let detail):
            return "\(location): not a database address: \(detail)"
        case .noCredentials(let database):
            return "\(database): no credentials for Cloud Firestore. Run `gcloud auth application-default login`, "
                + "or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file; for the emulator, "
                + "set FIRESTORE_EMULATOR_HOST=127.0.0.1:PORT"
        case .badCredentials(let database, let file, let detail):
            return "\(database): the credentials in \(file) cannot be used: \(detail)"
        case .tokenRefused(let database, let endpoint, let status, let detail) where status == 200:
            // A 200 without a token is no refusal: something between answered, or the endpoint is wrong.
            return "\(database): \(endpoint) gave no access token (HTTP 200): \(detail); check the token_uri "
                + "of the credentials file and any proxy between"
        case .tokenRefused(let database, let endpoint, let status, let detail):
            return "\(database): \(endpoint) refused the credentials (HTTP \(status)): \(detail); "
                + "check that the key or login is still valid (`gcloud auth application-default login` renews one)"
        case .unreachable(let database, let host, let detail, let emulator):
            let hint =
                emulator
                ? "is the emulator running? Start it with `gcloud emulators firestore start --host-port=\(host)`, "
                    + "or point FIRESTORE_EMULATOR_HOST at the one that runs"
                : "check the network connection"
            return "\(database): cannot reach \(host): \(detail); \(hint)"
        case .connectionLost(let database, let detail):
            return "\(database): the connection broke during a read (\(detail)); try again"
        case .refused(let database, let code, let status, let message):
            let what = status.map { "\($0), HTTP \(code)" } ?? "HTTP \(code)"
            return "\(database): the database refused the request (\(what)): \(message)\(Self.hint(code: code))"
        case .badResponse(let database, let detail):
            return "\(database): the answer is not a Firestore answer: \(detail)"
        case .empty(let database):
            return "\(database): the database holds no documents: check the project and database IDs "
                + "(the emulator answers for any project, empty), or write a store into it with "
                + "`roost import content --to \(database)`"
        case .productionWriteNotAllowed(let database):
            return "\(database): this writes into Cloud Firestore itself, not the emulator: add --production "
                + "to do that (or set FIRESTORE_EMULATOR_HOST to write into the emulator)"
        }
    }

    /// What to try, by HTTP status.
    private static func hint(code: Int) -> String {
        switch code {
        case 401: "; the credentials were not accepted: renew them (`gcloud auth application-default login`)"
        case 403: "; the account lacks permission: grant it the Cloud Datastore User role on the project"
        case 404: "; check the project and database IDs (firestore://PROJECT/DATABASE)"
        case 429: "; the quota is used up: wait and try again, or raise the project's quota"
        case 500...599: "; the service failed: try again later"
        default: ""
        }
    }

    /// True for failures worth trying again after a pause: the connection, 429 and 5xx.
    package var isTransient: Bool {
        switch self {
        case .connectionLost: true
        case .unreachable(_, _, _, let emulator): !emulator
        case .refused(_, let code, _, _): code == 429 || code == 408 || (500...599).contains(code)
        default: false
        }
    }
}
