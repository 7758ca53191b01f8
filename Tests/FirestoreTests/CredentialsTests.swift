import Firestore
import Foundation
import JSON
import Synchronization
import TestSupport
import Testing

/// Application Default Credentials (SPEC 11): which file is used, what a bad one says, the
/// token requests, checked by OpenSSL's own command where a signature is made.
@Suite struct CredentialsTests {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ arguments: [String], input: Data? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl!)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A service-account key file with a new RSA key, and the key's public half.
    static func serviceAccount(in folder: TemporaryFolder) throws -> (file: String, publicKey: String) {
        let key = folder.path("key.pem")
        #expect(try run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key]) == 0)
        #expect(try run(["pkey", "-in", key, "-pubout", "-out", folder.path("public.pem")]) == 0)
        let pem = try String(contentsOfFile: key, encoding: .utf8)
        let json: JSONValue = .object([
            ("type", .string("service_account")), ("project_id", .string("app-prod")),
            ("private_key_id", .string("k1")), ("private_key", .string(pem)),
            ("client_email", .string("roost@app-prod.iam.gserviceaccount.com")),
            ("token_uri", .string("http://127.0.0.1:9/token")),
        ])
        return (try folder.write("service-account.json", JSONWriter.string(json)), folder.path("public.pem"))
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.removingPercentEncoding ?? String($0) }
            out[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return out
    }

    static func base64URL(_ text: Substring) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    @Test(.enabled(if: openssl != nil, "SKIPPED: no openssl command to check signatures with"))
    func aServiceAccountSignsAJWTThatOpenSSLVerifies() throws {
        let folder = try TemporaryFolder()
        let (file, publicKey) = try Self.serviceAccount(in: folder)
        let credentials = try Credentials.load(file: file, database: "firestore://app-prod")
        #expect(credentials.projectID == "app-prod")
        let request = try credentials.tokenRequest(now: 1_700_000_000)
        #expect(request.url == "http://127.0.0.1:9/token")
        let form = Self.form(request.body)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let parts = try #require(form["assertion"]).split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONParser.parse([UInt8](try #require(Self.base64URL(parts[0]))))
        #expect(header["alg"] == .string("RS256") && header["typ"] == .string("JWT") && header["kid"] == .string("k1"))
        let claims = try JSONParser.parse([UInt8](try #require(Self.base64URL(parts[1]))))
        #expect(claims["iss"] == .string("roost@app-prod.iam.gserviceaccount.com"))
        #expect(claims["scope"] == .string("https://www.googleapis.com/auth/datastore"))
        #expect(claims["aud"] == .string("http://127.0.0.1:9/token"))
        #expect(claims["iat"] == .integer(1_700_000_000) && claims["exp"] == .integer(1_700_003_600))
        try Data("\(parts[0]).\(parts[1])".utf8).write(to: URL(fileURLWithPath: folder.path("signed")))
        try #require(Self.base64URL(parts[2])).write(to: URL(fileURLWithPath: folder.path("signature")))
        let verified = try Self.run([
            "dgst", "-sha256", "-verify", publicKey, "-signature", folder.path("signature"), folder.path("signed"),
        ])
        #expect(verified == 0, "openssl does not verify the JWT's signature")
    }

    @Test func anAuthorizedUserTradesItsRefreshToken() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "adc.json",
            #"{"type": "authorized_user", "client_id": "id.apps", "client_secret": "s&t", "refresh_token": "1//r=t"}"#)
        let request = try Credentials.load(file: file, database: "firestore://app").tokenRequest(now: 0)
        #expect(request.url == "https://oauth2.googleapis.com/token")
        #expect(
            Self.form(request.body) == [
                "grant_type": "refresh_token", "client_id": "id.apps", "client_secret": "s&t",
                "refresh_token": "1//r=t",
            ])
    }

    @Test func theNamedFileWinsThenGcloudsFile() throws {
        let folder = try TemporaryFolder()
        let user = #"{"type": "authorized_user", "client_id": "a", "client_secret": "b", "refresh_token": "c"}"#
        let gcloud = try folder.write("config/application_default_credentials.json", user)
        let named = try folder.write("named.json", user)
        let found = try Credentials.find(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": named, "CLOUDSDK_CONFIG": folder.path("config")],
            database: "d")
        #expect(found?.file == named)
        #expect(
            try Credentials.find(environment: ["CLOUDSDK_CONFIG": folder.path("config")], database: "d")?.file == gcloud
        )
        #expect(try Credentials.find(environment: ["HOME": folder.path("nobody")], database: "d") == nil)
        #expect(throws: FirestoreError.self) {
            try Credentials.find(
                environment: ["GOOGLE_APPLICATION_CREDENTIALS": folder.path("missing.json")], database: "d")
        }
    }

    @Test(arguments: [
        ("not json", "it is not a JSON object"),
        (#"{"type": "external_account"}"#, #"its type is "external_account"; Roost takes "service_account""#),
        (#"{"type": "service_account", "client_email": "a@b"}"#, #"it has no "private_key""#),
        (
            #"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nxx\n-----END PRIVATE KEY-----\n"}"#,
            "its private_key is not a PEM key OpenSSL can load"
        ),
    ])
    func aFileThatCannotBeUsedSaysWhy(text: String, detail: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("bad.json", text)
        do {
            _ = try Credentials.load(file: file, database: "firestore://app")
            Issue.record("no error")
        } catch {
            let expected = "firestore://app: the credentials in \(file) cannot be used: \(detail)"
            #expect(error.description.hasPrefix(expected))
        }
    }

    @Test func tokenAnswers() throws {
        let ok = try Credentials.accessToken(
            status: 200, body: Array(#"{"access_token": "ya29.x", "expires_in": 3599}"#.utf8), endpoint: "e",
            database: "d")
        #expect(ok.token == "ya29.x" && ok.lifetime == 3599)
        for (status, body, said) in [
            (
                400, #"{"error": "invalid_grant", "error_description": "Token has been expired or revoked."}"#,
                "invalid_grant: Token has been expired or revoked."
            ),
            (502, "<html>bad gateway</html>", "the answer is not JSON: <html>bad gateway</html>"),
        ] {
            do {
                _ = try Credentials.accessToken(status: status, body: Array(body.utf8), endpoint: "e", database: "d")
                Issue.record("no error")
            } catch {
                #expect(error.description.hasPrefix("d: e refused the credentials (HTTP \(status)): \(said)"))
            }
        }
    }

    @Test func aTokenIsAskedForOnceAndAgainNearItsEnd() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "adc.json", #"{"type": "authorized_user", "client_id": "a", "client_secret": "b", "refresh_token": "c"}"#)
        let credentials = try Credentials.load(file: file, database: "d")
        let posts = Atomic<Int>(0)
        let clock = Atomic<Int64>(1000)
        let tokens = TokenSource(
            credentials: credentials, database: "d",
            post: { _ in
                let n = posts.add(1, ordering: .relaxed).newValue
                return (200, Array(#"{"access_token": "t\#(n)", "expires_in": 3600}"#.utf8))
            }, now: { clock.load(ordering: .relaxed) })
        DispatchQueue.concurrentPerform(iterations: 8) { _ in #expect((try? tokens.bearer()) == "t1") }
        #expect(posts.load(ordering: .relaxed) == 1)
        clock.store(1000 + 3600 - 200, ordering: .relaxed)
        #expect(try tokens.bearer() == "t2")
    }
}
