import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The real Firestore emulator (the jar of the Google Cloud CLI's `cloud-firestore-emulator`
/// component, run with `java`), started by the tests themselves on a free 127.0.0.1 port.
///
/// One per test process, started when a test first asks for it (`shared()`): a JVM costs
/// seconds and hundreds of MB. Tests keep apart by project (`newProject`), never by emulator.
/// It never outlives the test process: killed by process ID at exit (atexit), and, when the
/// process dies without running atexit (SIGKILL, a crash), by the watchdog it runs under, which
/// reads end-of-file on a pipe only the test process holds open.
///
/// Found through `ROOST_FIRESTORE_EMULATOR_JAR`, else from where `gcloud` on PATH really is (the
/// SDK root holds `platform/cloud-firestore-emulator/cloud-firestore-emulator.jar`). Without it
/// (or without `java`) the tests that need it are skipped, loudly (`noticeIfSkipped`); with
/// `ROOST_REQUIRE_EMULATOR=1` (what `.ci/run` sets) they run and fail.
///
/// A test that must stop and start an emulator (`roost serve` reconnecting) takes one of its own
/// (`startOwn()`): a JVM and watchdog of its own, on ports of its own, which `stop()` kills and
/// `restart()` starts again, empty, on the same ports; killed at exit at the latest.
package final class FirestoreEmulator: Sendable {
    /// `127.0.0.1:PORT`, as FIRESTORE_EMULATOR_HOST takes it; the same across restarts.
    package let host: String
    /// The file the emulator writes its output to (removed while an own emulator is stopped).
    package let outputFile: String
    /// Whether this is an emulator of the caller's own (`startOwn()`), not the shared one.
    package let isOwn: Bool

    /// The JVM's process ID; 0 while an own emulator is stopped.
    package var processIdentifier: Int32 { current.withLock { $0?.pid ?? 0 } }

    /// What `restart` needs to start the same emulator again.
    private let launcher: Launcher
    /// The JVM running now, or nil after `stop()`.
    private let current: Mutex<Run?>

    private init(own: Bool, launcher: Launcher, run: Run) {
        self.host = "127.0.0.1:\(launcher.port)"
        self.outputFile = launcher.folder + "/emulator.log"
        self.isOwn = own
        self.launcher = launcher
        self.current = Mutex(run)
    }

    // MARK: - Finding it

    /// The emulator's jar, or nil.
    package static var jar: String? {
        let given = ProcessInfo.processInfo.environment["ROOST_FIRESTORE_EMULATOR_JAR"] ?? ""
        if !given.isEmpty { return FileManager.default.isReadableFile(atPath: given) ? given : nil }
        guard let gcloud = onPath("gcloud") else { return nil }
        // /usr/bin/gcloud is a symlink to SDK/bin/gcloud: the SDK root is two levels above the real file.
        let sdk = URL(fileURLWithPath: gcloud).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
        let jar = sdk.appendingPathComponent("platform/cloud-firestore-emulator/cloud-firestore-emulator.jar").path
        return FileManager.default.isReadableFile(atPath: jar) ? jar : nil
    }

    /// `java` on PATH, or nil.
    package static var java: String? { onPath("java") }

    /// True when the jar and java are both there.
    package static var isAvailable: Bool { jar != nil && java != nil }

    /// True under `ROOST_REQUIRE_EMULATOR=1`: the tests must run, and fail without the emulator.
    package static let isRequired = ProcessInfo.processInfo.environment["ROOST_REQUIRE_EMULATOR"] == "1"

    /// Whether the tests that need the emulator run: when it is there, or when it is required.
    package static var shouldRun: Bool { isAvailable || isRequired }

    /// Why they do not run, for `.enabled(if:_:)` and the warning.
    package static var skipReason: String {
        "SKIPPED: \(missing) not found. \(howToGetIt) (ROOST_REQUIRE_EMULATOR=1 makes its absence a failure, "
            + "as in .ci/run)."
    }

    /// What is missing, or "nothing".
    private static var missing: String {
        var missing: [String] = []
        if jar == nil {
            let given = ProcessInfo.processInfo.environment["ROOST_FIRESTORE_EMULATOR_JAR"] ?? ""
            missing.append(
                given.isEmpty
                    ? "the Firestore emulator (no gcloud on PATH whose SDK has "
                        + "platform/cloud-firestore-emulator/cloud-firestore-emulator.jar)"
                    : "the Firestore emulator (ROOST_FIRESTORE_EMULATOR_JAR=\(given): no such file)")
        }
        if java == nil { missing.append("java (Java 17) on PATH") }
        return missing.isEmpty ? "nothing" : missing.joined(separator: " and ")
    }

    private static let howToGetIt =
        "Install the Google Cloud CLI's cloud-firestore-emulator component and Java 17, or set "
        + "ROOST_FIRESTORE_EMULATOR_JAR to the jar."

    /// Loud when the emulator tests do not run: a warning in the test output, not a failure.
    /// `what` names the tests (`Firestore emulator tests`).
    package static func noticeIfSkipped(_ what: String) {
        guard !shouldRun else { return }
        print("⚠️  \(what) \(skipReason)")
        Issue.record(Comment(rawValue: "\(what) \(skipReason)"), severity: .warning)
    }

    package static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    // MARK: - The one emulator of this process

    /// What starting it gave: the emulator, or the error every later caller gets too (one
    /// failed start is enough; each test trying again would cost a minute each).
    private static let started = Mutex<Result<FirestoreEmulator, EmulatorError>?>(nil)

    /// The emulator of this test process, started on first use (seconds: a JVM).
    package static func shared() throws -> FirestoreEmulator {
        try started.withLock { result in
            if result == nil { result = Result { () throws(EmulatorError) in try start(own: false) } }
            return try result!.get()
        }
    }

    /// An emulator of the caller's own (not shared): stopped by `stop()`, or at exit at the latest.
    package static func startOwn() throws -> FirestoreEmulator {
        try start(own: true)
    }

    /// Kills this emulator's JVM (SIGKILL) and waits until its port refuses connections. Its data
    /// is gone. Only for an own emulator; nothing when it is stopped already.
    package func stop() {
        guard isOwn else {
            Issue.record("stop() on the shared emulator, which other tests use: startOwn() gives one to stop")
            return
        }
        guard
            let run = current.withLock({ run in
                defer { run = nil }
                return run
            })
        else { return }
        Self.stopNow(pid: run.pid)
        // End-of-file for the watchdog, which then ends (its JVM is gone already): waited for, so
        // that its removing the folder cannot come after a restart made it again.
        close(run.lifeline)
        let deadline = Date(timeIntervalSinceNow: 5)
        while run.watchdog.isRunning && Date() < deadline { usleep(10_000) }
        if run.watchdog.isRunning {
            run.watchdog.terminate()
            while run.watchdog.isRunning && Date() < deadline + 5 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: launcher.folder)
        // The kernel closes a dead process's sockets: a moment at most.
        let refused = Date(timeIntervalSinceNow: 10)
        while !Self.refusesConnections(port: launcher.port) {
            guard Date() < refused else {
                Issue.record("the stopped emulator's port \(launcher.port) still takes connections after 10 s")
                return
            }
            usleep(10_000)
        }
    }

    /// Starts this emulator again on the same port (after `stop()`), empty, and waits until it
    /// answers Ok. Only for an own emulator.
    package func restart() throws {
        guard isOwn else {
            throw EmulatorError("restart() on the shared emulator, which other tests use: startOwn() gives one")
        }
        try current.withLock { (run: inout Run?) throws(EmulatorError) in
            guard run == nil else { throw EmulatorError("the emulator on \(host) is running: stop() it first") }
            // The port was this emulator's a moment ago: should it not be bindable yet (or taken
            // meanwhile, briefly), a short wait and another try; these ports or none.
            var failures: [String] = []
            for attempt in 0..<Self.restartAttempts {
                if attempt > 0 { usleep(500_000) }
                do throws(EmulatorError) {
                    run = try Self.spawn(launcher)
                    return
                } catch {
                    failures.append(error.description)
                    guard error.mayRetry else { break }
                }
            }
            throw EmulatorError(
                "restarting the emulator on \(host) failed \(failures.count) time(s):\n"
                    + failures.joined(separator: "\n\n"))
        }
    }

    /// How often `restart` tries the same ports.
    private static let restartAttempts = 6

    /// A project ID no other test of this process uses (so none sees another's documents):
    /// `hint` made lowercase a-z0-9-, a counter and a random tail; at most 30 characters,
    /// starting with a letter, as Google's project IDs.
    package static func newProject(_ hint: String) -> String {
        let n = projectCounter.add(1, ordering: .relaxed).newValue
        var stem = String(
            hint.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "-" }.prefix(14))
        while stem.hasSuffix("-") { stem.removeLast() }
        if !(stem.first?.isLetter ?? false) { stem = "p" + stem }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let tail = String((0..<6).map { _ in alphabet.randomElement()! })
        return "\(stem)-\(String(n, radix: 36))-\(tail)"
    }

    private static let projectCounter = Atomic<Int>(0)

    // MARK: - Starting and stopping

    /// The watchdog: bash runs the JVM in the background, writes its process ID to a file, and
    /// waits on its standard input, a pipe whose write end only the test process holds (close
    /// on exec, so no other child keeps it): end-of-file means the test process is gone, however
    /// it died; then it kills the JVM and removes the emulator's folder. So it does on
    /// SIGINT/SIGTERM/SIGHUP (a Ctrl-C reaches the whole process group, and a background job of a
    /// script ignores SIGINT). When the JVM ends by itself it just ends, leaving the output to read.
    private static let watchdogScript = """
        trap 'kill -9 "$jvm" 2>/dev/null; rm -rf -- "$5"; exit 0' INT TERM HUP
        "$1" -Duser.language=en -cp "$2" com.google.cloud.datastore.emulator.firestore.CloudFirestore start \
            --host=127.0.0.1 --port="$3" --websocket_port="$4" --database-mode=firestore-native \
            </dev/null >"$5/emulator.log" 2>&1 &
        jvm=$!
        echo "$jvm" >"$5/jvm.pid.tmp" && mv "$5/jvm.pid.tmp" "$5/jvm.pid"
        while kill -0 "$jvm" 2>/dev/null; do
            read -r -t 1 _
            status=$?
            # 0: a line (none is ever written); over 128: a second without news; else end-of-file.
            if [ "$status" -ne 0 ] && [ "$status" -le 128 ]; then
                kill -9 "$jvm" 2>/dev/null
                rm -rf -- "$5"
                exit 0
            fi
        done
        """

    /// How long the JVM may take to answer `GET /` with `Ok` (1.5–4 s on a quiet machine).
    private static let readyTimeout: Double = 90

    /// What atexit needs: every JVM of this process still running (the shared one's and each own
    /// one's), by process ID, with its folder to remove.
    private static let running = Mutex<[Int32: String]>([:])

    /// Where and with what one emulator runs: the same for each of its starts.
    private struct Launcher: Sendable {
        var java: String
        var jar: String
        var port: Int
        var websocketPort: Int
        /// The emulator's folder: its output and the JVM's process ID file.
        var folder: String
    }

    /// One start of an emulator: its JVM, and the watchdog that keeps it from outliving the
    /// test process.
    private struct Run: @unchecked Sendable {  // Process: used only by whoever holds the Run.
        var pid: Int32
        var watchdog: Process
        /// The pipe's write end the watchdog waits on: open while the JVM is to live.
        var lifeline: Int32
    }

    private static func start(own: Bool) throws(EmulatorError) -> FirestoreEmulator {
        guard let jar, let java else {
            throw EmulatorError("ROOST_REQUIRE_EMULATOR=1, but \(missing) not found. \(howToGetIt)")
        }
        // The ports are picked free, then bound by the JVM a moment later: another process may take
        // one in between, so a start whose JVM could not bind is tried again, on other ports.
        var failures: [String] = []
        for _ in 0..<3 {
            do {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "roost-emulator-\(UUID().uuidString)"
                )
                .path
                let launcher = Launcher(
                    java: java, jar: jar, port: try freePort(), websocketPort: try freePort(), folder: folder)
                return FirestoreEmulator(own: own, launcher: launcher, run: try spawn(launcher))
            } catch {
                failures.append(error.description)
                guard error.mayRetry else { break }
            }
        }
        throw EmulatorError(failures.joined(separator: "\n\n"))
    }

    /// Starts the JVM under its watchdog and waits until it answers Ok; when it does not, kills
    /// it and removes its folder (`mayRetry` when it could not bind its ports).
    private static func spawn(_ launcher: Launcher) throws(EmulatorError) -> Run {
        let folder = launcher.folder
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw EmulatorError("cannot make \(folder): \(error)")
        }
        let port = launcher.port
        let output = folder + "/emulator.log"

        // The watchdog kills the JVM when the pipe's write end closes: `stop`, or this process
        // ending; the shared emulator's is never closed.
        let watched = try Watchdog.start(
            script: watchdogScript, name: "roost-emulator-watchdog",
            arguments: [launcher.java, launcher.jar, "\(port)", "\(launcher.websocketPort)", folder],
            what: "the emulator")
        let watchdog = watched.process
        let lifeline = watched.lifeline
        let deadline = Date(timeIntervalSinceNow: readyTimeout)
        var pid: Int32 = 0
        while pid == 0 {
            if let text = try? String(contentsOfFile: folder + "/jvm.pid", encoding: .utf8),
                let n = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                pid = n
            } else if !watchdog.isRunning || Date() > deadline {
                watchdog.terminate()
                close(lifeline)
                throw EmulatorError("the emulator's watchdog ended before starting java", output: output)
            } else {
                usleep(10_000)
            }
        }
        register(pid: pid, folder: folder)
        let started = Date()
        while true {
            if answersOk(host: "127.0.0.1:\(port)") {
                return Run(pid: pid, watchdog: watchdog, lifeline: lifeline)
            }
            // The error reads the output before stopNow removes it.
            if kill(pid, 0) != 0 || !watchdog.isRunning {
                // Another process took a port between freePort and the JVM's bind: other ports may do.
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                let error = EmulatorError(
                    "the emulator (java, pid \(pid), port \(port)) exited before it was ready", output: output,
                    mayRetry: text.contains("BindException") || text.contains("already in use"))
                stopNow(pid: pid)
                close(lifeline)
                throw error
            }
            if Date() > deadline {
                let error = EmulatorError(
                    "the emulator (java, pid \(pid)) did not answer GET http://127.0.0.1:\(port)/ with Ok within "
                        + "\(Int(readyTimeout)) s (\(String(format: "%.1f", Date().timeIntervalSince(started))) s "
                        + "after it started)",
                    output: output)
                stopNow(pid: pid)
                close(lifeline)
                throw error
            }
            usleep(100_000)
        }
    }

    /// Whether `GET /` on `host` answers `Ok`, as the emulator does once it is ready.
    private static func answersOk(host: String) -> Bool {
        guard let answer = try? request(host: host, "GET", "/", json: nil, timeout: 2) else { return false }
        return answer.status == 200 && String(decoding: answer.body, as: UTF8.self).hasPrefix("Ok")
    }

    private static func register(pid: Int32, folder: String) {
        running.withLock { $0[pid] = folder }
        if !exitHookInstalled.exchange(true, ordering: .relaxed) { atexit { FirestoreEmulator.stopAll() } }
    }

    private static let exitHookInstalled = Atomic<Bool>(false)

    /// Kills one JVM by its process ID and removes its folder: by `stop`, or after a failed start.
    private static func stopNow(pid: Int32) {
        guard let folder = running.withLock({ $0.removeValue(forKey: pid) }) else { return }
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Kills every JVM still running: at exit.
    private static func stopAll() {
        for pid in running.withLock({ Array($0.keys) }) { stopNow(pid: pid) }
    }

    /// Whether connecting to `port` on 127.0.0.1 is refused now: nothing listens there.
    private static func refusesConnections(port: Int) -> Bool {
        Watchdog.connectionError(port: port) == ECONNREFUSED
    }

    /// A port nothing listens on now: bound to 0, read back, released.
    package static func freePort() throws(EmulatorError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EmulatorError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw EmulatorError("no free port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: - Talking to it

    /// The environment a client needs to reach `project` on this emulator.
    package func environment(project: String) -> [String: String] {
        ["FIRESTORE_EMULATOR_HOST": host, "GOOGLE_CLOUD_PROJECT": project]
    }

    /// `projects/P/databases/(default)/documents`, the root of `project`'s documents.
    package static func documentsRoot(_ project: String) -> String {
        "projects/\(project)/databases/(default)/documents"
    }

    /// Deletes every document of `project`.
    package func clear(project: String) throws {
        let answer = try request("DELETE", "/emulator/v1/\(Self.documentsRoot(project))")
        guard answer.status == 200 else { throw EmulatorError("clearing \(project): \(answer)") }
    }

    /// Exports `project` as `gcloud firestore export` does, into `folder/name` (`folder` must
    /// exist); returns that folder, which holds `name.overall_export_metadata`.
    package func export(project: String, to folder: String, name: String) throws -> String {
        let body: [String: String] = [
            "database": "projects/\(project)/databases/(default)", "export_directory": folder, "export_name": name,
        ]
        let answer = try request(
            "POST", "/emulator/v1/projects/\(project):export", json: try JSONSerialization.data(withJSONObject: body))
        let exported = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        guard answer.status == 200,
            FileManager.default.fileExists(atPath: exported + "/\(name).overall_export_metadata")
        else { throw EmulatorError("exporting \(project) to \(exported): \(answer)") }
        return exported
    }

    /// Every document of collection group `group` in `project`, through one REST `runQuery`
    /// (all descendants): each as its path below the documents root and its REST `fields`.
    package func documents(project: String, group: String) throws -> [(path: String, fields: [String: Any])] {
        let query: [String: Any] = [
            "structuredQuery": ["from": [["collectionId": group, "allDescendants": true]]]
        ]
        let root = Self.documentsRoot(project)
        let answer = try request(
            "POST", "/v1/\(root):runQuery", json: try JSONSerialization.data(withJSONObject: query))
        guard answer.status == 200, let results = try? JSONSerialization.jsonObject(with: answer.body) as? [Any] else {
            throw EmulatorError("runQuery over \(group) in \(project): \(answer)")
        }
        return results.compactMap { result in
            guard let document = (result as? [String: Any])?["document"] as? [String: Any],
                let name = document["name"] as? String
            else { return nil }
            return (String(name.dropFirst(root.count + 1)), document["fields"] as? [String: Any] ?? [:])
        }
    }

    /// One document's REST `fields` (`path` below the documents root), or nil when it does not exist.
    package func document(project: String, path: String) throws -> [String: Any]? {
        let answer = try request("GET", "/v1/\(Self.documentsRoot(project))/\(path)")
        if answer.status == 404 { return nil }
        guard answer.status == 200,
            let document = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        else { throw EmulatorError("reading \(path) in \(project): \(answer)") }
        return document["fields"] as? [String: Any] ?? [:]
    }

    /// An HTTP/1.1 answer of the emulator.
    package struct Answer: Sendable, CustomStringConvertible {
        package var status: Int
        package var body: Data
        package var description: String { "HTTP \(status): \(String(decoding: body.prefix(2000), as: UTF8.self))" }
    }

    /// One REST request as the owner (`Bearer owner` passes the security rules), JSON when given.
    package func request(_ method: String, _ path: String, json: Data? = nil, timeout: Double = 30) throws -> Answer {
        try Self.request(host: host, method, path, json: json, timeout: timeout)
    }

    private static func request(host: String, _ method: String, _ path: String, json: Data?, timeout: Double)
        throws(EmulatorError) -> Answer
    {
        guard let url = URL(string: "http://\(host)\(path)") else { throw EmulatorError("not a URL path: \(path)") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            outcome.value =
                if let response = response as? HTTPURLResponse {
                    .success(Answer(status: response.statusCode, body: data ?? Data()))
                } else {
                    .failure(
                        EmulatorError("\(method) http://\(host)\(path): \(error.map { "\($0)" } ?? "no answer")"))
                }
            done.signal()
        }.resume()
        done.wait()
        return try outcome.value!.get()
    }

    /// No proxy, ever: the emulator is on this machine.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        return URLSession(configuration: configuration)
    }()

    /// The answer handed from URLSession's queue to the waiting test (the semaphore orders them).
    private final class Outcome: @unchecked Sendable {
        var value: Result<Answer, EmulatorError>?
    }
}

/// Why the emulator could not start or answer, with the end of its output when there is one.
package struct EmulatorError: Error, CustomStringConvertible {
    package var description: String
    /// A start that may go better on other ports.
    var mayRetry = false

    package init(_ description: String) { self.description = description }

    init(_ description: String, output file: String, mayRetry: Bool = false) {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
        self.description =
            description + (tail.isEmpty ? " (it wrote nothing)" : "; its output (\(file)):\n\(tail)")
        self.mayRetry = mayRetry
    }
}
