import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TLS front of the emulator (nghttpx, from Debian's nghttp2-proxy): HTTP/2
/// negotiated by ALPN on 127.0.0.1, with a certificate of its own for 127.0.0.1, made here,
/// that only `certificate` vouches for. With the emulator behind it, a client talks to it as
/// to Google's endpoint. It stops with `stop()`, or when this process ends (its watchdog
/// reads this process's pipe).
package final class TLSFront {
    /// `127.0.0.1:port`.
    package let host: String
    /// The PEM certificate to trust.
    package let certificate: String
    private let folder: TemporaryFolder
    private let watchdog: Watchdog
    private let stopped = Mutex(false)

    private static let watchdogScript = """
        "$@" </dev/null >/dev/null 2>&1 &
        child=$!
        while kill -0 "$child" 2>/dev/null; do
            read -r -t 1 _
            status=$?
            # Over 128: a second without news; else end-of-file: this process is done with it.
            if [ "$status" -ne 0 ] && [ "$status" -le 128 ]; then
                kill -9 "$child"
                wait
                exit 0
            fi
        done
        """

    /// nghttpx and openssl, or nil with what is missing.
    package static var missing: String? {
        var missing: [String] = []
        if proxy == nil { missing.append("nghttpx (Debian's nghttp2-proxy)") }
        if FirestoreEmulator.onPath("openssl") == nil { missing.append("openssl") }
        return missing.isEmpty ? nil : missing.joined(separator: " and ")
    }

    private static var proxy: String? {
        FirestoreEmulator.onPath("nghttpx")
            ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nghttpx") ? "/usr/sbin/nghttpx" : nil)
    }

    /// Starts a front of `backend` (`host:port`: gRPC on HTTP/2 with prior knowledge, REST on
    /// HTTP/1.1, as the emulator) and waits until it takes connections.
    package init(of backend: String) throws {
        if let missing = Self.missing { throw EmulatorError("a TLS front needs \(missing)") }
        folder = try TemporaryFolder()
        certificate = folder.path("cert.pem")
        let key = folder.path("key.pem")
        try Self.run(
            FirestoreEmulator.onPath("openssl")!,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        let port = try FirestoreEmulator.freePort()
        host = "127.0.0.1:\(port)"
        let parts = backend.split(separator: ":")
        // The proxy (one process) lives until stop() or this process's end.
        watchdog = try Watchdog.start(
            script: Self.watchdogScript, name: "roost-tls-front",
            arguments: [
                Self.proxy!, "--single-process", "--conf=/dev/null", "--frontend=127.0.0.1,\(port)",
                "--backend=\(parts[0]),\(parts[1]);/;proto=h2",
                // The emulator takes REST on HTTP/1.1 only (HTTP/2 is its gRPC); Google's takes both.
                "--backend=\(parts[0]),\(parts[1]);/v1/", "--no-ocsp", "--errorlog-file=\(folder.path("error.log"))",
                "--accesslog-file=/dev/null", key, certificate,
            ],
            what: "nghttpx")
        let deadline = Date(timeIntervalSinceNow: 20)
        while Watchdog.connectionError(port: port) != 0 {
            guard Date() < deadline, watchdog.process.isRunning else {
                stop()
                let log = (try? String(contentsOfFile: folder.path("error.log"), encoding: .utf8)) ?? ""
                throw EmulatorError("nghttpx did not listen on \(host): \(log)")
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    /// Stops the proxy and waits for it.
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        watchdog.end()
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EmulatorError(
                "\(tool) \(arguments.prefix(2).joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}
