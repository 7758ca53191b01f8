import Foundation
import JSON
import TestSupport

/// Credentials files as Google's tools write them, for the tests to load.
enum CredentialFiles {
    /// A service account's key file holding `privateKeyPEM`; `leaving` names fields to leave out.
    static func serviceAccount(
        privateKeyPEM: String, tokenURI: String = "https://oauth2.googleapis.com/token", leaving: Set<String> = []
    ) -> String {
        let fields: [(key: String, value: JSONValue)] = [
            ("type", .string("service_account")),
            ("project_id", .string("roost-demo")),
            ("private_key_id", .string("0123456789abcdef0123456789abcdef01234567")),
            ("private_key", .string(privateKeyPEM)),
            ("client_email", .string("roost-builder@roost-demo.iam.gserviceaccount.com")),
            ("client_id", .string("100000000000000000001")),
            ("auth_uri", .string("https://accounts.google.com/o/oauth2/auth")),
            ("token_uri", .string(tokenURI)),
        ]
        return JSONWriter.string(.object(fields.filter { !leaving.contains($0.key) }))
    }

    /// A gcloud login (`gcloud auth application-default login`) whose refresh token is `refreshToken`.
    static func authorizedUser(
        refreshToken: String = "1//0gRefresh-Token", clientSecret: String = "not-a-real-client-secret",
        extra: [(key: String, value: JSONValue)] = [], leaving: Set<String> = []
    ) -> String {
        let fields: [(key: String, value: JSONValue)] = [
            ("account", .string("")),
            ("client_id", .string("not-a-real-client.apps.googleusercontent.com")),
            ("client_secret", .string(clientSecret)),
            ("refresh_token", .string(refreshToken)),
            ("type", .string("authorized_user")),
        ]
        return JSONWriter.string(.object(fields.filter { !leaving.contains($0.key) } + extra))
    }

    /// The fields of a form body, percent-decoded, in order.
    static func formFields(_ body: [UInt8]) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).removingPercentEncoding ?? "<not percent-encoded>" }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The bytes of a base64url text without padding, as JWTs hold them.
    static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { Array($0) }
    }
}
