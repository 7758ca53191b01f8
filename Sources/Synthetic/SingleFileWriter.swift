import Dispatch
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the planned store as ONE node-firestore-import-export file (SPEC 2.2, format 1),
/// compact as the tool writes it (`JSON.stringify`), with a line break before each document:
///
///     {"__collections__":{"users":{
///     "UID":{"username":…,"__collections__":{"user-likes":{
///     "TWEETID":{},
///     "TWEETID":{"timestamp":…}}}},
///     …},"tweets":{
///     "TWEETID":{"caption":…},
///     …},"favorites":{
///     "UID":{"__collections__":{"favorites":{
///     "PLACEID":{"placeName":…}}}},
///     …}}}
///
/// The same documents as `StoreWriter` writes for the same plan, each body the bytes
/// Documents.swift makes without the whitespace between tokens; `favorites/{uid}`, a "missing"
/// parent in the directory store, is an object holding only `__collections__`. A document
/// without subcollections has no `__collections__` key (the tool writes `{}`; the reader
/// needs neither).
///
/// The work is cut into units (chunks of users, of tweets, of users' favorites) rendered in
/// parallel a batch at a time while the previous batch is written, in order, by one thread:
/// the bytes depend on the plan only. They go to a temporary file beside the target, renamed
/// into place at the end; on any failure (or SIGINT, SIGTERM, SIGHUP) it is deleted.
struct SingleFileWriter {
    let plan: StorePlan
    let target: String
    let force: Bool

    /// The three top-level collections, in file order.
    private enum Section: Int, CaseIterable {
        case users, tweets, favorites

        var name: StaticString {
            switch self {
            case .users: "users"
            case .tweets: "tweets"
            case .favorites: "favorites"
            }
        }
    }

    /// A piece of the file: `range` of users or tweets of one section.
    private struct Unit {
        let section: Section
        let range: Range<Int>
    }

    /// One rendered unit: its bytes (each top-level entry preceded by `,\n`) and what it found.
    private struct Fragment {
        var bytes: [UInt8] = []
        var tally = Tally()
    }

    struct Tally {
        var documents = 0, tagged = 0, secondsObjects = 0, wrongCounters = 0, timestampedLikes = 0, places = 0

        mutating func add(_ other: Tally) {
            documents += other.documents
            tagged += other.tagged
            secondsObjects += other.secondsObjects
            wrongCounters += other.wrongCounters
            timestampedLikes += other.timestampedLikes
            places += other.places
        }
    }

    /// Documents per job, for this writer and `StoreWriter`: a user's job also writes its
    /// likes and favorites, so it takes fewer users than a tweet's job takes tweets.
    static let userChunk = 64, tweetChunk = 1024
    /// Jobs rendered on all cores while the previous ones are written.
    static let batch = 16

    /// Checks the target before any work: its folder must exist; an existing file is
    /// replaced only when forced; a folder is never replaced.
    static func check(_ target: String, force: Bool) throws(GenerateError) {
        let folder = parentFolder(target)
        var st = stat()
        if stat(folder, &st) != 0 {
            if errno == ENOENT || errno == ENOTDIR { throw .noParentFolder(path: target, folder: folder) }
            throw .failed(path: folder, reason: errnoText())
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .noParentFolder(path: target, folder: folder) }
        if lstat(target, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { throw .isADirectory(path: target) }
            if !force { throw .fileExists(path: target) }
        } else if errno != ENOENT {
            throw .failed(path: target, reason: errnoText())
        }
    }

    func write() throws(GenerateError) -> SyntheticStore.Summary {
        try SingleFileWriter.check(target, force: force)
        let temporary = try TemporaryFile(beside: target)
        var output = OutputFile(fd: temporary.fd, name: target)
        var tally = Tally()
        do throws(GenerateError) {
            try writeUnits(&output, &tally)
            try output.flush()
            try temporary.commit(replacing: force)
        } catch {
            temporary.discard()
            throw error
        }
        var summary = SyntheticStore.Summary()
        summary.singleFile = true
        summary.files = 1
        summary.documents = tally.documents
        summary.bytes = output.written
        summary.tagged = tally.tagged
        summary.secondsObjects = tally.secondsObjects
        summary.wrongCounters = tally.wrongCounters
        summary.timestampedLikes = tally.timestampedLikes
        summary.places = tally.places
        return summary
    }

