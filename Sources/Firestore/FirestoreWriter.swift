import JSON
import Store

/// Writing documents into the database (`roost import … --to firestore://…`, SPEC 11): in
/// commits of at most 500 writes, the limit of a production commit.
package struct FirestoreWriter: Sendable {
    package static let writesPerCommit = 500

    package let client: FirestoreClient

    package init(_ client: FirestoreClient) { self.client = client }

    /// Writes `documents` (each set whole, replacing what is there); `progress` is told the
    /// number written after each commit. Every document is encoded before the first commit,
    /// so a value Firestore cannot store writes nothing.
    package func write(_ documents: [Document], progress: (Int) -> Void = { _ in }) throws(StoreError) {
        try write(encoded(documents), progress: progress)
    }

    /// The writes of `documents`, each checked: a value, a field name or an ID Firestore
    /// would refuse is an error naming the document and field, before anything is written.
    package func encoded(_ documents: [Document]) throws(StoreError) -> EncodedWrites {
        let root = client.endpoint.address.documentsRoot
        var writes: [JSONValue] = []
        writes.reserveCapacity(documents.count)
        for document in documents {
            if let segment = document.path.segments.first(where: RESTValueEncoding.isReservedID) {
                throw .unsafeDocumentPath(
                    document: document.path.description, segment: segment,
                    reason: "is an ID of the form __name__, which Firestore reserves")
            }
            do throws(RESTValueEncoding.Refusal) {
                let fields = try RESTValueEncoding.fields(document.fields, root: root)
                writes.append(
                    .object([
                        (
                            "update",
                            .object([
                                ("name", .string(RESTDocument.name(of: document.path, root: root))), ("fields", fields),
                            ])
                        )
                    ]))
            } catch {
                throw .invalidRESTValue(
                    file: document.source, document: document.path.description, field: error.field, detail: error.detail
                )
            }
        }
        return EncodedWrites(writes: writes)
    }

    /// Documents encoded for a commit (`encoded`).
    package struct EncodedWrites: Sendable {
        fileprivate let writes: [JSONValue]
        package var count: Int { writes.count }
    }

    /// Writes what `encoded` made, in commits.
    package func write(_ encoded: EncodedWrites, progress: (Int) -> Void = { _ in }) throws(StoreError) {
        try commit(encoded.writes, progress: progress)
    }

    /// Deletes every document of the four collection groups (`--force`); returns how many.
    package func deleteGroups() throws(StoreError) -> Int {
        let readTime: String
        do {
            readTime = try client.readTime()
        } catch {
            throw .unavailable(error)
        }
        let root = client.endpoint.address.documentsRoot
        var names: [String] = []
        for group in FirestoreSource.groups {
            // Names alone, paged as a read is.
            let read = CollectionGroupRead(
                client: client, group: group, readTime: readTime, pageSize: 1000, namesOnly: true)
            _ = try read.run { page throws(StoreError) in
                names += page.map { RESTDocument.name(of: $0.path, root: root) }
            }
        }
        try commit(names.map { .object([("delete", .string($0))]) }, progress: { _ in })
        return names.count
    }

    private func commit(_ writes: [JSONValue], progress: (Int) -> Void) throws(StoreError) {
        var done = 0
        while done < writes.count {
            let batch = writes[done..<min(writes.count, done + Self.writesPerCommit)]
            let body = JSONWriter.write(.object([("writes", .array(Array(batch)))]), pretty: false)
            do {
                _ = try client.call(":commit", body: body)
            } catch {
                throw .unavailable(error)
            }
            done += batch.count
            progress(done)
        }
    }
}
