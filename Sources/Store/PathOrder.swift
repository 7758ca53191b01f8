#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the documents of a single-file store in path order and finds its missing parents,
/// without a string or a hash per document.
///
/// The order is exactly the directory store's (`DirectoryStore.Entry.sortKey`): the
/// segments joined by NUL, compared as Swift strings (canonical equivalence); documents
/// with equal paths keep their input order. Each key is copied once into one byte buffer;
/// two all-ASCII keys (ASCII is NFC, so their string order is their byte order) are
/// compared by their first eight bytes and then memcmp, any other pair as strings.
enum PathOrder {
    /// One entry to order.
    private struct Slot {
        /// The key's first eight bytes, big-endian, zero-padded.
        var prefix: UInt64
        /// Where the key is in the byte buffer.
        var start: Int
        var count: Int32
        /// -1 for an ASCII key, else the index of the joined string in `joined`.
        var joined: Int32
        /// Index into the documents.
        var index: Int32
        /// The number of segments.
        var depth: Int32
        /// A node-firestore-import-export object holding only `__collections__`: a missing
        /// parent, not a document; sorted after documents with the same path.
        var holder: Bool
    }

    /// Sorts `documents` by path, removes the entries flagged in `holders`, and returns the
    /// paths that are ancestors of a document or of a flagged entry, or flagged entries
    /// themselves, but not documents: sorted, without duplicates. `holders` is empty or has
    /// one flag per document. Input already in order is left as it is (checked in one pass).
    static func arrange(_ documents: inout [Document], holders: [Bool] = []) -> [DocumentPath] {
        var paths = documents.map(\.path)
        return arrange(&documents, paths: &paths, holders: holders)
    }

    /// `arrange(_:holders:)` for values of any kind made from documents with these `paths`
    /// (one per value, both moved and removed alike).
    package static func arrange<T>(_ values: inout [T], paths: inout [DocumentPath], holders: [Bool] = [])
        -> [DocumentPath]
    {
        precondition(holders.isEmpty || holders.count == paths.count)
        var collector = Collector(capacity: paths.count)
        for k in paths.indices {
            collector.append(paths[k].segments, holder: holders.isEmpty ? false : holders[k])
        }
        return collector.arrange(&values, &paths)
    }

    /// The keys of documents met one at a time (a single file read as it is parsed), each
    /// copied once, without keeping its `DocumentPath`: `arrange(_:_:)` then orders values
    /// made from those documents.
    struct Collector: ~Copyable {
        private var bytes: KeyBytes
        private var keys = Keys()

        init(capacity: Int) {
            bytes = KeyBytes(capacity: max(64, capacity * 48))
            keys.slots.reserveCapacity(capacity)
        }

        var count: Int { keys.slots.count }

        /// After `arrange`: false when two of the keys are the same path.
        private(set) var distinct = true

        /// Some ID holds NUL: only `arrange` with the paths can find the missing parents.
        var segmentHasNUL: Bool { keys.segmentHasNUL }

        /// The next document's key (its segments joined by NUL) and its slot; `holder` flags
        /// a node-firestore-import-export missing parent (see `Slot.holder`).
        mutating func append(_ segments: [String], holder: Bool) {
            precondition(keys.slots.count < Int(Int32.max))
            let start = bytes.count
            var high: UInt8 = 0
            for (s, segment) in segments.enumerated() {
                if s > 0 { bytes.appendSeparator() }
                let found = bytes.append(segment: segment)
                high |= found.high
                if found.hasNUL { keys.segmentHasNUL = true }
            }
            var alternate: Int32 = -1
            if high >= 0x80 {
                alternate = Int32(keys.joined.count)
                keys.joined.append(segments.joined(separator: "\u{0}"))
            }
            if holder { keys.holderCount += 1 }
            keys.slots.append(
                Slot(
                    prefix: bytes.prefix(from: start), start: start, count: Int32(bytes.count - start),
                    joined: alternate, index: Int32(keys.slots.count), depth: Int32(segments.count), holder: holder))
        }

        /// Sorts `values`, one per key appended and in that order, by path (and `paths` alike,
        /// unless it is empty: then no ID may hold NUL), removes the holders from both, and
        /// returns the missing parents (see `PathOrder.arrange(_:holders:)`).
        mutating func arrange<T>(_ values: inout [T], _ paths: inout [DocumentPath]) -> [DocumentPath] {
            precondition(values.count == keys.slots.count && (paths.isEmpty || paths.count == values.count))
            precondition(!paths.isEmpty || !keys.segmentHasNUL || values.isEmpty)
            let order = KeyOrder(base: bytes.base, joined: keys.joined)
            // Exports are often in order already (REST lists are sorted by name).
            if !order.isSorted(keys.slots) { keys.slots.sort(by: order.less) }
            for k in keys.slots.indices.dropFirst() where order.same(keys.slots[k - 1], keys.slots[k]) {
                distinct = false
                break
            }
            moveIntoPlace(&values, &paths, &keys.slots)
            let missing: [DocumentPath]
            if keys.segmentHasNUL {
                missing = missingParentsByLookup(keys.slots, paths)
            } else if paths.isEmpty {
                let base = UnsafePointer(bytes.base)
                let slots = keys.slots
                missing = missingParents(keys.slots, { k in segments(of: slots[k], in: base) }, base)
            } else {
                let known = paths
                missing = missingParents(keys.slots, { known[$0].segments }, UnsafePointer(bytes.base))
            }
            if keys.holderCount > 0 {
                removeHolders(&values, keys.slots, count: keys.holderCount)
                if !paths.isEmpty { removeHolders(&paths, keys.slots, count: keys.holderCount) }
            }
            return missing
        }
    }