    private func writeUnits(_ output: inout OutputFile, _ tally: inout Tally) throws(GenerateError) {
        var units = [Unit]()
        for section in Section.allCases {
            let (count, chunk) =
                section == .tweets
                ? (plan.tweetCount, SingleFileWriter.tweetChunk) : (plan.userCount, SingleFileWriter.userChunk)
            for start in stride(from: 0, to: count, by: chunk) {
                units.append(Unit(section: section, range: start..<min(count, start + chunk)))
            }
        }

        /// Writes rendered units in order, on its own thread; the section structure between them.
        // Unchecked: used by one task of the serial queue at a time, and read after `group.wait()`.
        final class Writer: @unchecked Sendable {
            var output: OutputFile
            var error: GenerateError?
            var section = -1  // the section open in the file (-1: none yet)
            var hasEntries = false  // whether it has an entry yet
            init(_ output: OutputFile) { self.output = output }

            /// Closes sections up to `next` and opens `next` (`Section.allCases.count`: the end).
            func advance(to next: Int) {
                while section < next {
                    if section < 0 {
                        output.append("{\"__collections__\":{")
                    } else {
                        output.append("}")
                        if section + 1 < Section.allCases.count { output.append(",") }
                    }
                    section += 1
                    hasEntries = false
                    if let open = Section(rawValue: section) {
                        output.append("\"")
                        output.append(open.name)
                        output.append("\":{")
                    } else {
                        output.append("}}\n")
                    }
                }
            }

            func write(_ units: ArraySlice<Unit>, _ fragments: [Fragment]) {
                guard error == nil else { return }
                do throws(GenerateError) {
                    for (k, unit) in units.enumerated() {
                        advance(to: unit.section.rawValue)
                        let bytes = fragments[k].bytes
                        guard !bytes.isEmpty else { continue }
                        // Every entry starts with ",\n": the first of a section drops the comma.
                        try output.write(hasEntries ? bytes[...] : bytes.dropFirst())
                        hasEntries = true
                    }
                } catch {
                    self.error = error
                }
            }
        }

        // Two sets of fragments: one rendered while the other is written.
        var sets = [[Fragment]](repeating: [Fragment](repeating: Fragment(), count: SingleFileWriter.batch), count: 2)
        let writer = Writer(output)
        let queue = DispatchQueue(label: "roost.generate.single-file")
        let group = DispatchGroup()
        var set = 0
        for start in stride(from: 0, to: units.count, by: SingleFileWriter.batch) {
            let batch = units[start..<min(units.count, start + SingleFileWriter.batch)]
            sets[set].withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let out = out  // unchecked: each iteration writes only its own fragment
                DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                    out[k].bytes.removeAll(keepingCapacity: true)
                    out[k].tally = Tally()
                    render(batch[batch.startIndex + k], into: &out[k])
                }
            }
            group.wait()
            if let error = writer.error { throw error }
            let fragments = sets[set]
            queue.async(group: group) { writer.write(batch, fragments) }
            for k in 0..<batch.count { tally.add(fragments[k].tally) }
            set ^= 1
        }
        group.wait()
        if let error = writer.error { throw error }
        writer.advance(to: Section.allCases.count)
        output = writer.output
    }

    // MARK: rendering

    private func render(_ unit: Unit, into fragment: inout Fragment) {
        switch unit.section {
        case .users: renderUsers(unit.range, into: &fragment)
        case .tweets: renderTweets(unit.range, into: &fragment)
        case .favorites: renderFavorites(unit.range, into: &fragment)
        }
    }

    /// `users/{uid}` at depth 6, with `user-likes` when the user liked something.
    private func renderUsers(_ range: Range<Int>, into fragment: inout Fragment) {
        var body = [UInt8]()
        body.reserveCapacity(1024)
        for u in range {
            body.removeAll(keepingCapacity: true)
            plan.userDocument(u, into: &body)
            fragment.bytes.appendEntry(key: plan.users[u].uid, first: false)
            fragment.tally.documents += 1
            let likes = plan.likeStart[u]..<plan.likeStart[u + 1]
            guard !likes.isEmpty else {
                fragment.bytes.appendDocument(body)
                continue
            }
            fragment.bytes.openSubcollection(body, "user-likes")
            for k in likes {
                let t = Int(plan.likedTweets[k])
                body.removeAll(keepingCapacity: true)
                if plan.likeDocument(tweet: t, user: u, into: &body) { fragment.tally.timestampedLikes += 1 }
                fragment.bytes.appendEntry(key: plan.tweetID(t), first: k == likes.lowerBound)
                fragment.bytes.appendDocument(body)
                fragment.tally.documents += 1
            }
            fragment.bytes.closeSubcollection()
        }
    }

    /// `tweets/{id}` at depth 6.
    private func renderTweets(_ range: Range<Int>, into fragment: inout Fragment) {
        var body = [UInt8]()
        body.reserveCapacity(1024)
        var caption = CaptionBuilder()
        for t in range {
            body.removeAll(keepingCapacity: true)
            let facts = plan.tweetDocument(t, into: &body, caption: &caption)
            if facts.tagged { fragment.tally.tagged += 1 }
            if facts.secondsObject { fragment.tally.secondsObjects += 1 }
            if facts.counterWrong { fragment.tally.wrongCounters += 1 }
            fragment.bytes.appendEntry(key: plan.tweetID(t), first: false)
            fragment.bytes.appendDocument(body)
            fragment.tally.documents += 1
        }
    }

    /// `favorites/{uid}` (no fields: only `__collections__`) with `favorites/{placeId}`, for users with places.
    private func renderFavorites(_ range: Range<Int>, into fragment: inout Fragment) {
        var body = [UInt8]()
        var id = [UInt8]()
        body.reserveCapacity(1024)
        var place = Place()
        for u in range {
            var places = FavoritePlaces(plan: plan, user: u)
            guard !places.isEmpty else { continue }
            fragment.bytes.appendEntry(key: plan.users[u].uid, first: false)
            fragment.bytes.openSubcollection(SingleFileWriter.noFields, "favorites")
            var first = true
            while places.next(into: &place) {
                body.removeAll(keepingCapacity: true)
                place.document(into: &body)
                id.removeAll(keepingCapacity: true)
                id.appendInteger(place.id)
                fragment.bytes.appendEntry(key: id, first: first)
                fragment.bytes.appendDocument(body)
                fragment.tally.places += 1
                fragment.tally.documents += 1
                first = false
            }
            fragment.bytes.closeSubcollection()
        }
    }

    /// The body of a document without fields, as Documents.swift would write it.
    static let noFields: [UInt8] = Array("{}\n".utf8)

    static func parentFolder(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}

