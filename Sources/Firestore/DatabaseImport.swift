import Store

/// A store written into a database (`roost import SOURCE --to firestore://…`, `roost
/// generate --to firestore://…`): refused before anything is read when the database is
/// Cloud Firestore itself and `production` is not set; with `force`, the four collection
/// groups' documents are deleted first.
package struct DatabaseImport: Sendable {
    package let writer: FirestoreWriter

    /// The database `location` names, checked for the write (see the type).
    package init(
        to location: String, production: Bool, environment: [String: String] = ProcessEnvironment.current
    ) throws(StoreError) {
        let endpoint: FirestoreEndpoint
        do {
            endpoint = try FirestoreEndpoint.resolve(try FirestoreAddress.parse(location), environment: environment)
        } catch {
            throw .unavailable(error)
        }
        try FirestoreWriter.check(endpoint, production: production)
        writer = FirestoreWriter(FirestoreClient(endpoint))
    }

    package var database: String { writer.client.database }

    /// What a write did.
    package struct Outcome: Sendable {
        package var deleted: Int
        package var written: Int
    }

    /// Writes `store`'s documents; `progress` is told the number written after each commit.
    package func write(_ store: DocumentStore, force: Bool, progress: (Int) -> Void = { _ in }) throws(StoreError)
        -> Outcome
    {
        let deleted = force ? try writer.deleteGroups() : 0
        try writer.write(store.documents, progress: progress)
        return Outcome(deleted: deleted, written: store.documents.count)
    }
}
