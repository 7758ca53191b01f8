/// Where a document lives: alternating collection and document IDs,
/// `users/u1/user-likes/t9` is `["users", "u1", "user-likes", "t9"]`.
package struct DocumentPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let segments: [String]

    /// - Precondition: an even, non-zero number of segments.
    package init(_ segments: [String]) {
        precondition(!segments.isEmpty && segments.count % 2 == 0, "a document path has collection/ID pairs")
        self.segments = segments
    }

    /// `"users/u1"` → `["users", "u1"]`; nil unless it has an even, non-zero number of non-empty segments.
    package init?(string: String) {
        let parts = string.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.count % 2 == 0, !parts.contains(where: \.isEmpty) else { return nil }
        self.segments = parts
    }

    /// The document's ID: the last segment.
    package var id: String { segments[segments.count - 1] }
    /// The collection the document is in: `users/u1/user-likes` for a like.
    package var collection: String { segments.dropLast().joined(separator: "/") }
    /// The document that holds this one's collection, if any: `users/u1` for a like.
    package var parent: DocumentPath? {
        segments.count > 2 ? DocumentPath(Array(segments.dropLast(2))) : nil
    }

    package var description: String { segments.joined(separator: "/") }

    package static func < (lhs: DocumentPath, rhs: DocumentPath) -> Bool {
        lhs.segments.lexicographicallyPrecedes(rhs.segments)
    }
}

/// One document: its path and its fields.
package struct Document: Sendable, Equatable {
    package var path: DocumentPath
    package var fields: Fields
    /// The file the document was read from, for error messages.
    package var source: String

    package init(path: DocumentPath, fields: Fields, source: String) {
        self.path = path
        self.fields = fields
        self.source = source
    }
}
