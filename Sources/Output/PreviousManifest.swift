import Support

/// The manifest the last build left, as read when the writer opened the output folder: its
/// entries in the byte order of their paths (the order a commit writes them in), and where
/// each path is among them.
///
/// Kept in order so that a commit that changed a few files of many merges those few into
/// it, rather than sorting every path again.
struct PreviousManifest: Sendable {
    /// Each path once, in byte order.
    private(set) var paths: [String] = []
    /// The entry of `paths[i]`.
    private(set) var entries: [ManifestEntry] = []
    /// The manifest's bytes, and where the line of `paths[i]` is in them when a commit may
    /// copy it as it is (the line `Manifest.appendLine` writes for that entry); empty when it
    /// may not. (Copying a line is a tenth of writing it: a rebuild that changed a few files
    /// writes again the lines of all the others.)
    private(set) var bytes: [UInt8] = []
    private(set) var lines: [Range<Int>] = []
    /// The position in `paths` of each path, by the FNV-1a of its bytes: a path's bytes are
    /// hashed once, where a `String` key is hashed as Unicode text (the larger part of a
    /// rebuild's look-ups). A path whose hash another took is found by its order. (Int32: at
    /// two million files, 8 MiB less.)
    private var positions = PathHashTable(capacity: 0)
    /// The inputs token of the build that wrote it (see `Manifest`), if any.
    private(set) var inputs: String?
    /// Its length in bytes, when lines can be appended to it as read (`SiteWriter.appendToManifest`):
    /// the current format, every line ended. Nil otherwise.
    private(set) var appendableLength: Int?

    init() {}

    init(decoding bytes: [UInt8]) {
        inputs = Manifest.inputs(of: bytes)
        if bytes.starts(with: Manifest.header.utf8), bytes.last == UInt8(ascii: "\n") { appendableLength = bytes.count }
        // Its lines read in parts on all cores (a rebuild reads tens of thousands before
        // anything else can start), each part's paths hashed there too.
        let ranges = Manifest.lineRanges(of: bytes, parts: bytes.count < Self.partBytes ? 1 : Self.parts)
        let parts = [Part](parallelCount: ranges.count) { k in Part(bytes, lines: ranges[k]) }
        let count = parts.reduce(0) { $0 + $1.paths.count }
        paths.reserveCapacity(count)
        entries.reserveCapacity(count)
        lines.reserveCapacity(count)
        var inOrder = true
        for part in parts where !part.paths.isEmpty {
            if let last = paths.last, !codePointOrder(last, part.paths[0]) { inOrder = false }
            inOrder = inOrder && part.inOrder
            paths += part.paths
            entries += part.entries
            lines += part.lines
        }
        self.bytes = bytes
        if !inOrder { putInOrder() }
        // The parts' hashes are the paths' in order unless the paths were sorted again.
        let hashes = inOrder ? parts.flatMap(\.hashes) : paths.map { StableHash.fnv1a($0) }
        positions = PathHashTable(capacity: hashes.count)
        // (Of two paths with one hash, the first is found by it, the second by its order.)
        for (position, hash) in hashes.enumerated() { positions.insert(hash, position: Int32(position)) }
    }

    /// A manifest this long or longer is read in `parts` parts.
    private static let partBytes = 1 << 16
    private static let parts = 8

    /// The entries of some whole lines of a manifest, in the file's order, and their paths' hashes.
    private struct Part: Sendable {
        var paths: [String] = []
        var entries: [ManifestEntry] = []
        var hashes: [UInt64] = []
        var lines: [Range<Int>] = []
        /// Each path after the one before it in this part.
        var inOrder = true

        init(_ bytes: [UInt8], lines: Range<Int>) {
            let count = bytes[lines].count { $0 == UInt8(ascii: "\n") }
            paths.reserveCapacity(count)
            entries.reserveCapacity(count)
            hashes.reserveCapacity(count)
            self.lines.reserveCapacity(count)
            Manifest.forEachEntry(in: bytes, lines: lines) { path, follows, entry, line in
                inOrder = inOrder && follows
                paths.append(path)
                entries.append(entry)
                hashes.append(StableHash.fnv1a(path))
                self.lines.append(line ?? 0..<0)
            }
        }
    }

    /// Sorts a manifest that was not written in order (by hand, or by an older writer), the
    /// last line of a path that came twice counting.
    private mutating func putInOrder() {
        var last: [String: Int] = [:]
        for (i, path) in paths.enumerated() { last[path] = i }
        var order = paths.indices.filter { last[paths[$0]] == $0 }
        order.sort { codePointOrder(paths[$0], paths[$1]) }
        paths = order.map { paths[$0] }
        entries = order.map { entries[$0] }
        lines = order.map { lines[$0] }
    }

    var count: Int { paths.count }
    var isEmpty: Bool { paths.isEmpty }

    /// The position of `path` in `paths`, if the manifest lists it.
    func position(of path: String) -> Int? {
        if let found = positions[StableHash.fnv1a(path)], sameBytes(paths[found], path) { return found }
        // Another path with its hash, or none: found by its bytes if the manifest lists it.
        let i = insertionPoint(of: path)
        return i < paths.count && sameBytes(paths[i], path) ? i : nil
    }

    subscript(path: String) -> ManifestEntry? { position(of: path).map { entries[$0] } }

    /// Where the line of the entry at `position` is in `bytes` (with its newline) when a commit
    /// may copy it; nil when it must be written anew.
    func line(at position: Int) -> Range<Int>? {
        lines[position].isEmpty ? nil : lines[position]
    }

    /// The first position whose path is not before `path` in byte order (`count` if none is).
    func insertionPoint(of path: String) -> Int {
        var (low, high) = (0, paths.count)
        while low < high {
            let middle = (low + high) / 2
            if codePointOrder(paths[middle], path) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The positions of the paths that start with `prefix`: adjacent in byte order.
    func positions(withPrefix prefix: String) -> Range<Int> {
        let start = insertionPoint(of: prefix)
        var end = start
        while end < paths.count, paths[end].utf8.starts(with: prefix.utf8) { end += 1 }
        return start..<end
    }
}
