import Foundation
import TestSupport
import Testing

/// The `openssl` command: it makes the keys the tests sign with and checks the signatures,
/// independently of Roost's own code.
enum OpenSSLTool {
    /// Why the tests that need it are skipped when it is missing, said where the test run shows it.
    static let missingNote: Comment =
        "SKIPPED: `openssl` is not on PATH, so no RSA key can be made nor a signature checked"

    /// The executable, found on PATH; nil when there is none.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.map { $0 + "/openssl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { path != nil }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl arguments…`; its exit status and what it wrote to stdout and stderr.
    @discardableResult
    static func run(_ arguments: [String], mustSucceed: Bool = true) throws -> (status: Int32, output: String) {
        guard let path else { throw Failed(description: "openssl is not on PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if mustSucceed, process.terminationStatus != 0 {
            throw Failed(description: "openssl \(arguments.joined(separator: " ")) failed: \(output)")
        }
        return (process.terminationStatus, output)
    }

    /// A new 2048-bit RSA key in `folder`: the private key's PEM text and the public key's file.
    static func makeRSAKey(in folder: TemporaryFolder) throws -> (privateKeyPEM: String, publicKeyFile: String) {
        let keyFile = folder.path("key.pem")
        let publicKeyFile = folder.path("pub.pem")
        try run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile])
        try run(["pkey", "-in", keyFile, "-pubout", "-out", publicKeyFile])
        return (try String(contentsOfFile: keyFile, encoding: .utf8), publicKeyFile)
    }

    /// The PEM text of a new key made with `arguments` after `genpkey` (another algorithm, a passphrase).
    static func makeKey(in folder: TemporaryFolder, _ arguments: [String]) throws -> String {
        let keyFile = folder.path("other-key.pem")
        try run(["genpkey"] + arguments + ["-out", keyFile])
        return try String(contentsOfFile: keyFile, encoding: .utf8)
    }

    /// True when `signature` is the RS256 signature of `message` by the key of `publicKeyFile`.
    static func verifies(
        _ signature: [UInt8], of message: [UInt8], publicKeyFile: String, in folder: TemporaryFolder
    ) throws -> Bool {
        let messageFile = try folder.write("signed-\(UUID().uuidString)", bytes: message)
        let signatureFile = try folder.write("sig-\(UUID().uuidString).bin", bytes: signature)
        let result = try run(
            ["dgst", "-sha256", "-verify", publicKeyFile, "-signature", signatureFile, messageFile],
            mustSucceed: false)
        return result.status == 0 && result.output.contains("Verified OK")
    }

    /// openssl's own RS256 signature of `message` with the key in `keyFile` (PKCS #1 v1.5 is
    /// deterministic: Roost's must be the same bytes).
    static func sign(_ message: [UInt8], keyFile: String, in folder: TemporaryFolder) throws -> [UInt8] {
        let messageFile = try folder.write("to-sign-\(UUID().uuidString)", bytes: message)
        let signatureFile = folder.path("openssl-sig-\(UUID().uuidString).bin")
        try run(["dgst", "-sha256", "-sign", keyFile, "-out", signatureFile, messageFile])
        return Array(try Data(contentsOf: URL(fileURLWithPath: signatureFile)))
    }
}
