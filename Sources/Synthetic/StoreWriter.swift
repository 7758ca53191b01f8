import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the planned store with plain open/write/close, on all cores: the work is cut into
/// chunks of users (each user's document, likes folder and likes, favorites folder and
/// places) and chunks of tweets. Every folder is made once, by the chunk that fills it.
struct StoreWriter {
    let plan: StorePlan
    let root: String

    /// Per chunk: what it wrote, or why it stopped.
    private struct Tally {
        var files = 0, folders = 0, bytes = 0
        var tagged = 0, secondsObjects = 0, wrongCounters = 0, timestampedLikes = 0, places = 0
        var error: GenerateError?
    }

    func write() throws(GenerateError) -> SyntheticStore.Summary {
        guard let rootFolder = FileDescriptor(open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) else {
            throw .failed(path: root, reason: errnoText())
        }
        var folders = [Int32]()
        for name in ["users", "tweets", "favorites"] {
            guard mkdirat(rootFolder.raw, name, 0o755) == 0 else {
                throw .failed(path: root + "/" + name, reason: errnoText())
            }
            let fd = openat(rootFolder.raw, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw .failed(path: root + "/" + name, reason: errnoText()) }
            folders.append(fd)
        }
        defer { for fd in folders { close(fd) } }
        let (usersFD, tweetsFD, favoritesFD) = (folders[0], folders[1], folders[2])

        let (userChunk, tweetChunk) = (SingleFileWriter.userChunk, SingleFileWriter.tweetChunk)
        let userJobs = (plan.userCount + userChunk - 1) / userChunk
        let tweetJobs = (plan.tweetCount + tweetChunk - 1) / tweetChunk
        let tallies = [Tally](parallelCount: userJobs + tweetJobs) { job in
            var tally = Tally()
            do throws(GenerateError) {
                if job < userJobs {
                    let users = (job * userChunk)..<min(plan.userCount, (job + 1) * userChunk)
                    try writeUsers(users, usersFD: usersFD, favoritesFD: favoritesFD, &tally)
                } else {
                    let j = job - userJobs
                    try writeTweets(
                        (j * tweetChunk)..<min(plan.tweetCount, (j + 1) * tweetChunk), tweetsFD: tweetsFD, &tally)
                }
            } catch {
                tally.error = error
            }
            return tally
        }
        var summary = SyntheticStore.Summary()
        summary.folders = 4
        for tally in tallies {
            if let error = tally.error { throw error }
            summary.files += tally.files
            summary.documents += tally.files
            summary.folders += tally.folders
            summary.bytes += tally.bytes
            summary.tagged += tally.tagged
            summary.secondsObjects += tally.secondsObjects
            summary.wrongCounters += tally.wrongCounters
            summary.timestampedLikes += tally.timestampedLikes
            summary.places += tally.places
        }
        return summary
    }

    private func writeUsers(_ range: Range<Int>, usersFD: Int32, favoritesFD: Int32, _ tally: inout Tally)
        throws(GenerateError)
    {
        var bytes = [UInt8]()
        var name = [UInt8]()
        bytes.reserveCapacity(4096)
        var place = Place()
        for u in range {
            let uid = plan.users[u].uid
            bytes.removeAll(keepingCapacity: true)
            plan.userDocument(u, into: &bytes)
            try file(usersFD, folder: "users", name: &name, uid, ".json", bytes, &tally)

            let likes = plan.likeStart[u]..<plan.likeStart[u + 1]
            if !likes.isEmpty {
                let likesFolder = try subfolder(usersFD, folder: "users", uid, "user-likes", &name, &tally)
                for k in likes {
                    let t = Int(plan.likedTweets[k])
                    bytes.removeAll(keepingCapacity: true)
                    if plan.likeDocument(tweet: t, user: u, into: &bytes) { tally.timestampedLikes += 1 }
                    try file(
                        likesFolder.raw, folder: "users/…/user-likes", name: &name, plan.tweetID(t), ".json", bytes,
                        &tally)
                }
            }

            var places = FavoritePlaces(plan: plan, user: u)
            guard !places.isEmpty else { continue }
            let placesFolder = try subfolder(favoritesFD, folder: "favorites", uid, "favorites", &name, &tally)
            while places.next(into: &place) {
                bytes.removeAll(keepingCapacity: true)
                place.document(into: &bytes)
                var id = [UInt8]()
                id.appendInteger(place.id)
                try file(placesFolder.raw, folder: "favorites/…/favorites", name: &name, id, ".json", bytes, &tally)
                tally.places += 1
            }
        }
    }

    private func writeTweets(_ range: Range<Int>, tweetsFD: Int32, _ tally: inout Tally) throws(GenerateError) {
        var bytes = [UInt8]()
        var name = [UInt8]()
        bytes.reserveCapacity(4096)
        var caption = CaptionBuilder()
        for t in range {
            bytes.removeAll(keepingCapacity: true)
            let facts = plan.tweetDocument(t, into: &bytes, caption: &caption)
            if facts.tagged { tally.tagged += 1 }
            if facts.secondsObject { tally.secondsObjects += 1 }
            if facts.counterWrong { tally.wrongCounters += 1 }
            try file(tweetsFD, folder: "tweets", name: &name, plan.tweetID(t), ".json", bytes, &tally)
        }
    }

    /// Makes `parent/first` and `parent/first/second`, returns the latter open.
    private func subfolder(
        _ parentFD: Int32, folder: String, _ first: [UInt8], _ second: StaticString,
        _ name: inout [UInt8], _ tally: inout Tally
    ) throws(GenerateError) -> FileDescriptor {
        name.removeAll(keepingCapacity: true)
        name.append(contentsOf: first)
        name.append(0)
        if withCName(name, { mkdirat(parentFD, $0, 0o755) }) != 0 && errno != EEXIST { throw failure(folder, name) }
        name.removeLast()
        name.append(UInt8(ascii: "/"))
        name.append(second)
        name.append(0)
        if withCName(name, { mkdirat(parentFD, $0, 0o755) }) != 0 { throw failure(folder, name) }
        let opened = withCName(name) { openat(parentFD, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard let fd = FileDescriptor(opened) else { throw failure(folder, name) }
        tally.folders += 2
        return fd
    }

    /// Writes `bytes` to the new file `stem + suffix` in folder `fd`.
    private func file(
        _ fd: Int32, folder: String, name: inout [UInt8], _ stem: some Collection<UInt8>,
        _ suffix: StaticString, _ bytes: [UInt8], _ tally: inout Tally
    ) throws(GenerateError) {
        name.removeAll(keepingCapacity: true)
        name.append(contentsOf: stem)
        name.append(suffix)
        name.append(0)
        let opened = withCName(name) { openat(fd, $0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard let out = FileDescriptor(opened) else { throw failure(folder, name) }
        let code = bytes.withUnsafeBytes { writeAll(out.raw, $0) }
        if code != 0 { throw failure(folder, name, code) }
        tally.files += 1
        tally.bytes += bytes.count
    }

    private func failure(_ folder: String, _ name: [UInt8], _ code: Int32 = errno) -> GenerateError {
        .failed(
            path: root + "/" + folder + "/" + String(decoding: name.dropLast(), as: UTF8.self), reason: errnoText(code))
    }
}

/// Calls `body` with `name` (NUL-terminated bytes) as a C string.
@inline(__always) func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    name.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
}