// MARK: - embedding documents

extension Array where Element == UInt8 {
    /// `,` (unless `first`), a newline, `"key":`.
    mutating func appendEntry(key: some Collection<UInt8>, first: Bool) {
        if !first { append(0x2C) }
        append(0x0A)
        appendJSONString(key)
        append(0x3A)
    }

    /// A document body (a JSON object as Documents.swift writes it) without the whitespace
    /// between its tokens.
    mutating func appendDocument(_ body: [UInt8]) {
        appendCompact(body)
    }

    /// The body without its closing brace, then `"__collections__":{"name":{`; the entries
    /// follow (the first without a comma), then `closeSubcollection`.
    mutating func openSubcollection(_ body: [UInt8], _ name: StaticString) {
        let start = count
        appendCompact(body)
        precondition(count - start >= 2 && last == 0x7D, "a document body is an object")
        removeLast()
        if count - start > 1 { append(0x2C) }  // the body has fields
        append("\"__collections__\":{\"")
        append(name)
        append("\":{")
    }

    mutating func closeSubcollection() {
        append("}}}")
    }

    /// JSON text without spaces, tabs and line breaks outside its strings.
    private mutating func appendCompact(_ json: [UInt8]) {
        var inString = false
        var escaped = false
        for b in json {
            if inString {
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                }
                append(b)
            } else {
                switch b {
                case 0x20, 0x0A, 0x0D, 0x09: continue
                case 0x22: inString = true
                default: break
                }
                append(b)
            }
        }
    }
}

// MARK: - the file

