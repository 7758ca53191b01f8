import Foundation
import JSON
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

// Support for the end-to-end hostile tests: listings of output folders, stores, children.

/// Every file below `folder` (dot-files too), by relative path, with its bytes; symlinks
/// and other non-regular entries as a marker.
func fullListing(_ folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    let manager = FileManager.default
    guard let enumerator = manager.enumerator(atPath: folder) else { return [:] }
    while let relative = enumerator.nextObject() as? String {
        let path = folder + "/" + relative
        var st = stat()
        guard lstat(path, &st) == 0 else { continue }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            var bytes = manager.contents(atPath: path) ?? Data("<unreadable>".utf8)
            if relative == ".roost-manifest" { bytes = withoutInputsToken(bytes) }
            result[relative] = bytes
        case S_IFDIR: result[relative + "/"] = Data()
        default: result[relative] = Data("<not a regular file: \(st.st_mode & S_IFMT)>".utf8)
        }
    }
    return result
}

/// The manifest without its `# inputs` line: whether a build may record one depends on how
/// old the store's files were when it ran (see `BuildInputs`), not on what it wrote.
func withoutInputsToken(_ manifest: Data) -> Data {
    let lines = String(decoding: manifest, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    return Data(lines.filter { !$0.hasPrefix("# inputs ") }.joined(separator: "\n").utf8)
}

/// What differs between two listings, one line per path (at most `limit`).
func differences(_ a: [String: Data], _ b: [String: Data], limit: Int = 20) -> [String] {
    var lines: [String] = []
    for path in Set(a.keys).union(b.keys).sorted() where a[path] != b[path] {
        switch (a[path], b[path]) {
        case (nil, _): lines.append("+ \(path)")
        case (_, nil): lines.append("- \(path)")
        default: lines.append("≠ \(path) (\(a[path]!.count) → \(b[path]!.count) bytes)")
        }
        if lines.count == limit {
            lines.append("…")
            break
        }
    }
    return lines
}

/// Copies a folder (recursively) to a new path.
func copyFolder(_ from: String, to: String) throws {
    try? FileManager.default.removeItem(atPath: to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
}

/// Every `.json` document of a directory store, parsed, by relative path.
func storeDocuments(_ folder: String) -> [(path: String, value: JSONValue)] {
    var documents: [(String, JSONValue)] = []
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
        guard relative.hasSuffix(".json"), let data = FileManager.default.contents(atPath: folder + "/" + relative),
            let value = try? JSONParser.parse([UInt8](data))
        else { continue }
        documents.append((relative, value))
    }
    return documents.sorted { $0.0 < $1.0 }
}

/// Adds `"secretField": "TOPSECRET-<n>"` to every document of a directory store; returns the values.
@discardableResult
func addSecretFields(_ folder: String) throws -> [String] {
    var secrets: [String] = []
    for (n, (path, value)) in storeDocuments(folder).enumerated() {
        guard case .object(var pairs) = value else { continue }
        let secret = "TOPSECRET-\(n)-\(path.split(separator: "/").first ?? "")"
        pairs.append((key: "secretField", value: .string(secret)))
        pairs.append((key: "nested", value: .object([(key: "secretField", value: .string(secret + "-nested"))])))
        try Data(JSONWriter.write(.object(pairs))).write(to: URL(fileURLWithPath: folder + "/" + path))
        secrets.append(secret)
    }
    return secrets
}

/// A deterministic synthetic store (SPEC 2.1): `users` users, `tweets` tweets (a third of
/// them replies), three likes per tweet, favorites, hashtags and mentions.
func generateStore(at folder: String, users: Int, tweets: Int, seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    func random(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
    let words = ["coffee", "code", "seoul", "swift", "rain", "build", "ship", "한국어", "café", "night", "bug", "release"]
    // POSIX calls and a cache of made folders: Foundation's are slow for 10,000 small files.
    var made = Set<String>()
    func write(_ relative: String, _ value: JSONValue) throws {
        let path = folder + "/" + relative
        var parent = Substring(path)
        var missing: [Substring] = []
        while let slash = parent.lastIndex(of: "/"), !made.contains(String(parent[..<slash])) {
            parent = parent[..<slash]
            missing.append(parent)
            if FileManager.default.fileExists(atPath: String(parent)) { break }
        }
        for folder in missing.reversed() {
            mkdir(String(folder), 0o755)
            made.insert(String(folder))
        }
        let bytes = JSONWriter.write(value)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw CocoaError(.fileWriteUnknown)
        }
    }
    let uids = (0..<users).map { "uid\($0)x\(random(1_000_000))" }
    for (i, uid) in uids.enumerated() {
        var pairs: [(key: String, value: JSONValue)] = [
            (key: "username", value: .string("user_\(i)")),
            (key: "fullname", value: .string("User \(words[random(words.count)]) \(i)")),
            (key: "email", value: .string("user\(i).secret@private.example")),
            (key: "profileImageUrl", value: .string("https://img.example/\(uid).jpg")),
        ]
        if i % 5 == 0 {
            pairs.append((key: "bio", value: .string("I like **\(words[random(words.count)])** #bio\(i % 7)")))
        }
        try write("users/\(uid).json", .object(pairs))
        for p in 0..<random(4) {
            try write(
                "favorites/\(uid)/favorites/place\(p).json",
                .object([
                    (key: "placeName", value: .string("Place \(words[random(words.count)]) \(p)")),
                    (key: "address", value: .string("\(random(100)) Road")),
                    (
                        key: "coordinate",
                        value: .object([
                            (key: "latitude", value: .double(Double(random(180)) - 90)),
                            (key: "longitude", value: .double(Double(random(360)) - 180)),
                        ])
                    ),
                ]))
        }
    }
    var ids: [String] = []
    for t in 0..<tweets {
        let id = "tw\(t)x\(random(1_000_000))"
        var caption = (0..<(5 + random(20))).map { _ in words[random(words.count)] }.joined(separator: " ")
        if random(3) == 0 { caption += " #\(words[random(4)])" }
        if random(4) == 0 { caption += " @user_\(random(users))" }
        var pairs: [(key: String, value: JSONValue)] = [
            (key: "caption", value: .string(caption)),
            (key: "timestamp", value: .integer(1_600_000_000 + Int64(t) * 600 + Int64(random(600)))),
            (key: "uid", value: .string(uids[random(uids.count)])), (key: "likes", value: .integer(Int64(random(5)))),
        ]
        if !ids.isEmpty, random(3) == 0 { pairs.append((key: "replyTo", value: .string(ids[random(ids.count)]))) }
        try write("tweets/\(id).json", .object(pairs))
        ids.append(id)
        for _ in 0..<3 {
            try write("users/\(uids[random(uids.count)])/user-likes/\(id).json", .object([]))
        }
    }
}

/// A `roost` child that runs in the background, its output in files (no pipes to fill).
final class RoostChild {
    let process = Process()
    let outPath: String, errPath: String

    init(_ arguments: [String], logs: String) throws {
        outPath = logs + ".out"
        errPath = logs + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.executableURL = RoostProcess.binary
        process.arguments = arguments
        process.currentDirectoryURL = RoostProcess.packageRoot
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
    }

    func wait() -> (status: Int32, stderr: String) {
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Removes a folder tree with `rm -rf` (FileManager's removal is slow on Linux for
/// thousands of files).
func removeTree(_ path: String) {
    let rm = Process()
    rm.executableURL = URL(fileURLWithPath: "/bin/rm")
    rm.arguments = ["-rf", "--", path]
    try? rm.run()
    rm.waitUntilExit()
}
