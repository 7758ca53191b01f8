import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An emulator of a test's own: stopped and started again on the same port, as a test of
/// reconnecting needs, while the shared one goes on for the other tests.
@Suite(.enabled(if: FirestoreEmulator.shouldRun, Comment(rawValue: FirestoreEmulator.skipReason)))
struct OwnEmulatorTests {
    @Test func anOwnEmulatorStopsAndRestartsEmptyOnTheSamePort() throws {
        let emulator = try FirestoreEmulator.startOwn()
        var pids = [emulator.processIdentifier]
        defer {
            emulator.stop()
            for pid in pids { #expect(!Self.isEmulator(pid), "JVM \(pid) still runs after stop()") }
        }
        let shared = try FirestoreEmulator.shared()
        #expect(shared !== emulator && shared.host != emulator.host && !shared.isOwn && emulator.isOwn)
        #expect(Self.isEmulator(emulator.processIdentifier))
        let host = emulator.host

        let project = FirestoreEmulator.newProject("own")
        let document = "/v1/\(FirestoreEmulator.documentsRoot(project))/things/one"
        let fields: [String: Any] = ["fields": ["name": ["stringValue": "kept until the stop"]]]
        let written = try emulator.request("PATCH", document, json: try JSONSerialization.data(withJSONObject: fields))
        #expect(written.status == 200, "\(written)")
        #expect(try emulator.request("GET", document).status == 200)
        #expect(throws: (any Error).self, "restart() while it runs") { try emulator.restart() }

        emulator.stop()
        #expect(!Self.isEmulator(pids[0]), "stop() kills the JVM")
        #expect(emulator.processIdentifier == 0)
        #expect(!FileManager.default.fileExists(atPath: emulator.outputFile))
        #expect(throws: (any Error).self, "nothing listens on \(host)") {
            try emulator.request("GET", document, timeout: 5)
        }
        emulator.stop()  // Stopped already: nothing.
        // The shared emulator did not notice.
        #expect(try shared.request("GET", "/").status == 200)

        try emulator.restart()
        pids.append(emulator.processIdentifier)
        #expect(pids[1] != pids[0] && Self.isEmulator(pids[1]))
        #expect(emulator.host == host)
        #expect(emulator.environment(project: project)["FIRESTORE_EMULATOR_HOST"] == host)
        let ok = try emulator.request("GET", "/")
        #expect(ok.status == 200 && String(decoding: ok.body, as: UTF8.self).hasPrefix("Ok"), "\(ok)")
        #expect(try emulator.request("GET", document).status == 404, "a restarted emulator is empty")
        #expect(try emulator.document(project: project, path: "things/one") == nil)
        #expect(try emulator.documents(project: project, group: "things").isEmpty)
        try emulator.clear(project: project)

        emulator.stop()
        #expect(!Self.isEmulator(pids[1]))
        #expect(throws: (any Error).self) { try emulator.request("GET", "/", timeout: 5) }
        #expect(try shared.request("GET", "/").status == 200)
    }

    @Test func theSharedEmulatorIsNotRestarted() throws {
        let shared = try FirestoreEmulator.shared()
        #expect(throws: (any Error).self) { try shared.restart() }
        #expect(try shared.request("GET", "/").status == 200)
    }

    /// Whether `pid` is a live Firestore emulator JVM (a zombie's or another process's command
    /// line does not name it).
    static func isEmulator(_ pid: Int32) -> Bool {
        guard pid > 0, let commandLine = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        else { return false }
        return commandLine.contains("CloudFirestore")
    }
}
