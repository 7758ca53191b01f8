/// One change a source reported while followed (`DocumentSource.follow`): what changed, and how.
package struct SourceChange: Equatable, Sendable, CustomStringConvertible {
    package enum Target: Equatable, Sendable {
        /// One document's entry: read it again (`documents(inEntry:)`; none: it was deleted).
        case document(DocumentPath, entry: String)
        /// A folder of the store (relative to it), created or removed: the documents under
        /// it cannot be followed one by one, so the store is read again (when removed, only
        /// if documents were read from under it).
        case folder(String)
        /// The whole store (the export file written again): read it again.
        case store
        /// A document as the source now has it, nil when deleted: a database's listen stream
        /// sends documents, not entries to read again.
        case received(DocumentPath, Document?)
        /// Every document the source follows, as it now is (the first consistent state of a
        /// database's stream): any other is gone.
        case everything([Document])
        /// The source cannot be followed for now (why, and what it is doing about it): what
        /// is shown is older than the store until a batch with `resumed`.
        case interrupted(String)
        /// Followed again, and caught up: the batch holds what changed meanwhile.
        case resumed
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
        case .received(let path, _): "\(path) \(kind)"
        case .everything(let documents): "\(documents.count) documents"
        case .interrupted(let why): "interrupted: \(why)"
        case .resumed: "resumed"
        }
    }
}

extension SourceChange {
    /// A change only a database's listen stream reports (a document sent, the stream's state).
    package var isDatabaseStep: Bool {
        switch target {
        case .received, .everything, .interrupted, .resumed: true
        case .document, .folder, .store: false
        }
    }
}
