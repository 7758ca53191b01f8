import Store
import Support

/// The build cache's files that a rebuild reads whatever changed, each read on a thread of its
/// own (`Background`) as soon as the build knows it has work to do: the kept snapshot
/// (decoded), the caption cache and, unless the snapshot's walk finds what moved without it,
/// the document cache. Read in turn, each left a core idle in parts of its work. Each is then
/// used only as its own checks allow, as when read in turn; when the snapshot cannot be
/// taken, decoding it was for nothing.
///
/// Each is taken once, by the step that reads it: from then on that step alone holds it, and
/// what is not taken is let go with this (the kept snapshot, decoded, is tens of megabytes).
final class CachePrefetch {
    private var documents: Background<DocumentCache?>?
    private var snapshot: Background<SnapshotCache?>?
    private var captions: Background<CaptionCache?>?
    private let documentsPath: String
    private let identity: StoreIdentity
    private var documentsTaken = false
    /// The files moved since the kept snapshot's walk (`SnapshotCache.moved`), when it kept one.
    let moved: [Int]?
    /// Whether a read will likely take the kept snapshot by its walk (`updatesByWalk`).
    let updatesByWalk: Bool

    /// `walk`: the store's files and folders as the inputs' walk just saw them.
    init(folder: String, identity: StoreIdentity, walk: (files: StoreFileStamps, folders: FolderLayouts)? = nil) {
        documentsPath = DocumentCache.path(folder: folder, identity: identity)
        self.identity = identity
        let snapshotPath = SnapshotCache.path(folder: folder, identity: identity)
        let captionsPath = CaptionCache.path(folder: folder, identity: identity)
        // The snapshot's basis and walk are read here (its bytes checked on all cores); its
        // documents are decoded on a thread of its own.
        let opened = SnapshotCache.open(path: snapshotPath, identity: identity)
        let moved = walk.flatMap { walk in opened?.moved(since: walk.files, folders: walk.folders) }
        self.moved = moved
        snapshot = opened.map { opened in Background { opened.decoding() } }
        captions = Background { CaptionCache.load(path: captionsPath, identity: identity) }
        updatesByWalk = Self.updatesByWalk(moved, files: walk?.files)
        if !updatesByWalk { startDocuments() }
    }

    /// Whether a read will likely take the kept snapshot by its walk (`moved` files, none of
    /// them but a tweet or a like, few enough), and so not need the document cache.
    private static func updatesByWalk(_ moved: [Int]?, files: StoreFileStamps?) -> Bool {
        guard let moved, let files, !CacheFile.isWorthRewriting(drift: moved.count, live: files.count) else {
            return false
        }
        return moved.allSatisfy { position in
            let kind = DocumentKind(file: files.relativePath(at: position))
            return kind == .tweet || kind == .like
        }
    }

    private func startDocuments() {
        let (path, identity) = (documentsPath, identity)
        documents = Background { DocumentCache.load(path: path, identity: identity, writer: CacheFile.writer) }
    }

    /// `DocumentCache.load`'s result (waits for it, or loads it now if not started); once.
    func takeDocuments() -> DocumentCache? {
        if !documentsTaken, documents == nil { startDocuments() }
        documentsTaken = true
        return Self.take(&documents)
    }

    /// Whether the kept snapshot is decoded, or there is none to decode (waits for nothing).
    var snapshotIsDecoded: Bool { snapshot?.isDone ?? true }

    /// `SnapshotCache.open`'s result, its snapshot decoded (waits for it); once.
    func takeSnapshot() -> SnapshotCache? { Self.take(&snapshot) }

    /// `CaptionCache.load`'s result (waits for it); once.
    func takeCaptions() -> CaptionCache? { Self.take(&captions) }

    private static func take<Value>(_ slot: inout Background<Value?>?) -> Value? {
        defer { slot = nil }
        return slot?.value ?? nil
    }
}
