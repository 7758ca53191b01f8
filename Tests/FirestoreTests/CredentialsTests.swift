import Firestore
import Foundation
import JSON
import TestSupport
import Testing

/// Finding and reading Application Default Credentials files (SPEC 11), and a user login's
/// token request. Service-account keys are in ServiceAccountTokenTests.
@Suite struct CredentialsTests {
    let database = "firestore://roost-demo"

    // MARK: The order of Application Default Credentials

    @Test func theNamedFileWinsOverGcloudsLogin() throws {
        let folder = try TemporaryFolder()
        let named = try folder.write("keys/named.json", CredentialFiles.authorizedUser(refreshToken: "named"))
        try folder.write(
            "gcloud/application_default_credentials.json", CredentialFiles.authorizedUser(refreshToken: "gcloud"))
        let environment = [
            "GOOGLE_APPLICATION_CREDENTIALS": named, "CLOUDSDK_CONFIG": folder.path("gcloud"), "HOME": folder.path(),
        ]
        let credentials = try #require(try Credentials.find(environment: environment, database: database))
        #expect(refreshToken(credentials) == "named")
        #expect(credentials.file == named)
    }

    @Test func gcloudsLoginInCloudSDKConfig() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "gcloud/application_default_credentials.json", CredentialFiles.authorizedUser(refreshToken: "gcloud"))
        try folder.write(
            "home/.config/gcloud/application_default_credentials.json",
            CredentialFiles.authorizedUser(refreshToken: "home"))
        let environment = ["CLOUDSDK_CONFIG": folder.path("gcloud"), "HOME": folder.path("home")]
        let credentials = try #require(try Credentials.find(environment: environment, database: database))
        #expect(refreshToken(credentials) == "gcloud")
        #expect(credentials.file == file)
    }

    @Test func gcloudsLoginInHome() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            ".config/gcloud/application_default_credentials.json", CredentialFiles.authorizedUser(refreshToken: "home"))
        let credentials = try #require(try Credentials.find(environment: ["HOME": folder.path()], database: database))
        #expect(refreshToken(credentials) == "home")
    }

    /// gcloud keeps all its state in CLOUDSDK_CONFIG when it is set, so that is where Google's
    /// libraries look, and only there.
    @Test func cloudSDKConfigReplacesHomesFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "home/.config/gcloud/application_default_credentials.json",
            CredentialFiles.authorizedUser(refreshToken: "home"))
        let environment = ["CLOUDSDK_CONFIG": folder.path("empty-config"), "HOME": folder.path("home")]
        #expect(try Credentials.find(environment: environment, database: database) == nil)
    }

    @Test func anEmptyVariableIsNoFile() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "gcloud/application_default_credentials.json", CredentialFiles.authorizedUser(refreshToken: "gcloud"))
        let environment = ["GOOGLE_APPLICATION_CREDENTIALS": "", "CLOUDSDK_CONFIG": folder.path("gcloud")]
        let credentials = try #require(try Credentials.find(environment: environment, database: database))
        #expect(refreshToken(credentials) == "gcloud")
    }

    @Test func nothingFoundIsNil() throws {
        let folder = try TemporaryFolder()
        #expect(try Credentials.find(environment: ["HOME": folder.path()], database: database) == nil)
        #expect(try Credentials.find(environment: [:], database: database) == nil)
    }

    /// Falling through to gcloud's login would act as another account than the one named.
    @Test func aMissingNamedFileIsAnErrorNotAFallThrough() throws {
        let folder = try TemporaryFolder()
        try folder.write("gcloud/application_default_credentials.json", CredentialFiles.authorizedUser())
        let missing = folder.path("keys/gone.json")
        let environment = ["GOOGLE_APPLICATION_CREDENTIALS": missing, "CLOUDSDK_CONFIG": folder.path("gcloud")]
        let error = #expect(throws: FirestoreError.self) {
            try Credentials.find(environment: environment, database: database)
        }
        #expect(badFile(error) == missing)
        #expect(
            badDetail(error)?.contains("GOOGLE_APPLICATION_CREDENTIALS names it, but there is no such file") == true)
        #expect(error?.description.hasPrefix("\(database): the credentials in \(missing) cannot be used") == true)
    }

    @Test func aBadNamedFileIsAnErrorNotAFallThrough() throws {
        let folder = try TemporaryFolder()
        try folder.write("gcloud/application_default_credentials.json", CredentialFiles.authorizedUser())
        let named = try folder.write("key.json", "{\"type\": \"service_account\"")
        let environment = ["GOOGLE_APPLICATION_CREDENTIALS": named, "CLOUDSDK_CONFIG": folder.path("gcloud")]
        let error = #expect(throws: FirestoreError.self) {
            try Credentials.find(environment: environment, database: database)
        }
        #expect(badDetail(error)?.hasPrefix("it is not JSON") == true)
    }

    @Test func aBadGcloudFileIsAnError() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("gcloud/application_default_credentials.json", "[]")
        let error = #expect(throws: FirestoreError.self) {
            try Credentials.find(environment: ["CLOUDSDK_CONFIG": folder.path("gcloud")], database: database)
        }
        #expect(badFile(error) == file)
        #expect(badDetail(error) == "it holds an array, not a JSON object")
    }

    // MARK: A user login

    @Test func aUserLoginAsksWithItsRefreshToken() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "adc.json",
            CredentialFiles.authorizedUser(
                refreshToken: "1//0g-xyz", clientSecret: "s3cr&t=+/ ü",
                extra: [("quota_project_id", .string("roost-billing"))]))
        let credentials = try Credentials.load(file: file, database: database)
        #expect(credentials.projectID == nil)
        guard case .authorizedUser(let user) = credentials.kind else {
            Issue.record("not a user login: \(credentials.kind)")
            return
        }
        #expect(user.quotaProjectID == "roost-billing")
        let request = try credentials.tokenRequest(now: 1_700_000_000)
        #expect(request.url == "https://oauth2.googleapis.com/token")
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(
            body == "grant_type=refresh_token&client_id=not-a-real-client.apps.googleusercontent.com"
                + "&client_secret=s3cr%26t%3D%2B%2F%20%C3%BC&refresh_token=1%2F%2F0g-xyz")
        let fields = CredentialFiles.formFields(request.body)
        #expect(fields.map(\.name) == ["grant_type", "client_id", "client_secret", "refresh_token"])
        #expect(fields[2].value == "s3cr&t=+/ ü")
    }

    @Test func aUserLoginsOwnTokenEndpoint() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "adc.json", CredentialFiles.authorizedUser(extra: [("token_uri", .string("https://example.test/token"))]))
        let request = try Credentials.load(file: file, database: database).tokenRequest(now: 0)
        #expect(request.url == "https://example.test/token")
    }

    // MARK: Files that cannot be used

    @Test func aMissingFile() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: FirestoreError.self) {
            try Credentials.load(file: folder.path("none.json"), database: database)
        }
        #expect(badDetail(error) == "it cannot be read (No such file or directory)")
    }

    @Test func aFolder() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: FirestoreError.self) {
            try Credentials.load(file: folder.path(), database: database)
        }
        #expect(badDetail(error) == "it is not a regular file")
    }

    @Test func notJSON() throws {
        let detail = try loadDetail("client_id = 5\n")
        #expect(detail?.hasPrefix("it is not JSON (1:1: ") == true)
        #expect(detail?.contains("\"service_account\"") == true)
    }

    @Test func noType() throws {
        let detail = try loadDetail(#"{"client_id": "x"}"#)
        #expect(detail?.hasPrefix(#"it has no "type" string"#) == true)
        #expect(detail?.contains(#"Roost takes "service_account""#) == true)
    }

    @Test(arguments: [
        ("external_account", "workload identity federation"),
        ("impersonated_service_account", "--impersonate-service-account"),
        ("gdch_service_account", ""),
    ])
    func typesRoostDoesNotTake(type: String, note: String) throws {
        let detail = try #require(try loadDetail(#"{"type": "\#(type)", "audience": "x"}"#))
        #expect(detail.hasPrefix(#"its type is "\#(type)""#))
        #expect(note.isEmpty || detail.contains(note))
        #expect(detail.contains("which Roost does not take"))
        #expect(detail.contains(#""service_account" (a key file, named by GOOGLE_APPLICATION_CREDENTIALS)"#))
        #expect(detail.contains(#""authorized_user" (what `gcloud auth application-default login` writes)"#))
    }

    @Test func missingFieldsAreNamedTogether() throws {
        let detail = try loadDetail(CredentialFiles.authorizedUser(leaving: ["client_secret", "refresh_token"]))
        #expect(
            detail == "it lacks client_secret and refresh_token, which the type authorized_user needs; "
                + "run `gcloud auth application-default login` to write a new one")
        let one = try loadDetail(CredentialFiles.serviceAccount(privateKeyPEM: "", leaving: ["client_email"]))
        #expect(one?.hasPrefix("it lacks client_email and private_key, which the type service_account needs") == true)
    }

    @Test func aFieldOfTheWrongKind() throws {
        let detail = try loadDetail(
            #"{"type": "authorized_user", "client_id": 5, "client_secret": "s", "refresh_token": "r"}"#)
        #expect(detail == "its field client_id is a number, not a string")
    }

    @Test(arguments: [
        ("not a key at all", "holds no PEM key (no -----BEGIN PRIVATE KEY----- line)"),
        (
            "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n",
            "holds no private key (its PEM block is not -----BEGIN PRIVATE KEY-----)"
        ),
        ("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n", "does not load (OpenSSL: "),
    ])
    func aPrivateKeyThatIsNoKey(pem: String, problem: String) throws {
        let detail = try #require(try loadDetail(CredentialFiles.serviceAccount(privateKeyPEM: pem)))
        #expect(detail.hasPrefix("its private_key " + problem))
        #expect(detail.hasSuffix("; download a new key file for roost-builder@roost-demo.iam.gserviceaccount.com"))
    }

    // MARK: Helpers

    /// The detail of the error that loading `text` as a credentials file gives.
    private func loadDetail(_ text: String) throws -> String? {
        let folder = try TemporaryFolder()
        let file = try folder.write("credentials.json", text)
        let error = #expect(throws: FirestoreError.self) { try Credentials.load(file: file, database: database) }
        #expect(badFile(error) == file)
        return badDetail(error)
    }

    private func refreshToken(_ credentials: Credentials) -> String? {
        guard case .authorizedUser(let user) = credentials.kind else { return nil }
        return user.refreshToken
    }
}

func badDetail(_ error: FirestoreError?) -> String? {
    guard case .badCredentials(_, _, let detail)? = error else { return nil }
    return detail
}

func badFile(_ error: FirestoreError?) -> String? {
    guard case .badCredentials(_, let file, _)? = error else { return nil }
    return file
}
