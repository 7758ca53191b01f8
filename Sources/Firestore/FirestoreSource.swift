import Dispatch
import JSON
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The database itself as a document source (SPEC 11): every document of the four collection
/// groups Roost reads, at one read time taken at the start, so the site is one consistent
/// snapshot while the app writes. Its one entry is the whole database: it has no stamp to
/// know it by without reading it (each build reads it; the pages whose inputs did not change
/// are still not rendered again).
package struct FirestoreSource: WholeStoreSource {
    /// The groups read, at any depth (SPEC 2.1): `user-likes` are below `users`, and
    /// `favorites/{uid}/favorites/{placeId}` below a "missing" `favorites/{uid}`.
    package static let groups = ["users", "user-likes", "tweets", "favorites"]

    package let client: FirestoreClient
    /// Documents a page: a bound on every answer. The emulator scans a whole group for each
    /// page, whatever its cursor, so pages are large (docs/benchmarks.md has the series).
    /// Production answers stream, and cost the same by the document whatever their size.
    package let pageSize: Int
    /// Groups read at once: the emulator answers four at once faster than one after another.
    package let parallelGroups: Int
    /// Documents read so far by this source (Firestore bills by them).
    private let counter = DocumentCount()
    /// Told the count after each page (a progress line).
    private var progress: (@Sendable (Int) -> Void)?

    /// The targets `follow` listens to.
    package let listenPlan: ListenPlan

    package init(
        _ client: FirestoreClient, pageSize: Int = 100_000, parallelGroups: Int = 4, listenPlan: ListenPlan? = nil
    ) {
        self.client = client
        self.listenPlan = listenPlan ?? .default(for: client.endpoint)
        self.pageSize = max(1, pageSize)
        self.parallelGroups = max(1, parallelGroups)
    }

    /// The same source, telling `progress` the documents read so far after each page.
    package func reporting(_ progress: @escaping @Sendable (Int) -> Void) -> FirestoreSource {
        var copy = self
        copy.progress = progress
        return copy
    }

    package var location: String { client.database }
    /// Documents read by the reads of this source so far.
    package var documentsRead: Int { counter.value }

    /// The database's collections, to tell one that holds none of Roost's (SPEC 13).
    package func checkShape() throws(StoreError) {
        let ids: [String]
        do {
            ids = try collectionIDs()
        } catch {
            throw .unavailable(error)
        }
        if ids.isEmpty { throw .unavailable(FirestoreError.empty(database: location)) }
        if let problem = StoreShape.roostProblem(store: location, collections: Set(ids)) { throw problem }
    }

    /// Never the same as a build before: a database has no stamp to tell it did not change
    /// short of reading it.
    package func stamp(recording: Bool) throws(StoreError) -> StoreStamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let time = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return StoreStamp(
            digest: UInt64(bitPattern: time) ^ UInt64.random(in: 0...UInt64.max), newest: time, entries: 0)
    }

    package func stamp(ofEntry entry: String) -> FileStamp? { nil }

    package func read<T>(
        stamps: StoreFileStamps.Index?, reusing: (@Sendable (String, FileStamp) -> T?)?,
        transform: @escaping @Sendable (Document, FileStamp?) -> T
    ) throws(StoreError) -> SourceRead<T> {
        var values: [T] = []
        var paths: [DocumentPath] = []
        _ = try readPages { documents in
            for document in documents {
                paths.append(document.path)
                values.append(transform(document, nil))
            }
        }
        let missing = DocumentStore.arrange(&values, paths: &paths)
        return SourceRead(values: values, missingParents: missing, ignored: [], folders: nil, format: .firestore)
    }

    package func read<T>(
        transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        _ = try readPages { documents in take(documents.map(transform)) }
        return .firestore
    }

    package func readStore() throws(StoreError) -> DocumentStore {
        var documents: [Document] = []
        _ = try readPages { documents += $0 }
        let missing = DocumentStore.arrange(&documents)
        return DocumentStore(documents: documents, format: .firestore, path: location, missingParents: missing)
    }

    /// Follows the database through its listen stream (`DatabaseListener`): each consistent
    /// step at once (`debounce` is the stream's own), the first the whole database. A database
    /// that cannot be reached now is retried until it can.
    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) -> any ChangeFollowing {
        let listener = DatabaseListener(endpoint: client.endpoint, plan: listenPlan, onChange: onChange)
        listener.start()
        return listener
    }

    // MARK: Reading

    /// Every page of every group at one read time, each page's documents handed to `take` on
    /// this thread, in no particular order; returns the read time.
    package func readPages(_ take: ([Document]) -> Void) throws(StoreError) -> String {
        let readTime: String
        do {
            readTime = try client.readTime()
        } catch {
            throw .unavailable(error)
        }
        let reads = Self.groups.map {
            CollectionGroupRead(client: client, group: $0, readTime: readTime, pageSize: pageSize)
        }
        func handOn(_ page: [Document]) {
            counter.add(page.count)
            progress?(counter.value)
            take(page)
        }
        if parallelGroups == 1 {
            for read in reads { _ = try read.run { page throws(StoreError) in handOn(page) } }
            return readTime
        }
        // Groups on threads of their own; pages handed back to this one through a queue.
        let pages = PageQueue(producers: reads.count)
        let limit = DispatchSemaphore(value: parallelGroups)
        for read in reads {
            DispatchQueue.global().async {
                limit.wait()
                defer { limit.signal() }
                do throws(StoreError) {
                    _ = try read.run { page throws(StoreError) in pages.put(page) }
                    pages.finish(nil)
                } catch {
                    pages.finish(error)
                }
            }
        }
        while let page = pages.next() { handOn(page) }
        if let error = pages.firstError { throw error }
        return readTime
    }

    /// The IDs of the database's top collections.
    func collectionIDs() throws(FirestoreError) -> [String] {
        var ids: [String] = []
        var token: String?
        repeat {
            var request: [(key: String, value: JSONValue)] = [("pageSize", .integer(300))]
            if let token { request.append(("pageToken", .string(token))) }
            let body = try client.call(":listCollectionIds", body: JSONWriter.write(.object(request), pretty: false))
            guard let json = try? JSONParser.parse(body), case .object = json else {
                throw .badResponse(
                    database: client.database, detail: "listCollectionIds: \(GoogleErrorAnswer.excerpt(body))")
            }
            ids += (json["collectionIds"]?.arrayValue ?? []).compactMap(\.stringValue)
            token = json["nextPageToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        return ids.sorted()
    }
}

/// A count shared by the threads of a read.
private final class DocumentCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add(_ n: Int) { count.add(n, ordering: .relaxed) }
}
