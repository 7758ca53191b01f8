import CCrypto

/// An RSA private key from PEM text, signing with SHA-256 (JWT's RS256), through OpenSSL.
final class RS256Signer {
    private let key: OpaquePointer

    init?(pem: String) {
        var text = Array(pem.utf8)
        guard
            let bio = text.withUnsafeMutableBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) })
        else { return nil }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            ERR_clear_error()
            return nil
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The signature of `message`; nil when OpenSSL refuses.
    func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        guard message.withUnsafeBytes({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            return nil
        }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBytes { input in
            signature.withUnsafeMutableBytes {
                EVP_DigestSign(context, $0.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard signed == 1 else { return nil }
        return Array(signature.prefix(length))
    }
}
