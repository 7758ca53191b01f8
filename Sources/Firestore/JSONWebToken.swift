import JSON
import Support

/// The signed JWT a service account trades for an access token (RFC 7523 §2.1, as Google's
/// token endpoint takes it).
enum JSONWebToken {
    /// Cloud Firestore's own scope: the token opens the database and nothing else.
    static let scope = "https://www.googleapis.com/auth/datastore"
    /// The longest lifetime Google accepts.
    static let lifetime: Int64 = 3600

    /// `header.claims.signature`, each base64url, for a token issued at `now`.
    static func assertion(for account: ServiceAccount, now: Int64) throws(CryptoFailure) -> String {
        let signingInput = encoded(header(account)) + "." + encoded(claims(account, now: now))
        let key = try RSAPrivateKey(pem: account.privateKey)
        let signature = try key.signRS256(Array(signingInput.utf8))
        return signingInput + "." + Base64.encode(signature, .url)
    }

    static func header(_ account: ServiceAccount) -> JSONValue {
        var pairs: [(key: String, value: JSONValue)] = [("alg", .string("RS256")), ("typ", .string("JWT"))]
        if let keyID = account.privateKeyID { pairs.append(("kid", .string(keyID))) }
        return .object(pairs)
    }

    static func claims(_ account: ServiceAccount, now: Int64) -> JSONValue {
        .object([
            ("iss", .string(account.clientEmail)),
            ("scope", .string(scope)),
            ("aud", .string(account.tokenURI)),
            ("iat", .integer(now)),
            ("exp", .integer(now + lifetime)),
        ])
    }

    private static func encoded(_ value: JSONValue) -> String {
        Base64.encode(JSONWriter.write(value, pretty: false), .url)
    }
}
