/// Where a database's REST API is and how calls are authorised (SPEC 11): the emulator that
/// `FIRESTORE_EMULATOR_HOST` names (plain HTTP, `Bearer owner`, which every rule lets
/// through), or Google's endpoint over TLS with Application Default Credentials.
package struct FirestoreEndpoint: Sendable {
    package let address: FirestoreAddress
    /// `http://127.0.0.1:8080` or `https://firestore.googleapis.com`.
    let base: String
    /// `host:port`, for messages.
    let host: String
    package let isEmulator: Bool
    let bearer: @Sendable () throws(FirestoreError) -> String
    /// A PEM file of the certificate authorities to trust instead of the system's (nil: the
    /// system's), for TLS.
    let certificateAuthorities: String?

    package static let googleHost = "firestore.googleapis.com"

    init(
        address: FirestoreAddress, base: String, host: String, isEmulator: Bool,
        certificateAuthorities: String? = nil, bearer: @escaping @Sendable () throws(FirestoreError) -> String
    ) {
        self.address = address
        self.base = base
        self.host = host
        self.isEmulator = isEmulator
        self.certificateAuthorities = certificateAuthorities
        self.bearer = bearer
    }

    /// Google's protocol, over TLS, at `host` (`host:port`), trusting only the authorities of
    /// `certificateAuthorities` and calling with `bearer`: what production gets, pointed at a
    /// server of one's own (a TLS front of the emulator, in tests).
    package static func tls(
        _ address: FirestoreAddress, host: String, certificateAuthorities: String, bearer: String
    ) -> FirestoreEndpoint {
        FirestoreEndpoint(
            address: address, base: "https://" + host, host: host, isEmulator: false,
            certificateAuthorities: certificateAuthorities, bearer: { bearer })
    }

    /// The endpoint of `address` in `environment` (the process's, normally). Credentials are
    /// looked for here, before any network use, so that a missing login fails at once.
    package static func resolve(
        _ address: FirestoreAddress, environment: [String: String], timeouts: HTTPTimeouts = .standard
    ) throws(FirestoreError) -> FirestoreEndpoint {
        if let host = emulatorHost(in: environment) {
            return FirestoreEndpoint(
                address: address, base: "http://" + host, host: host, isEmulator: true, bearer: { "owner" })
        }
        guard let credentials = try Credentials.find(environment: environment, database: address.description) else {
            throw .noCredentials(database: address.description)
        }
        let database = address.description
        let tokens = TokenSource(
            credentials: credentials, database: database,
            post: { request throws(FirestoreError) in
                try FormPost.send(request, database: database, timeouts: timeouts)
            })
        return FirestoreEndpoint(
            address: address, base: "https://" + googleHost, host: googleHost, isEmulator: false,
            bearer: { () throws(FirestoreError) in try tokens.bearer() })
    }

    /// The emulator `FIRESTORE_EMULATOR_HOST` names (`host:port`), if any.
    package static func emulatorHost(in environment: [String: String]) -> String? {
        guard let emulator = environment["FIRESTORE_EMULATOR_HOST"], !emulator.isEmpty else { return nil }
        return emulator.hasPrefix("http://") ? String(emulator.dropFirst(7)) : emulator
    }

    /// `{base}/v1/projects/P/databases/D/documents{suffix}`, `suffix` being `:runQuery` and such.
    /// The address is URL-safe as it is (`FirestoreAddress.parse`; `(default)`'s parentheses
    /// are allowed in a path, RFC 3986).
    func url(_ suffix: String) -> String { base + "/v1/" + address.documentsRoot + suffix }

    /// The headers of every call.
    func headers() throws(FirestoreError) -> [String] {
        var lines = ["Content-Type: application/json", "Authorization: Bearer " + (try bearer())]
        // Production routes a named database's calls by this header.
        if !isEmulator {
            lines.append("x-goog-request-params: database=" + address.resourceName)
        }
        return lines
    }
}
