import Foundation
import JSON

/// Application Default Credentials (SPEC 11), in their usual order: the file
/// `GOOGLE_APPLICATION_CREDENTIALS` names, then gcloud's `application_default_credentials.json`.
/// A service account signs a JWT for its token; an `authorized_user` (gcloud's login) trades
/// its refresh token for one.
package struct Credentials: Sendable {
    package enum Kind: Sendable {
        case serviceAccount(email: String, privateKey: String, keyID: String?)
        case authorizedUser(clientID: String, clientSecret: String, refreshToken: String)
    }

    package let kind: Kind
    /// Where tokens are asked for.
    package let tokenURI: String
    package let projectID: String?
    /// The file they came from, and the database they are for, for messages.
    package let file: String
    let database: String

    static let scope = "https://www.googleapis.com/auth/datastore"
    static let googleTokenURI = "https://oauth2.googleapis.com/token"

    /// The credentials `environment` leads to; nil when there are none. A file named by
    /// `GOOGLE_APPLICATION_CREDENTIALS` that cannot be used is an error, not a reason to look
    /// further. No network.
    package static func find(environment: [String: String], database: String) throws(FirestoreError) -> Credentials? {
        if let named = environment["GOOGLE_APPLICATION_CREDENTIALS"], !named.isEmpty {
            return try load(file: named, database: database)
        }
        var candidates: [String] = []
        if let config = environment["CLOUDSDK_CONFIG"], !config.isEmpty { candidates.append(config) }
        if let home = environment["HOME"], !home.isEmpty { candidates.append(home + "/.config/gcloud") }
        for folder in candidates {
            let file = folder + "/application_default_credentials.json"
            if FileManager.default.fileExists(atPath: file) { return try load(file: file, database: database) }
        }
        return nil
    }

    /// The credentials in `file`.
    package static func load(file: String, database: String) throws(FirestoreError) -> Credentials {
        func bad(_ detail: String) -> FirestoreError { .badCredentials(database: database, file: file, detail: detail) }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw bad("the file cannot be read (is GOOGLE_APPLICATION_CREDENTIALS right?)")
        }
        guard let json = try? JSONParser.parse([UInt8](data)), case .object = json else {
            throw bad("it is not a JSON object (a key file downloaded from the Google Cloud console is)")
        }
        func field(_ name: String) throws(FirestoreError) -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else { throw bad("it has no \"\(name)\"") }
            return value
        }
        let type = json["type"]?.stringValue ?? ""
        switch type {
        case "service_account":
            let key = try field("private_key")
            guard RS256Signer(pem: key) != nil else { throw bad("its private_key is not a PEM key OpenSSL can load") }
            return Credentials(
                kind: .serviceAccount(
                    email: try field("client_email"), privateKey: key, keyID: json["private_key_id"]?.stringValue),
                tokenURI: json["token_uri"]?.stringValue ?? googleTokenURI, projectID: json["project_id"]?.stringValue,
                file: file, database: database)
        case "authorized_user":
            return Credentials(
                kind: .authorizedUser(
                    clientID: try field("client_id"), clientSecret: try field("client_secret"),
                    refreshToken: try field("refresh_token")),
                tokenURI: json["token_uri"]?.stringValue ?? googleTokenURI,
                projectID: json["quota_project_id"]?.stringValue, file: file, database: database)
        default:
            throw bad(
                "its type is \(type.isEmpty ? "missing" : "\"\(type)\""); Roost takes \"service_account\" "
                    + "(a key file) and \"authorized_user\" (`gcloud auth application-default login`)")
        }
    }

    /// The form to POST to `tokenURI` for an access token, at `now` (seconds since 1970).
    package func tokenRequest(now: Int64) throws(FirestoreError) -> TokenRequest {
        switch kind {
        case .serviceAccount(let email, let key, let keyID):
            var header: [(key: String, value: JSONValue)] = [("alg", .string("RS256")), ("typ", .string("JWT"))]
            if let keyID { header.append(("kid", .string(keyID))) }
            let claims: JSONValue = .object([
                ("iss", .string(email)), ("scope", .string(Self.scope)), ("aud", .string(tokenURI)),
                ("iat", .integer(now)), ("exp", .integer(now + 3600)),
            ])
            let signingInput =
                Base64URL.encode(JSONWriter.write(.object(header), pretty: false)) + "."
                + Base64URL.encode(JSONWriter.write(claims, pretty: false))
            guard let signer = RS256Signer(pem: key), let signature = signer.sign(Array(signingInput.utf8)) else {
                throw .badCredentials(
                    database: database, file: file, detail: "its private key cannot sign (OpenSSL refused it)")
            }
            let assertion = signingInput + "." + Base64URL.encode(signature)
            return TokenRequest(
                url: tokenURI,
                form: [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)])
        case .authorizedUser(let clientID, let clientSecret, let refreshToken):
            return TokenRequest(
                url: tokenURI,
                form: [
                    ("grant_type", "refresh_token"), ("client_id", clientID), ("client_secret", clientSecret),
                    ("refresh_token", refreshToken),
                ])
        }
    }

    /// The access token in a token endpoint's answer.
    package static func accessToken(status: Int, body: [UInt8], endpoint: String, database: String)
        throws(FirestoreError) -> AccessToken
    {
        let json = try? JSONParser.parse(body)
        guard status == 200, let json, let token = json["access_token"]?.stringValue, !token.isEmpty else {
            let detail: String
            if let json, let error = json["error"]?.stringValue {
                detail = error + (json["error_description"]?.stringValue.map { ": " + $0 } ?? "")
            } else if json == nil {
                detail = "the answer is not JSON: " + GoogleErrorAnswer.excerpt(body)
            } else {
                detail = "the answer has no access_token"
            }
            throw .tokenRefused(database: database, endpoint: endpoint, status: status, detail: detail)
        }
        let lifetime = Int64(json["expires_in"]?.numberValue ?? 3600)
        return AccessToken(token: token, lifetime: lifetime)
    }
}

/// A token and how long it lasts, in seconds from when it was given.
package struct AccessToken: Sendable {
    package let token: String
    package let lifetime: Int64
}

/// A form POST to a token endpoint.
package struct TokenRequest: Sendable {
    package let url: String
    package let form: [(String, String)]

    /// `application/x-www-form-urlencoded`.
    package var body: [UInt8] {
        Array(form.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&").utf8)
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
