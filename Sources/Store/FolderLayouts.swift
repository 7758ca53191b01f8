import Support

/// One folder's layout as a listing adds its names: a digest of each name and its kind
/// (file, folder, link, other), without sizes or times: what decides which document files a
/// read finds there. The stamp walk and the reader each make one per folder they list, from
/// the same path hashes, so that the same names give the same layout.
struct StoreLayout {
    /// FNV-1a of the folder's path relative to the store.
    let folderHash: UInt64
    /// Where its entries' path hashes continue from (`prefixHash(ofFolder:)`).
    let prefixHash: UInt64
    private var digest = UnorderedDigest()

    init(folder relative: String) {
        folderHash = StableHash.fnv1a(relative)
        prefixHash = relative.isEmpty ? folderHash : StableHash.fnv1a(folderHash, UInt8(ascii: "/"))
    }

    /// FNV-1a of `relative` and a slash (of nothing, for the root): an entry's path hash is
    /// its name's hash continued from there.
    static func prefixHash(ofFolder relative: String) -> UInt64 { StoreLayout(folder: relative).prefixHash }

    /// Adds the entry `name` (a Swift string, as listed) of kind `kind`.
    mutating func add(_ name: String, kind: FileKind) {
        add(pathHash: StableHash.fnv1a(name, offset: prefixHash), kind: kind)
    }

    /// Adds the entry whose name is `bytes` (valid UTF-8: the bytes `add(_:kind:)` hashes);
    /// its path hash (the name's, continued from `prefixHash`).
    @discardableResult
    mutating func add(bytes: UnsafeRawBufferPointer, kind: FileKind) -> UInt64 {
        let pathHash = StableHash.fnv1a(bytes, offset: prefixHash)
        add(pathHash: pathHash, kind: kind)
        return pathHash
    }

    private mutating func add(pathHash: UInt64, kind: FileKind) {
        let code: UInt64
        switch kind {
        case .regular: code = 1
        case .directory: code = 2
        case .symlink: code = 3
        case .other: code = 4
        case .missing: code = 5
        }
        digest.add(UnorderedDigest.mix(UnorderedDigest.mix(pathHash) ^ code))
    }

    /// The folder, with its path when the listing keeps it.
    func folder(relative: String? = nil) -> FolderLayouts.Folder {
        FolderLayouts.Folder(pathHash: folderHash, layout: digest.value, relative: relative)
    }
}

/// Every folder of a directory store with its `StoreLayout`, as one listing of the store saw
/// them: the stamp walk (`StoreStamp`, with `recordingFiles`) and the reader
/// (`DirectoryStore.read(root:stamps:reusing:transform:)`) each make one.
///
/// A build cache keeps the reader's with the list of document files it found. When the next
/// walk sees a folder with the layout the cache recorded, that folder still holds the same
/// files; only the folders whose layout moved (or that are new) need listing again
/// (`changes(since:)`), and when none did, the store need not be listed at all.
package struct FolderLayouts: Sendable, Equatable {
    package struct Folder: Sendable, Equatable {
        /// FNV-1a of the folder's path relative to the store (`""` for the root).
        package let pathHash: UInt64
        package let layout: UInt64
        /// The relative path, when the listing kept it (the walk does).
        package let relative: String?

        package init(pathHash: UInt64, layout: UInt64, relative: String? = nil) {
            self.pathHash = pathHash
            self.layout = layout
            self.relative = relative
        }

        package static func == (a: Folder, b: Folder) -> Bool { a.pathHash == b.pathHash && a.layout == b.layout }
    }

    /// By `pathHash`.
    package let folders: [Folder]

    /// Nil when two folders' paths share a hash (they could not be told apart).
    package init?(_ folders: [Folder]) {
        let sorted = folders.sorted { $0.pathHash < $1.pathHash }
        for k in sorted.indices.dropFirst() where sorted[k].pathHash == sorted[k - 1].pathHash { return nil }
        self.folders = sorted
    }

    /// One number for every folder's path and layout: equal digests, the same folders
    /// holding the same names.
    package var digest: UInt64 {
        var hasher = StableHasher()
        for folder in folders {
            hasher.combine(folder.pathHash)
            hasher.combine(folder.layout)
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// What moved since `old` (another listing of the same store): the relative paths of the
    /// folders that are new or whose layout moved (in byte order; nil if one of them has no
    /// path), and the hashes of the folders that are gone or moved (their old files no longer
    /// count).
    package func changes(since old: FolderLayouts) -> (relist: [String], dropped: Set<UInt64>)? {
        var relist: [String] = []
        var dropped = Set<UInt64>()
        var (i, j) = (0, 0)
        while i < folders.count || j < old.folders.count {
            if j == old.folders.count || (i < folders.count && folders[i].pathHash < old.folders[j].pathHash) {
                guard let relative = folders[i].relative else { return nil }
                relist.append(relative)  // new
                i += 1
            } else if i == folders.count || old.folders[j].pathHash < folders[i].pathHash {
                dropped.insert(old.folders[j].pathHash)  // gone
                j += 1
            } else {
                if folders[i].layout != old.folders[j].layout {
                    guard let relative = folders[i].relative else { return nil }
                    relist.append(relative)
                    dropped.insert(old.folders[j].pathHash)
                }
                i += 1
                j += 1
            }
        }
        relist.sort(by: codePointOrder)
        return (relist, dropped)
    }
}
