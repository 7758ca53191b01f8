import CCrypto

/// An RSA private key loaded by OpenSSL's libcrypto from PEM text, freed when dropped: it
/// signs service-account JWTs (RS256: RSASSA-PKCS1-v1_5 with SHA-256).
struct RSAPrivateKey: ~Copyable {
    private let key: OpaquePointer

    /// The key `pem` holds (`-----BEGIN PRIVATE KEY-----`, as Google's key files have it, or
    /// the older `-----BEGIN RSA PRIVATE KEY-----`).
    init(pem: String) throws(CryptoFailure) {
        // OpenSSL 3 says only "unsupported" of text that is no key: these say what is wrong.
        guard pem.contains("-----BEGIN ") else {
            throw CryptoFailure(detail: "holds no PEM key (no -----BEGIN PRIVATE KEY----- line)")
        }
        guard pem.contains("PRIVATE KEY-----") else {
            throw CryptoFailure(detail: "holds no private key (its PEM block is not -----BEGIN PRIVATE KEY-----)")
        }
        // An encrypted key would need a passphrase, which nothing here can ask for.
        if pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || pem.contains("Proc-Type: 4,ENCRYPTED") {
            throw CryptoFailure(detail: "is encrypted with a passphrase, which Roost cannot ask for")
        }
        // Stale errors of this thread (libcurl shares OpenSSL) would be taken for ours.
        ERR_clear_error()
        let bytes = Array(pem.utf8)
        let loaded: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // A callback that gives no passphrase: the default one would prompt on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let loaded else {
            throw CryptoFailure(detail: "does not load (OpenSSL: " + Self.drainErrors(or: "no reason given") + ")")
        }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_RSA else {
            EVP_PKEY_free(loaded)
            throw CryptoFailure(detail: "is not an RSA key (the RS256 signatures Google takes need one)")
        }
        key = loaded
    }

    deinit { EVP_PKEY_free(key) }

    /// The RS256 signature of `message`.
    func signRS256(_ message: [UInt8]) throws(CryptoFailure) -> [UInt8] {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw CryptoFailure(detail: "does not sign (out of memory)") }
        defer { EVP_MD_CTX_free(context) }
        // RSA keys sign with PKCS #1 v1.5 padding unless told otherwise: what RS256 is.
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw CryptoFailure(detail: "does not sign (" + Self.drainErrors(or: "EVP_DigestSignInit failed") + ")")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw CryptoFailure(detail: "does not sign (" + Self.drainErrors(or: "EVP_DigestSign failed") + ")")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw CryptoFailure(detail: "does not sign (" + Self.drainErrors(or: "EVP_DigestSign failed") + ")")
        }
        return Array(signature[0..<length])
    }

    /// OpenSSL's reasons for the failure just seen, and the queue left empty for the next
    /// user of this thread; `fallback` when it said nothing.
    private static func drainErrors(or fallback: String) -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            // The reason alone ("no start line"): the library and code say nothing to a user.
            guard let text = ERR_reason_error_string(code) else { continue }
            let reason = String(cString: text)
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }
}
