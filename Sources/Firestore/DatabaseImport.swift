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
        do throws(FirestoreError) {
            let address = try FirestoreAddress.parse(location)
            // Said before credentials are looked for: without --production, they are not needed.
            guard FirestoreEndpoint.emulatorHost(in: environment) != nil || production else {
                throw .productionWriteNotAllowed(database: address.description)
            }
            endpoint = try FirestoreEndpoint.resolve(address, environment: environment)
        } catch {
            throw .unavailable(error)
        }
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
        // Every document checked before `force` deletes anything: a store Firestore would
        // refuse partway leaves the database as it was.
        let writes = try writer.encoded(store.documents)
        let deleted = force ? try writer.deleteGroups() : 0
        try writer.write(writes, progress: progress)
        return Outcome(deleted: deleted, written: store.documents.count)
    }
}