/// Buffered writes to a descriptor: small pieces are gathered into 1 MiB writes, large
/// ones written directly.
struct OutputFile {
    let fd: Int32
    /// The name errors give.
    let name: String
    private var buffer: [UInt8] = []
    private(set) var written = 0
    static let capacity = 1 << 20

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
        buffer.reserveCapacity(OutputFile.capacity)
    }

    mutating func append(_ text: StaticString) { buffer.append(text) }

    mutating func write(_ bytes: ArraySlice<UInt8>) throws(GenerateError) {
        if buffer.count + bytes.count <= OutputFile.capacity {
            buffer.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < OutputFile.capacity / 2 {
            buffer.append(contentsOf: bytes)
        } else {
            try writeAll(bytes)
        }
    }

    mutating func flush() throws(GenerateError) {
        guard !buffer.isEmpty else { return }
        try writeAll(buffer[...])
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func writeAll(_ bytes: ArraySlice<UInt8>) throws(GenerateError) {
        let code = bytes.withUnsafeBytes { Support.writeAll(fd, $0) }
        if code != 0 { throw .failed(path: name, reason: errnoText(code)) }
        written += bytes.count
    }
}

/// `.NAME.roost-tmp-PID` beside the target, created exclusively; deleted by `discard`, or by
/// a termination signal while it exists; `commit` moves it to the target.
final class TemporaryFile {
    let path: String
    let target: String
    let fd: Int32
    private var isOpen = true
    private var slot: Int?

    init(beside target: String) throws(GenerateError) {
        self.target = target
        let folder = SingleFileWriter.parentFolder(target)
        var name = Substring(target)
        while name.hasSuffix("/") { name = name.dropLast() }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        var attempt = 0
        var fd: Int32 = -1
        var path = ""
        repeat {
            path =
                (folder == "/" ? "/" : folder + "/") + "." + name + ".roost-tmp-" + String(getpid())
                + (attempt == 0 ? "" : "-" + String(attempt))
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            attempt += 1
        } while fd < 0 && errno == EEXIST && attempt < 1000
        guard fd >= 0 else { throw .failed(path: path, reason: errnoText()) }
        self.path = path
        self.fd = fd
        slot = SignalCleanup.register(path)
    }

    deinit { discard() }

    /// Closes the file and moves it to the target: `rename` when replacing is allowed,
    /// else `link` then `unlink`, which fails if the target appeared meanwhile.
    func commit(replacing: Bool) throws(GenerateError) {
        if isOpen {
            isOpen = false
            if close(fd) != 0 { throw .failed(path: target, reason: errnoText()) }
        }
        if replacing {
            if rename(path, target) != 0 { throw .failed(path: target, reason: errnoText()) }
        } else if link(path, target) == 0 {
            unlink(path)
        } else if errno == EEXIST {
            throw .fileExists(path: target)
        } else {
            // A file system without hard links: check, then rename.
            var st = stat()
            if lstat(target, &st) == 0 { throw .fileExists(path: target) }
            if rename(path, target) != 0 { throw .failed(path: target, reason: errnoText()) }
        }
        if let slot { SignalCleanup.unregister(slot) }
        slot = nil
    }

    /// Deletes the temporary file, unless committed.
    func discard() {
        if isOpen {
            isOpen = false
            close(fd)
        }
        if let slot {
            unlink(path)
            SignalCleanup.unregister(slot)
        }
        slot = nil
    }
}

/// While temporary files exist, SIGINT, SIGTERM and SIGHUP delete them, then terminate the
/// process as the signal would have (the handler only calls `unlink`, `signal` and `raise`).
enum SignalCleanup {
    private static let capacity = 16
    /// NUL-terminated paths, read by the handler (a slot is filled before it is published).
    /// Unchecked: a signal handler can take no lock; writers hold `state`'s.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    /// The number of slots in use and the handlers to restore when it drops to zero.
    private struct State: ~Copyable {
        var used = 0
        var previous: [sighandler_t?] = []
    }
    private static let state = Mutex(State())
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// The slot of `file`, or nil when all are taken (the file is then not cleaned up on a signal).
    static func register(_ file: String) -> Int? {
        state.withLock { state in
            guard let k = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
            slots[k] = strdup(file)
            if state.used == 0 {
                state.previous = signals.map { s in
                    signal(s) { number in
                        for k in 0..<SignalCleanup.capacity {
                            if let p = SignalCleanup.slots[k] { unlink(p) }
                        }
                        signal(number, SIG_DFL)
                        raise(number)
                    }
                }
            }
            state.used += 1
            return k
        }
    }

    static func unregister(_ k: Int) {
        state.withLock { state in
            let p = slots[k]
            slots[k] = nil
            free(p)
            state.used -= 1
            if state.used == 0 {
                for (s, handler) in zip(signals, state.previous) { signal(s, handler) }
                state.previous = []
            }
        }
    }
}
