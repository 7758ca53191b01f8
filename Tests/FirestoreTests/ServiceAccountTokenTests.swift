import Firestore
import Foundation
import JSON
import TestSupport
import Testing

/// A service account's signed JWT, checked by decoding it and by `openssl` itself.
@Suite(.enabled(if: OpenSSLTool.isAvailable, OpenSSLTool.missingNote))
struct ServiceAccountTokenTests {
    let database = "firestore://roost-demo"
    let now: Int64 = 1_700_000_000

    /// A key made for the test, the credentials that hold it, and the folder they are in.
    struct Account {
        let folder: TemporaryFolder
        let credentials: Credentials
        let publicKeyFile: String
    }

    private func makeAccount(
        tokenURI: String = "https://oauth2.googleapis.com/token", leaving: Set<String> = []
    ) throws -> Account {
        let folder = try TemporaryFolder()
        let key = try OpenSSLTool.makeRSAKey(in: folder)
        let file = try folder.write(
            "service-account.json",
            CredentialFiles.serviceAccount(privateKeyPEM: key.privateKeyPEM, tokenURI: tokenURI, leaving: leaving))
        let credentials = try Credentials.load(file: file, database: database)
        return Account(folder: folder, credentials: credentials, publicKeyFile: key.publicKeyFile)
    }

    /// The assertion's three parts as sent.
    private func assertionParts(_ request: TokenRequest) throws -> [Substring] {
        let fields = CredentialFiles.formFields(request.body)
        try #require(fields.map(\.name) == ["grant_type", "assertion"])
        #expect(fields[0].value == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let parts = fields[1].value.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        return parts
    }

    private func decodedJSON(_ part: Substring) throws -> JSONValue {
        let bytes = try #require(CredentialFiles.base64URLDecoded(part), "not base64url: \(part)")
        return try JSONParser.parse(bytes)
    }

    @Test func theFileLoads() throws {
        let account = try makeAccount()
        #expect(account.credentials.projectID == "roost-demo")
        guard case .serviceAccount(let key) = account.credentials.kind else {
            Issue.record("not a service account: \(account.credentials.kind)")
            return
        }
        #expect(key.clientEmail == "roost-builder@roost-demo.iam.gserviceaccount.com")
        #expect(key.privateKeyID == "0123456789abcdef0123456789abcdef01234567")
    }

    @Test func theJWTSaysWhoAsksForWhat() throws {
        let account = try makeAccount()
        let request = try account.credentials.tokenRequest(now: now)
        #expect(request.url == "https://oauth2.googleapis.com/token")
        let parts = try assertionParts(request)
        // base64url without padding: nothing the form or a URL would need to escape.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for part in parts { #expect(part.allSatisfy(alphabet.contains), "\(part)") }
        let header = try decodedJSON(parts[0])
        #expect(header.objectPairs?.map(\.key) == ["alg", "typ", "kid"])
        #expect(header["alg"] == .string("RS256"))
        #expect(header["typ"] == .string("JWT"))
        #expect(header["kid"] == .string("0123456789abcdef0123456789abcdef01234567"))
        let claims = try decodedJSON(parts[1])
        #expect(claims.objectPairs?.count == 5)
        #expect(claims["iss"] == .string("roost-builder@roost-demo.iam.gserviceaccount.com"))
        #expect(claims["scope"] == .string("https://www.googleapis.com/auth/datastore"))
        #expect(claims["aud"] == .string("https://oauth2.googleapis.com/token"))
        #expect(claims["iat"] == .integer(now))
        #expect(claims["exp"] == .integer(now + 3600))
    }

    @Test func openSSLVerifiesTheSignature() throws {
        let account = try makeAccount()
        let parts = try assertionParts(try account.credentials.tokenRequest(now: now))
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        let signature = try #require(CredentialFiles.base64URLDecoded(parts[2]))
        #expect(signature.count == 256)
        #expect(
            try OpenSSLTool.verifies(signature, of: signed, publicKeyFile: account.publicKeyFile, in: account.folder))
        // The checker refuses what it should: the same signature over other claims.
        let altered = Array((parts[0] + "." + parts[1].dropLast()).utf8)
        #expect(
            try !OpenSSLTool.verifies(signature, of: altered, publicKeyFile: account.publicKeyFile, in: account.folder))
    }

    /// RSASSA-PKCS1-v1_5 has no randomness: openssl signing the same bytes gives the same signature.
    @Test func theSignatureIsOpenSSLsOwn() throws {
        let account = try makeAccount()
        let parts = try assertionParts(try account.credentials.tokenRequest(now: now))
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        let expected = try OpenSSLTool.sign(signed, keyFile: account.folder.path("key.pem"), in: account.folder)
        #expect(CredentialFiles.base64URLDecoded(parts[2]) == expected)
    }

    @Test func eachRequestIsSignedAnew() throws {
        let account = try makeAccount()
        let first = try assertionParts(try account.credentials.tokenRequest(now: now))
        let later = try assertionParts(try account.credentials.tokenRequest(now: now + 1800))
        #expect(first[0] == later[0])
        #expect(try decodedJSON(later[1])["iat"] == .integer(now + 1800))
        #expect(first[2] != later[2])
    }

    @Test func theFilesTokenEndpointIsTheAudience() throws {
        let account = try makeAccount(tokenURI: "https://oauth2.example.test/token")
        let request = try account.credentials.tokenRequest(now: now)
        #expect(request.url == "https://oauth2.example.test/token")
        #expect(try decodedJSON(try assertionParts(request)[1])["aud"] == .string("https://oauth2.example.test/token"))
    }

    /// Google's libraries take files without these, and so does Roost.
    @Test func withoutKeyIDTokenURIOrProject() throws {
        let account = try makeAccount(leaving: ["private_key_id", "token_uri", "project_id"])
        #expect(account.credentials.projectID == nil)
        let request = try account.credentials.tokenRequest(now: now)
        #expect(request.url == "https://oauth2.googleapis.com/token")
        let parts = try assertionParts(request)
        #expect(try decodedJSON(parts[0]).objectPairs?.map(\.key) == ["alg", "typ"])
        let signature = try #require(CredentialFiles.base64URLDecoded(parts[2]))
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        #expect(
            try OpenSSLTool.verifies(signature, of: signed, publicKeyFile: account.publicKeyFile, in: account.folder))
    }

    @Test func anECKeyIsRefused() throws {
        let folder = try TemporaryFolder()
        let pem = try OpenSSLTool.makeKey(in: folder, ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        let detail = try refusal(CredentialFiles.serviceAccount(privateKeyPEM: pem), in: folder)
        #expect(detail?.hasPrefix("its private_key is not an RSA key") == true)
    }

    /// Never a passphrase prompt on the terminal: a refusal that says why.
    @Test func anEncryptedKeyIsRefused() throws {
        let folder = try TemporaryFolder()
        let pem = try OpenSSLTool.makeKey(
            in: folder, ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-aes256", "-pass", "pass:secret"])
        let detail = try refusal(CredentialFiles.serviceAccount(privateKeyPEM: pem), in: folder)
        #expect(detail?.hasPrefix("its private_key is encrypted with a passphrase") == true)
    }

    private func refusal(_ text: String, in folder: TemporaryFolder) throws -> String? {
        let file = try folder.write("service-account.json", text)
        let error = #expect(throws: FirestoreError.self) { try Credentials.load(file: file, database: database) }
        return badDetail(error)
    }
}
