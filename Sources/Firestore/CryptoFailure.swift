/// Why libcrypto would not load a key or sign, said of the key ("does not load (OpenSSL:
/// too long)") so that a message can put "its private_key" before it.
struct CryptoFailure: Error, Sendable {
    let detail: String
}
