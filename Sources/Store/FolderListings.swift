import Support

/// The names in each folder of a directory store as a stamp walk saw them, with the folder's
/// own stamp (`FileStamp`, taken from the open folder before it was listed). The next walk
/// takes a folder's names from here instead of listing it again when the folder's stamp has
/// not moved: adding, removing or renaming an entry moves its folder's modification and
/// change times. Editing a file in place moves only the file's, which the walk still stats.
///
/// A walk keeps a folder only when it had settled: last changed before the walk's
/// `settledBefore` (the rule file stamps follow, git's "racily clean"), so that a change
/// within the same clock tick as the listing cannot leave its times as they were.
package struct FolderListings: Sendable, Equatable {
    package struct Listing: Sendable, Equatable {
        package let stamp: FileStamp
        package let names: FolderNames

        package init(stamp: FileStamp, names: FolderNames) {
            self.stamp = stamp
            self.names = names
        }
    }

    /// By the folder's path relative to the store (`""` for the root).
    package let folders: [String: Listing]
    /// Every folder's names and the folder itself, counted (what listing them all costs, in
    /// names: `ListingCache.isWorthWriting`'s unit).
    package let weight: Int

    package init(_ folders: [String: Listing] = [:]) {
        self.folders = folders
        weight = folders.values.reduce(0) { $0 + $1.names.count + 1 }
    }

    /// The listings as bytes, in byte order of their paths (the same listings, the same
    /// bytes): `emit` is called with what to append to the output, once for the count and
    /// once for each folder, so that a writer can stream them.
    package func encode<E: Error>(_ emit: ((inout ByteWriter) -> Void) throws(E) -> Void) throws(E) {
        try emit { $0.append(length: folders.count) }
        for relative in folders.keys.sorted(by: codePointOrder) {
            let listing = folders[relative]!
            try emit { out in
                out.append(relative)
                out.append(listing.stamp.size)
                out.append(listing.stamp.modified)
                out.append(listing.stamp.changed)
                out.append(listing.stamp.inode)
                out.append(length: listing.names.count)
                out.append(length: listing.names.bytes.count)
                out.append(listing.names.bytes)
                for kind in listing.names.kinds { out.append(Self.code(of: kind)) }
            }
        }
    }

    /// The listings `encode` wrote, read from `reader`: each folder's bytes found in one pass
    /// (lengths only), then decoded on all cores (a build waits for them before its walk).
    package init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        let count = try reader.length()
        var spans: [UnsafeRawBufferPointer] = []
        spans.reserveCapacity(min(count, 1 << 20))
        for _ in 0..<count {
            spans.append(
                try reader.bytes { (r: inout ByteReader) throws(ByteReader.Malformed) in
                    try r.skipString()
                    _ = try r.bytes(4 * 8)  // the stamp
                    let (names, byteCount) = (try r.length(), try r.length())
                    _ = try r.bytes(byteCount + names)
                })
        }
        nonisolated(unsafe) let records = spans  // (read-only, and within the reader's bytes)
        let decoded = [(relative: String, listing: Listing)?](parallelCount: records.count, chunk: 64) { k in
            var one = ByteReader(records[k])
            return try? Self.folder(from: &one)
        }
        var folders: [String: Listing] = [:]
        folders.reserveCapacity(count)
        for folder in decoded {
            guard let folder, folders.updateValue(folder.listing, forKey: folder.relative) == nil else {
                throw ByteReader.Malformed()
            }
        }
        self.init(folders)
    }

    /// One folder's path and listing, from its bytes.
    private static func folder(from reader: inout ByteReader) throws(ByteReader.Malformed) -> (String, Listing) {
        let relative = try reader.string()
        let stamp = FileStamp(
            size: try reader.int64(), modified: try reader.int64(), changed: try reader.int64(),
            inode: try reader.uint64())
        let (names, byteCount) = (try reader.length(), try reader.length())
        let bytes = [UInt8](try reader.bytes(byteCount))
        let codes = try reader.bytes(names)
        var kinds: [FileKind] = []
        kinds.reserveCapacity(names)
        for code in codes { kinds.append(try Self.kind(code: code)) }
        guard reader.isAtEnd, let packed = FolderNames(bytes: bytes, kinds: kinds) else { throw ByteReader.Malformed() }
        return (relative, Listing(stamp: stamp, names: packed))
    }

    private static func code(of kind: FileKind) -> UInt8 {
        switch kind {
        case .regular: 1
        case .directory: 2
        case .symlink: 3
        case .other: 4
        case .missing: 5
        }
    }

    private static func kind(code: UInt8) throws(ByteReader.Malformed) -> FileKind {
        switch code {
        case 1: .regular
        case 2: .directory
        case 3: .symlink
        case 4: .other
        case 5: .missing
        default: throw ByteReader.Malformed()
        }
    }
}
