/// One query a listen stream follows (google/firestore/v1/firestore.proto, `Target`): the
/// stream reports its documents, then their changes. Paths are relative to the database's
/// documents (`users/u1`, `""` for the root).
package struct ListenTarget: Sendable, Hashable {
    package enum Query: Sendable, Hashable {
        /// Every document of the collection `id` directly under `parent` (`user-likes` under
        /// `users/u1`; `tweets` under `""`).
        case collection(parent: String, id: String)
        /// The documents of that collection whose string field `field` equals `value`.
        case fieldEquals(parent: String, id: String, field: String, value: String)
        /// Every document of the collection group `id`, at any depth (`allDescendants`).
        case collectionGroup(id: String)
    }

    /// Chosen by the client, unique on its stream, never 0.
    package var id: Int32
    package var query: Query
    /// Where the target last stood (`TargetChange.resumeToken`): sent again on reconnecting.
    package var resumeToken: [UInt8]

    package init(id: Int32, query: Query, resumeToken: [UInt8] = []) {
        self.id = id
        self.query = query
        self.resumeToken = resumeToken
    }
}
