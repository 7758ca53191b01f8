import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One folder's names as a listing gave them, packed: each name's bytes and a NUL in one
/// array, with each entry's kind. What the stamp walk stats, and what `FolderListings` keeps
/// from one walk to the next without a Swift string a name (an allocation each, at a
/// million names).
package struct FolderNames: Sendable, Equatable {
    /// The names' bytes, each followed by a NUL.
    package private(set) var bytes: [UInt8] = []
    /// Each entry's kind, in listing order.
    package private(set) var kinds: [FileKind] = []
    /// Where each name starts in `bytes`.
    private var starts: [UInt32] = []

    package var count: Int { kinds.count }

    package init() {}

    /// The names `bytes` holds (each followed by a NUL) with their `kinds`; nil unless there
    /// is one name a kind and every name is one a listing gives (not empty, without a slash,
    /// not starting with a dot, at most 255 bytes).
    package init?(bytes: [UInt8], kinds: [FileKind]) {
        guard bytes.count <= Int(UInt32.max) else { return nil }
        self.bytes = bytes
        self.kinds = kinds
        var starts: [UInt32] = []
        starts.reserveCapacity(kinds.count)
        // (Over the raw bytes with memchr: a build reads a listing of every folder of the store.)
        let whole = bytes.withUnsafeBytes { all -> Bool in
            guard let base = all.baseAddress else { return true }
            if memchr(base, Int32(UInt8(ascii: "/")), all.count) != nil { return false }
            var start = 0
            while start < all.count {
                guard let nul = memchr(base + start, 0, all.count - start) else { return false }
                let length = base.distance(to: UnsafeRawPointer(nul)) - start
                guard length > 0, length <= 255, all[start] != UInt8(ascii: ".") else { return false }
                starts.append(UInt32(start))
                start += length + 1
            }
            return true
        }
        guard whole, starts.count == kinds.count else { return nil }
        self.starts = starts
    }

    /// Adds the name `name` (its bytes, without a NUL) of kind `kind`.
    mutating func append(_ name: UnsafeRawBufferPointer, kind: FileKind) {
        starts.append(UInt32(bytes.count))
        bytes.append(contentsOf: name)
        bytes.append(0)
        kinds.append(kind)
    }

    /// Calls `body` with each name of `range` (its index, as a C string for the system calls,
    /// and its bytes without the NUL) and its kind.
    func forEach(
        in range: Range<Int>, _ body: (Int, UnsafePointer<CChar>, UnsafeRawBufferPointer, FileKind) -> Void
    ) {
        bytes.withUnsafeBytes { all in
            for k in range {
                let start = Int(starts[k])
                let end = k + 1 < starts.count ? Int(starts[k + 1]) - 1 : all.count - 1
                let name = UnsafeRawBufferPointer(rebasing: all[start..<end])
                body(k, all.baseAddress!.advanced(by: start).assumingMemoryBound(to: CChar.self), name, kinds[k])
            }
        }
    }

    /// The name at `k`, as text.
    func name(_ k: Int) -> String {
        let start = Int(starts[k])
        let end = k + 1 < starts.count ? Int(starts[k + 1]) - 1 : bytes.count - 1
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    package static func == (a: FolderNames, b: FolderNames) -> Bool { a.bytes == b.bytes && a.kinds == b.kinds }
}
