import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The manifest the last build left, as read when the writer opened the output folder: its
/// entries in the byte order of their paths (the order a commit writes them in), and where
/// each path is among them.
///
/// Kept in order so that a commit that changed a few files of many merges those few into
/// it, rather than sorting every path again. Paths stay bytes of the manifest, found by
/// where they are in it: a rebuild looks up tens of thousands of them, and makes a `String`
/// only of those a commit writes again.
struct PreviousManifest: Sendable {
    /// Where each path's bytes are, in byte order of the paths: in `bytes`, or, past its end,
    /// in `repaired` (a path that was not UTF-8, as a `String` has it).
    private var pathRanges: [Range<Int>] = []
    private var repaired: [UInt8] = []
    /// The entry of the path at each position.
    private(set) var entries: [ManifestEntry] = []
    /// The manifest's bytes, and where the line of each position's path is in them when a
    /// commit may copy it as it is (the line `Manifest.appendLine` writes for that entry);
    /// empty when it may not. (Copying a line is a tenth of writing it: a rebuild that changed
    /// a few files writes again the lines of all the others.)
    private(set) var bytes: [UInt8] = []
    private(set) var lines: [Range<Int>] = []
    /// The position of each path, by the FNV-1a of its bytes: a path's bytes are hashed once,
    /// where a `String` key is hashed as Unicode text (the larger part of a rebuild's
    /// look-ups). A path whose hash another took is found by its order. (Int32: at two
    /// million files, 8 MiB less.)
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
        self.bytes = bytes
        // Its lines read in parts on all cores (a rebuild reads tens of thousands before
        // anything else can start), each part's paths hashed there too.
        let ranges = Manifest.lineRanges(of: bytes, parts: bytes.count < Self.partBytes ? 1 : Self.parts)
        let parts = [Part](parallelCount: ranges.count) { k in Part(bytes, lines: ranges[k]) }
        let count = parts.reduce(0) { $0 + $1.paths.count }
        pathRanges.reserveCapacity(count)
        entries.reserveCapacity(count)
        lines.reserveCapacity(count)
        var inOrder = true
        for part in parts where !part.paths.isEmpty {
            if !pathRanges.isEmpty {
                let first = part.paths[0]
                let firstBytes = first.repaired.map { Array($0.utf8) } ?? Array(bytes[first.range])
                if !firstBytes.withUnsafeBytes({ precedes(pathRanges.count - 1, $0) }) { inOrder = false }
            }
            inOrder = inOrder && part.inOrder
            for path in part.paths {
                if let text = path.repaired {
                    let start = bytes.count + repaired.count
                    repaired += text.utf8
                    pathRanges.append(start..<(bytes.count + repaired.count))
                } else {
                    pathRanges.append(path.range)
                }
            }
            entries += part.entries
            lines += part.lines
        }
        if !inOrder { putInOrder() }
        // The parts' hashes are the paths' in order unless the paths were sorted again.
        let hashes =
            inOrder ? parts.flatMap(\.hashes) : pathRanges.indices.map { withPath(at: $0) { StableHash.fnv1a($0) } }
        positions = PathHashTable(capacity: hashes.count)
        // (Of two paths with one hash, the first is found by it, the second by its order.)
        for (position, hash) in hashes.enumerated() { positions.insert(hash, position: Int32(position)) }
    }

    /// A manifest this long or longer is read in `parts` parts.
    private static let partBytes = 1 << 16
    private static let parts = 8

    /// The entries of some whole lines of a manifest, in the file's order, and their paths' hashes.
    private struct Part: Sendable {
        var paths: [(range: Range<Int>, repaired: String?)] = []
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
            bytes.withUnsafeBytes { all in
                Manifest.forEachPath(in: bytes, lines: lines) { path, repaired, follows, entry, line in
                    inOrder = inOrder && follows
                    paths.append((path, repaired))
                    entries.append(entry)
                    hashes.append(
                        repaired.map { StableHash.fnv1a($0) }
                            ?? StableHash.fnv1a(UnsafeRawBufferPointer(rebasing: all[path])))
                    self.lines.append(line ?? 0..<0)
                }
            }
        }
    }

    /// Sorts a manifest that was not written in order (by hand, or by an older writer), the
    /// last line of a path that came twice counting.
    private mutating func putInOrder() {
        var last: [[UInt8]: Int] = [:]
        for i in pathRanges.indices { last[withPath(at: i) { Array($0) }] = i }
        var order = pathRanges.indices.filter { i in last[withPath(at: i) { Array($0) }] == i }
        order.sort { a, b in withPath(at: b) { precedes(a, $0) } }
        pathRanges = order.map { pathRanges[$0] }
        entries = order.map { entries[$0] }
        lines = order.map { lines[$0] }
    }

    var count: Int { pathRanges.count }
    var isEmpty: Bool { pathRanges.isEmpty }

    /// Every path, in order, as text (made now: for a reader of the whole list, not a build).
    var paths: [String] { (0..<count).map(path(at:)) }

    /// The path at `position`.
    func path(at position: Int) -> String {
        withPath(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` of the bytes of the path at `position`.
    func withPath<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let range = pathRanges[position]
        if range.lowerBound >= bytes.count {
            let offset = bytes.count
            return try repaired.withUnsafeBytes {
                try body(
                    UnsafeRawBufferPointer(rebasing: $0[(range.lowerBound - offset)..<(range.upperBound - offset)]))
            }
        }
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Whether the path at `position` comes before `other` (bytes) in byte order.
    private func precedes(_ position: Int, _ other: UnsafeRawBufferPointer) -> Bool {
        withPath(at: position) { mine in
            let common = min(mine.count, other.count)
            let order = common == 0 ? 0 : memcmp(mine.baseAddress!, other.baseAddress!, common)
            return order != 0 ? order < 0 : mine.count < other.count
        }
    }

    /// The position of `path`, if the manifest lists it.
    func position(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { utf8 -> Int? in
            let wanted = UnsafeRawBufferPointer(utf8)
            if let found = positions[StableHash.fnv1a(wanted)], withPath(at: found, { sameBytes($0, wanted) }) {
                return found
            }
            // Another path with its hash, or none: found by its bytes if the manifest lists it.
            let i = insertionPoint(of: wanted)
            return i < count && withPath(at: i, { sameBytes($0, wanted) }) ? i : nil
        }
    }

    subscript(path: String) -> ManifestEntry? { position(of: path).map { entries[$0] } }

    /// Where the line of the entry at `position` is in `bytes` (with its newline) when a commit
    /// may copy it; nil when it must be written anew.
    func line(at position: Int) -> Range<Int>? {
        lines[position].isEmpty ? nil : lines[position]
    }

    /// The first position whose path is not before `path` in byte order (`count` if none is).
    func insertionPoint(of path: String) -> Int {
        var path = path
        return path.withUTF8 { insertionPoint(of: UnsafeRawBufferPointer($0)) }
    }

    private func insertionPoint(of path: UnsafeRawBufferPointer) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if precedes(middle, path) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The positions of the paths that start with `prefix`: adjacent in byte order.
    func positions(withPrefix prefix: String) -> Range<Int> {
        let start = insertionPoint(of: prefix)
        var end = start
        while end < count, withPath(at: end, { $0.starts(with: prefix.utf8) }) { end += 1 }
        return start..<end
    }
}
