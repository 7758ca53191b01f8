import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Google's Python client playing the app (`Tests/FirestoreApp/app.py`) against the emulator:
/// each call runs the script once, on one project, and throws with its standard error when it
/// fails. The Python is the test set-up's own virtual environment, `.build/test-venv` under the
/// package root (`make test-deps` makes it), or `ROOST_TEST_PYTHON`.
///
/// The edits take `mirror:`, a directory store folder the same edit is applied to, so a test can
/// compare what Roost makes of the emulator with what it makes of a folder holding the same data.
package struct FirestoreApp: Sendable {
    package let emulator: FirestoreEmulator
    package let project: String

    package init(emulator: FirestoreEmulator, project: String) {
        self.emulator = emulator
        self.project = project
    }

    // MARK: - Finding it

    /// The Python that runs the script.
    package static var python: String {
        let given = ProcessInfo.processInfo.environment["ROOST_TEST_PYTHON"] ?? ""
        return given.isEmpty ? packageRoot + "/.build/test-venv/bin/python3" : given
    }

    package static let script = packageRoot + "/Tests/FirestoreApp/app.py"

    /// True when that Python imports Google's client (asked once: about half a second).
    package static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import google.cloud.firestore"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()

    /// Whether the tests that play the app run: emulator and client there, or the emulator
    /// required (then a missing client fails them, saying how to get it).
    package static var shouldRun: Bool {
        FirestoreEmulator.isRequired || (FirestoreEmulator.isAvailable && isAvailable)
    }

    package static var skipReason: String {
        guard FirestoreEmulator.isAvailable else { return FirestoreEmulator.skipReason }
        return "SKIPPED: \(missingClient) (ROOST_REQUIRE_EMULATOR=1 makes its absence a failure, as in .ci/run)."
    }

    private static var missingClient: String {
        "no Python with google-cloud-firestore at \(python): `make test-deps` makes it (.build/test-venv)"
    }

    /// Loud when the tests that play the app do not run: a warning in the test output.
    package static func noticeIfSkipped(_ what: String) {
        guard !shouldRun else { return }
        print("⚠️  \(what) \(skipReason)")
        Issue.record(Comment(rawValue: "\(what) \(skipReason)"), severity: .warning)
    }

    // MARK: - The app's commands

    /// Writes every document of the directory store `folder` (timestamps as timestamps).
    package func load(_ folder: String) throws { try run(["load", folder]) }

    /// A like as the app makes it: the like, and the tweet's counter read plus one.
    package func like(uid: String, tweet: String, mirror: String? = nil) throws {
        try run(["like", uid, tweet], mirror: mirror)
    }

    /// The like deleted, and the tweet's counter read minus one.
    package func unlike(uid: String, tweet: String, mirror: String? = nil) throws {
        try run(["unlike", uid, tweet], mirror: mirror)
    }

    /// A new tweet (`likes: 0`); `at` is RFC 3339.
    package func tweet(
        uid: String, id: String, caption: String, at: String, replyTo: String? = nil, mirror: String? = nil
    ) throws {
        try run(["tweet", uid, id, caption, "--at", at] + (replyTo.map { ["--reply-to", $0] } ?? []), mirror: mirror)
    }

    package func editCaption(id: String, caption: String, mirror: String? = nil) throws {
        try run(["edit-caption", id, caption], mirror: mirror)
    }

    package func rename(uid: String, username: String, fullname: String? = nil, mirror: String? = nil) throws {
        try run(["rename", uid, username] + (fullname.map { ["--fullname", $0] } ?? []), mirror: mirror)
    }

    /// A favorite place; its parent `favorites/UID` stays a missing document.
    package func addFavorite(
        uid: String, placeID: String, name: String, address: String? = nil,
        coordinate: (latitude: Double, longitude: Double)? = nil, mirror: String? = nil
    ) throws {
        var arguments = ["favorite-add", uid, placeID, name]
        if let address { arguments += ["--address", address] }
        if let coordinate { arguments += ["--lat", "\(coordinate.latitude)", "--lon", "\(coordinate.longitude)"] }
        try run(arguments, mirror: mirror)
    }

    package func removeFavorite(uid: String, placeID: String, mirror: String? = nil) throws {
        try run(["favorite-remove", uid, placeID], mirror: mirror)
    }

    /// Likes and unlikes existing tweets at random (from `seed`) for `seconds`; returns the writes made.
    package func churn(seconds: Double, seed: Int) throws -> Int {
        let output = try run(["churn", "--seconds", "\(seconds)", "--seed", "\(seed)"], timeout: seconds + 120)
        guard let writes = Int(output.split(separator: " ").first ?? "") else {
            throw FirestoreAppError("churn printed no count of writes: \(output)")
        }
        return writes
    }

    // MARK: - Running the script

    /// Runs `app.py --project P ARGUMENTS` with the emulator's environment; returns its standard
    /// output. Throws with its standard error when it exits non-zero, or when it is still running
    /// after `timeout` seconds (then it is killed).
    @discardableResult
    package func run(_ arguments: [String], mirror: String? = nil, timeout: Double = 120) throws -> String {
        guard Self.isAvailable else { throw FirestoreAppError(Self.missingClient) }
        let scratch = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, "--project", project] + arguments + (mirror.map { ["--mirror", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment.merging(emulator.environment(project: project)) { $1 }
        // gRPC follows http_proxy unless told the emulator is near; and no __pycache__ in Tests/.
        let near = "127.0.0.1,localhost"
        for name in ["no_proxy", "NO_PROXY"] {
            environment[name] = environment[name].map { $0.isEmpty ? near : "\($0),\(near)" } ?? near
        }
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        try scratch.write("out", "")
        try scratch.write("err", "")
        let out = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("out"))
        let err = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("err"))
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try out.close()
        try err.close()
        let output = (try? String(contentsOfFile: scratch.path("out"), encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: scratch.path("err"), encoding: .utf8)) ?? ""
        let command = "app.py " + arguments.joined(separator: " ")
        if timedOut { throw FirestoreAppError("\(command): still running after \(Int(timeout)) s, killed\n\(errors)") }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw FirestoreAppError("\(command) (project \(project)): exit \(process.terminationStatus)\n\(errors)")
        }
        return output
    }
}

package struct FirestoreAppError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
