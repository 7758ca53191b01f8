import Firestore
import Testing

/// What a token endpoint answers, read into a token or a refusal.
@Suite struct TokenAnswerTests {
    let endpoint = "https://oauth2.googleapis.com/token"
    let database = "firestore://roost-demo"

    private func answer(_ status: Int, _ body: String, now: Int64 = 1000) throws(FirestoreError) -> AccessToken {
        try Credentials.accessToken(
            status: status, body: Array(body.utf8), endpoint: endpoint, database: database, now: now)
    }

    /// The refusal `answer` gives: its status and detail.
    private func refusal(_ status: Int, _ body: String) -> (status: Int, detail: String, description: String)? {
        let error = #expect(throws: FirestoreError.self) { try answer(status, body) }
        guard case .tokenRefused(let named, let refusing, let code, let detail)? = error else { return nil }
        #expect(named == database)
        #expect(refusing == endpoint)
        return (code, detail, error?.description ?? "")
    }

    @Test func aToken() throws {
        let token = try answer(200, #"{"access_token": "ya29.c.abc", "expires_in": 3599, "token_type": "Bearer"}"#)
        #expect(token == AccessToken(token: "ya29.c.abc", expiresAt: 4599))
    }

    @Test func aLifetimeAsTextOrMissing() throws {
        #expect(try answer(200, #"{"access_token": "t", "expires_in": "120"}"#).expiresAt == 1120)
        #expect(try answer(200, #"{"access_token": "t"}"#).expiresAt == 4600)
    }

    @Test func invalidGrantWithItsDescription() throws {
        let refused = try #require(
            refusal(400, #"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#))
        #expect(refused.status == 400)
        #expect(refused.detail == "invalid_grant: Invalid JWT Signature.")
        #expect(
            refused.description
                == "\(database): \(endpoint) refused the credentials (HTTP 400): "
                + "invalid_grant: Invalid JWT Signature.; check that the key or login is still valid "
                + "(`gcloud auth application-default login` renews one)")
    }

    @Test func anErrorWithoutDescription() throws {
        #expect(refusal(401, #"{"error": "unauthorized_client"}"#)?.detail == "unauthorized_client")
        #expect(refusal(403, "{}")?.detail == "the answer says no more")
    }

    /// Google says "iat" or "timeframe" when the machine's clock is off.
    @Test func aClockOffBySomeMinutes() throws {
        let body =
            #"{"error": "invalid_grant", "error_description": "Invalid JWT: "#
            + #"Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "#
            + #"Check your iat and exp values in the JWT claim."}"#
        #expect(refusal(400, body)?.detail.hasSuffix("(is this machine's clock right?)") == true)
    }

    @Test func googlesAPIErrorForm() throws {
        let body =
            #"{"error": {"code": 403, "message": "The caller does not have permission", "#
            + #""status": "PERMISSION_DENIED"}}"#
        #expect(refusal(403, body)?.detail == "PERMISSION_DENIED: The caller does not have permission")
    }

    @Test func anErrorEvenWithStatus200() throws {
        #expect(refusal(200, #"{"error": "invalid_request"}"#)?.detail == "invalid_request")
    }

    @Test func notJSON() throws {
        let refused = try #require(refusal(502, "<html><body>Bad Gateway</body></html>\n"))
        #expect(refused.status == 502)
        #expect(
            refused.detail == #"the answer is not a JSON object (it begins "<html><body>Bad Gateway</body></html>?")"#)
        #expect(refusal(200, "")?.detail == "the answer is not a JSON object (it is empty)")
        let long = String(repeating: "x", count: 200)
        #expect(refusal(200, long)?.detail == "the answer is not a JSON object (it begins \"\(long.prefix(80))…\")")
    }

    @Test func noTokenInA200() throws {
        let refused = try #require(refusal(200, #"{"token_type": "Bearer"}"#))
        #expect(refused.detail == "the answer holds no access_token")
        #expect(refused.description.hasPrefix("\(database): \(endpoint) gave no access token (HTTP 200)"))
    }
}