    /// The segments of a key without NUL in its IDs: its bytes split at each NUL.
    private static func segments(of slot: Slot, in base: UnsafePointer<UInt8>) -> [String] {
        var segments: [String] = []
        var start = slot.start
        let end = slot.start + Int(slot.count)
        for k in slot.start...end where k == end || base[k] == 0 {
            segments.append(String(decoding: UnsafeBufferPointer(start: base + start, count: k - start), as: UTF8.self))
            start = k + 1
        }
        return segments
    }

    /// What `Collector` found.
    private struct Keys {
        /// One per document, in the documents' order.
        var slots: [Slot] = []
        /// The joined keys of the non-ASCII paths (see `Slot.joined`).
        var joined: [String] = []
        var holderCount = 0
        /// Some ID holds NUL: the keys' order no longer groups a path's descendants.
        var segmentHasNUL = false
    }

    /// Each value and path to its place: cycles of swaps, no copies (`index` is then spent,
    /// and `slots[k]` describes `values[k]`).
    private static func moveIntoPlace<T>(_ values: inout [T], _ paths: inout [DocumentPath], _ slots: inout [Slot]) {
        values.withUnsafeMutableBufferPointer { docs in
            paths.withUnsafeMutableBufferPointer { paths in
                let withPaths = !paths.isEmpty
                for i in 0..<docs.count where slots[i].index >= 0 {
                    var current = i
                    while true {
                        let next = Int(slots[current].index)
                        slots[current].index = -1
                        if next == i { break }
                        docs.swapAt(current, next)
                        if withPaths { paths.swapAt(current, next) }
                        current = next
                    }
                }
            }
        }
    }

    /// Removes the flagged entries (`slots[k]` describes `values[k]`), keeping the order.
    private static func removeHolders<T>(_ documents: inout [T], _ slots: [Slot], count: Int) {
        documents.withUnsafeMutableBufferPointer { docs in
            var kept = 0
            for i in 0..<docs.count where !slots[i].holder {
                if kept != i { docs.swapAt(kept, i) }
                kept += 1
            }
        }
        documents.removeLast(count)
    }

    /// The keys, back to back, in a buffer grown by hand (no per-byte checks; realloc, so a
    /// large buffer grows without a second copy in memory).
    private struct KeyBytes: ~Copyable {
        private(set) var base: UnsafeMutablePointer<UInt8>  // raw: the byte loop below writes without checks
        private var capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            guard let memory = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes of keys") }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }

        deinit { free(base) }

        /// The NUL between two segments.
        mutating func appendSeparator() {
            reserve(1)
            base[count] = 0
            count += 1
        }

        /// Appends the segment's UTF-8; returns its bytes or'ed together and whether it holds a NUL.
        mutating func append(segment: String) -> (high: UInt8, hasNUL: Bool) {
            let utf8 = segment.utf8
            reserve(utf8.count)
            var used = count
            var high: UInt8 = 0
            var hasNUL = false
            let copied: Void? = utf8.withContiguousStorageIfAvailable { source in
                for b in source {
                    base[used] = b
                    used += 1
                    high |= b
                    if b == 0 { hasNUL = true }
                }
            }
            if copied == nil {
                for b in utf8 {
                    base[used] = b
                    used += 1
                    high |= b
                    if b == 0 { hasNUL = true }
                }
            }
            count = used
            return (high, hasNUL)
        }

        /// The first eight bytes from `start`, big-endian, zero-padded.
        func prefix(from start: Int) -> UInt64 {
            var prefix: UInt64 = 0
            for j in 0..<8 {
                prefix <<= 8
                if start + j < count { prefix |= UInt64(base[start + j]) }
            }
            return prefix
        }

        private mutating func reserve(_ more: Int) {
            guard count + more > capacity else { return }
            capacity = max(capacity * 2, count + more)
            guard let grown = realloc(base, capacity) else { fatalError("out of memory for \(capacity) bytes of keys") }
            base = grown.assumingMemoryBound(to: UInt8.self)
        }
    }

    /// The order of the slots: their keys', then holders after documents, then input order.
    private struct KeyOrder {
        let base: UnsafePointer<UInt8>
        let joined: [String]

        init(base: UnsafeMutablePointer<UInt8>, joined: [String]) {
            self.base = UnsafePointer(base)
            self.joined = joined
        }

