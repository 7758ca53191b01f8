/// One change a source reported while followed (`DocumentSource.follow`): what changed, and how.
package struct SourceChange: Hashable, Sendable, CustomStringConvertible {
    package enum Target: Hashable, Sendable {
        /// One document's entry: read it again (`documents(inEntry:)`; none: it was deleted).
        case document(DocumentPath, entry: String)
        /// A folder of the store (relative to it), created or removed: the documents under
        /// it cannot be followed one by one, so the store is read again (when removed, only
        /// if documents were read from under it).
        case folder(String)
        /// The whole store (the export file written again): read it again.
        case store
    }

    package enum Kind: String, Sendable {
        case created, modified, deleted
    }

    package var target: Target
    package var kind: Kind

    package init(_ target: Target, _ kind: Kind) {
        self.target = target
        self.kind = kind
    }

    /// `tweets/t42 modified`, `users/u1/user-likes created`, `store modified`.
    package var description: String {
        switch target {
        case .document(let path, _): "\(path) \(kind)"
        case .folder(let folder): "\(folder) \(kind)"
        case .store: "store \(kind)"
        }
    }
}
