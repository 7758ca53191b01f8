import Support

/// The stamp of every regular file a `StoreStamp` walk saw: a cached read after the walk
/// takes each file's stamp from here instead of stat-ing it again.
///
/// Files are known by the FNV-1a hash of their path relative to the store, which the walk
/// computes anyway; no path string is made, and the stamps sit in one array with a table of
/// positions by hash (40 bytes a file, and 4 to 8 for the table; no dictionary). A hash two walked files share is
/// dropped (both are stat-ed again). A stamp here may be older than the file by the time it
/// is read, or (a file created since the walk, with a colliding hash) another file's; both
/// are safe for a cache keyed by path and stamp: no entry matches, the file is read, and the
/// next build sees its real stamp.
package struct StoreFileStamps: Sendable {
    /// One file as the walk saw it: the hash of its relative path, and its stamp.
    typealias Recorded = (pathHash: UInt64, stamp: FileStamp)

    /// The files one thread of the walk recorded, in its order, and where each is: a folder
    /// of `folders` (its path relative to the store, and its names) and a name in it.
    struct Chunk: Sendable {
        var recorded: [Recorded] = []
        var folders: [(relative: String, names: FolderNames)] = []
        /// Per file, its folder's index in `folders` (high half) and its name's (low half).
        var places: [UInt64] = []

        /// Adds a folder whose files follow; its index.
        mutating func add(folder relative: String, names: FolderNames) -> Int {
            folders.append((relative, names))
            return folders.count - 1
        }

        mutating func append(_ pathHash: UInt64, _ stamp: FileStamp, folder: Int, name: Int) {
            recorded.append((pathHash, stamp))
            places.append(UInt64(folder) << 32 | UInt64(name))
        }
    }

    /// As the walk's threads recorded them, in the walk's order (the same for the same
    /// folders listed in the same order); indexed on first use (`index()`), which a build
    /// that finds nothing changed never needs.
    private let chunks: [Chunk]

    init(chunks: [Chunk]) { self.chunks = chunks }

    /// How many files were recorded.
    package var count: Int { chunks.reduce(0) { $0 + $1.recorded.count } }

    /// The stamps, ready to be found by path.
    package func index() -> Index { Index(chunks.map(\.recorded)) }

    /// The positions (in walk order) of the files not as `seen` (an earlier walk's
    /// `StoreStamp.seen`) has them, the path or the stamp; nil when this walk recorded another
    /// number of files. Files listed in another order are all found moved.
    package func moved(since seen: [UInt64]) -> [Int]? {
        guard seen.count == count else { return nil }
        var moved: [Int] = []
        var position = 0
        seen.withUnsafeBufferPointer { seen in
            for chunk in chunks {
                for file in chunk.recorded {
                    if Self.mix(file.pathHash, file.stamp) != seen[position] { moved.append(position) }
                    position += 1
                }
            }
        }
        return moved
    }

    /// `seen` (this walk's `StoreStamp.seen`), but for the files whose path hash is in
    /// `untrusting`, seen with a stamp that matches none (so any later walk finds them moved).
    package func seen(_ seen: [UInt64], untrusting pathHashes: Set<UInt64>) -> [UInt64] {
        precondition(seen.count == count, "a seen list of another walk")
        var seen = seen
        var position = 0
        for chunk in chunks {
            for file in chunk.recorded {
                if pathHashes.contains(file.pathHash) { seen[position] = Self.mix(file.pathHash, Self.untrusted) }
                position += 1
            }
        }
        return seen
    }

    /// The path relative to the store of the file at `position` (in walk order).
    package func relativePath(at position: Int) -> String {
        var position = position
        for chunk in chunks {
            guard position >= chunk.places.count else {
                let place = chunk.places[position]
                let (relative, names) = chunk.folders[Int(place >> 32)]
                let name = names.name(Int(place & 0xFFFF_FFFF))
                return relative.isEmpty ? name : relative + "/" + name
            }
            position -= chunk.places.count
        }
        preconditionFailure("no file at that position")
    }

    /// The stamp `StoreStamp.seen` has for a file changed too recently to trust its stamp:
    /// no file has a negative size, so it matches none, and the file is found moved.
    package static let untrusted = FileStamp(size: -1, modified: 0, changed: 0, inode: 0)

    /// A file's path hash and stamp as one number (the start of its part of a walk's digest).
    @inline(__always) static func mix(_ pathHash: UInt64, _ stamp: FileStamp) -> UInt64 {
        let mix = UnorderedDigest.mix
        var h = mix(pathHash ^ UInt64(bitPattern: stamp.size))
        h = mix(h ^ UInt64(bitPattern: stamp.modified))
        h = mix(h ^ UInt64(bitPattern: stamp.changed))
        return mix(h ^ stamp.inode)
    }

    /// Open addressing over the recorded stamps: built in one pass and found in a probe or
    /// two, where sorting them (on one thread) and a binary search (a cache miss a step)
    /// cost a cached rebuild tens of milliseconds at 100,000 files.
    package struct Index: Sendable {
        /// Every file recorded, in walk order.
        private let recorded: [Recorded]
        /// Power-of-two table, at most two thirds full: 0 for an empty slot, else a position in
        /// `recorded` plus one, with `sharedBit` set when other files have that hash too.
        private let slots: [UInt32]
        /// How many files can be found (those whose hash no other file shares).
        package let count: Int

        private static let sharedBit: UInt32 = 1 << 31

        init(_ chunks: [[Recorded]]) {
            var all: [Recorded] = []
            all.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks { all.append(contentsOf: chunk) }
            var capacity = 16
            while capacity < all.count + all.count / 2 { capacity *= 2 }
            var slots = [UInt32](repeating: 0, count: capacity)
            var count = all.count
            for (k, file) in all.enumerated() {
                var s = Self.home(of: file.pathHash, in: capacity)
                while slots[s] != 0 {
                    let other = slots[s]
                    if all[Int(other & ~Self.sharedBit) - 1].pathHash == file.pathHash {
                        count -= other & Self.sharedBit == 0 ? 2 : 1
                        slots[s] = other | Self.sharedBit
                        break
                    }
                    s = (s + 1) & (capacity - 1)
                }
                if slots[s] == 0 { slots[s] = UInt32(k + 1) }
            }
            (recorded, self.slots, self.count) = (all, slots, count)
        }

        /// Where `hash` would sit if nothing were there (FNV-1a's low bits, mixed).
        private static func home(of hash: UInt64, in capacity: Int) -> Int {
            Int(truncatingIfNeeded: StableHash.splitMix64Finalize(hash)) & (capacity - 1)
        }

        /// The stamp of the file at `relative` (`users/u1/likes/t1.json`), if the walk saw it.
        package subscript(relative: String) -> FileStamp? { self[pathHash: StableHash.fnv1a(relative)] }

        /// The stamp of the file whose relative path hashes (FNV-1a) to `hash`, if the walk saw it.
        package subscript(pathHash hash: UInt64) -> FileStamp? {
            var s = Self.home(of: hash, in: slots.count)
            while slots[s] != 0 {
                let file = recorded[Int(slots[s] & ~Self.sharedBit) - 1]
                if file.pathHash == hash { return slots[s] & Self.sharedBit == 0 ? file.stamp : nil }
                s = (s + 1) & (slots.count - 1)
            }
            return nil
        }
    }
}