        func key(_ s: Slot) -> String {
            if s.joined >= 0 { return joined[Int(s.joined)] }
            return String(decoding: UnsafeBufferPointer(start: base + s.start, count: Int(s.count)), as: UTF8.self)
        }

        /// True when the two keys are the same path (canonically equivalent).
        func same(_ a: Slot, _ b: Slot) -> Bool {
            if a.joined < 0 && b.joined < 0 {
                return a.count == b.count && a.prefix == b.prefix
                    && memcmp(base + a.start, base + b.start, Int(a.count)) == 0
            }
            return key(a) == key(b)
        }

        func less(_ a: Slot, _ b: Slot) -> Bool {
            if a.joined < 0 && b.joined < 0 {
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                let common = Int(min(a.count, b.count))
                if common > 8 {
                    let c = memcmp(base + a.start + 8, base + b.start + 8, common - 8)
                    if c != 0 { return c < 0 }
                }
                if a.count != b.count { return a.count < b.count }
            } else {
                let (ka, kb) = (key(a), key(b))
                if ka < kb { return true }
                if kb < ka { return false }
            }
            if a.holder != b.holder { return b.holder }
            return a.index < b.index
        }

        func isSorted(_ slots: [Slot]) -> Bool {
            for k in slots.indices.dropFirst() where less(slots[k], slots[k - 1]) { return false }
            return true
        }
    }

    /// A path on the stack of `missingParents`: a prefix of a key in the buffer.
    private struct Frame {
        var start: Int
        var count: Int
        /// Its number of segments.
        var depth: Int
        var ascii: Bool
        /// The document whose first `depth` segments it is.
        var index: Int
    }

    /// One pass over the sorted entries (`slots[k]` describes `documents[k]`): a document's
    /// ancestors precede it and all entries below a path follow it together (no segment
    /// holds NUL), so a stack of the entries that are ancestors of (or equal to) the current
    /// one tells which of its ancestors are there. Each missing one is reported once, as the
    /// first document below it spells it (what a walk up from each document in turn gives).
    private static func missingParents(
        _ slots: [Slot], _ segmentsOf: (Int) -> [String],
        _ base: UnsafePointer<UInt8>
    ) -> [DocumentPath] {
        var stack: [Frame] = []
        var missing: [DocumentPath] = []
        for (index, slot) in slots.enumerated() {
            let count = Int(slot.count)
            let depth = Int(slot.depth)
            let ascii = slot.joined < 0
            func isPrefix(_ f: Frame) -> Bool {
                guard f.depth <= depth else { return false }
                if f.ascii && ascii {
                    guard f.count <= count else { return false }
                    if f.count < count && base[slot.start + f.count] != 0 { return false }
                    return memcmp(base + f.start, base + slot.start, f.count) == 0
                }
                let mine = segmentsOf(index)
                let theirs = segmentsOf(f.index)
                for k in 0..<f.depth where mine[k] != theirs[k] { return false }
                return true
            }
            while let top = stack.last, !isPrefix(top) {
                stack.removeLast()
            }
            // The stack holds prefixes of this path, shortest first: add the ancestors it lacks.
            var k = 0
            var d = 2
            while d < depth {
                if k < stack.count && stack[k].depth == d {
                    k += 1
                } else {
                    // The ancestor's key: up to the d-th NUL.
                    var nuls = 0
                    var length = 0
                    while length < count {
                        if base[slot.start + length] == 0 {
                            nuls += 1
                            if nuls == d { break }
                        }
                        length += 1
                    }
                    stack.insert(Frame(start: slot.start, count: length, depth: d, ascii: ascii, index: index), at: k)
                    missing.append(DocumentPath(Array(segmentsOf(index)[0..<d])))
                    k += 1
                }
                d += 2
            }
            if let top = stack.last, top.depth == depth { continue }  // the same path again
            stack.append(Frame(start: slot.start, count: count, depth: depth, ascii: ascii, index: index))
            if slot.holder { missing.append(DocumentPath(segmentsOf(index))) }
        }
        var inOrder = true
        for k in missing.indices.dropFirst() where !(missing[k - 1] < missing[k]) {
            inOrder = false
            break
        }
        if !inOrder {
            // Not expected; the order and uniqueness callers rely on, whatever happens.
            missing = Array(Set(missing)).sorted()
        }
        return missing
    }

    /// What `missingParents` finds, by lookups in a set: when an ID holds NUL, the joined
    /// key no longer puts all of a path's descendants right after it.
    private static func missingParentsByLookup(_ slots: [Slot], _ paths: [DocumentPath]) -> [DocumentPath] {
        var present = Set<DocumentPath>(minimumCapacity: slots.count)
        for (k, slot) in slots.enumerated() where !slot.holder { present.insert(paths[k]) }
        var missing = Set<DocumentPath>()
        for (k, slot) in slots.enumerated() {
            let path = paths[k]
            var p = slot.holder ? path : path.parent
            while let q = p, !present.contains(q) {
                if !missing.insert(q).inserted { break }
                p = q.parent
            }
        }
        return missing.sorted()
    }
}
