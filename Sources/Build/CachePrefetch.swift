import Support

/// The build cache's files that a rebuild reads whatever changed, each read on a thread of its
/// own (`Background`) as soon as the build knows it has work to do: the document cache, the
/// kept snapshot (decoded), the caption cache. Read in turn, each left a core idle in parts
/// of its work. Each is then used only as its own checks allow, as when read in turn; when the
/// snapshot cannot be taken, decoding it was for nothing.
///
/// Each is taken once, by the step that reads it: from then on that step alone holds it, and
/// what is not taken is let go with this (the kept snapshot, decoded, is tens of megabytes).
final class CachePrefetch {
    private var documents: Background<DocumentCache?>?
    private var snapshot: Background<SnapshotCache?>?
    private var captions: Background<CaptionCache?>?

    init(folder: String, identity: StoreIdentity) {
        let documentsPath = DocumentCache.path(folder: folder, identity: identity)
        let snapshotPath = SnapshotCache.path(folder: folder, identity: identity)
        let captionsPath = CaptionCache.path(folder: folder, identity: identity)
        documents = Background {
            DocumentCache.load(path: documentsPath, identity: identity, writer: CacheFile.writer)
        }
        snapshot = Background { SnapshotCache.open(path: snapshotPath, identity: identity, decoding: true) }
        captions = Background { CaptionCache.load(path: captionsPath, identity: identity) }
    }

    /// `DocumentCache.load`'s result (waits for it); once.
    func takeDocuments() -> DocumentCache? { Self.take(&documents) }

    /// `SnapshotCache.open`'s result, its snapshot decoded (waits for it); once.
    func takeSnapshot() -> SnapshotCache? { Self.take(&snapshot) }

    /// `CaptionCache.load`'s result (waits for it); once.
    func takeCaptions() -> CaptionCache? { Self.take(&captions) }

    private static func take<Value>(_ slot: inout Background<Value?>?) -> Value? {
        defer { slot = nil }
        return slot?.value ?? nil
    }
}
