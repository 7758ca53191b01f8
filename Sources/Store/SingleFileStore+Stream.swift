import JSON
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SingleFileStore {
    /// Documents decoded before they are handed to `transform` together, on all cores.
    static let streamBatch = 4096

    /// The bytes read at a time: few reads for a file of gigabytes, and a buffer small beside
    /// the documents it holds (it grows only for a value larger than it).
    static let readChunk = 1 << 20

    /// Reads a node-firestore-import-export file (`{"__collections__": {…}, …}`, the key
    /// first) with a `JSONReader`: each top-level document, with its subcollections, is
    /// parsed, decoded and turned into `T`s before the next is read, so neither the file
    /// nor its JSON tree is ever held whole. Nil when the file is something else (another
    /// format, or a second `__collections__`, whose last one counts) or hostile (two
    /// top-level documents with one path, an ID holding NUL): the caller then reads it
    /// whole, as before.
    ///
    /// The results and errors are those of `readWhole`: the first invalid JSON in the file
    /// wins over a decoding error found before it, so after one the rest is only parsed.
    ///
    /// The order is `PathOrder`'s, found in two steps with a key per top-level document
    /// only: each top-level document's group (it and the documents below it) is put in
    /// order when it is read, then the groups are put in the order of their top-level paths
    /// (a path's descendants sort right after it and before any other path that follows it).
    static func readStreaming<T>(
        file: String, chunk: Int = readChunk, transform: @Sendable (Document) -> T
    ) throws(StoreError)
        -> (format: StoreFormat, values: [T], missingParents: [DocumentPath])?
    {
        // Room for the values of a file of generated documents (~110 bytes each), so the
        // array rarely grows (a copy, the old and new in memory together); room not used
        // costs address space only.
        var size = stat()
        let expected = stat(file, &size) == 0 ? min(Int(size.st_size) / 100, Int(Int32.max)) : 0
        var values: [T] = []
        values.reserveCapacity(expected)
        guard
            let groups = try stream(
                file: file, chunk: chunk, transform: transform, take: { values.append(contentsOf: $0) },
                keepGroups: true)
        else { return nil }
        // Each group's values, in the groups' order, in place.
        var order: [Int] = []
        order.reserveCapacity(values.count)
        var missing: [DocumentPath] = []
        for group in groups {
            order.append(contentsOf: group.start..<(group.start + group.count))
            missing.append(contentsOf: group.missing)
        }
        values.rearrange(takingFrom: &order)
        return (.nodeFirestoreImportExport, values, missing)
    }

    /// `readStreaming` for a caller to whom the order does not matter: the values are handed
    /// to `take` in batches as they are decoded, in the file's order, so that they are never
    /// all held here. False when the file cannot be streamed (see `readStreaming`); `take`
    /// may have been given values by then, which the caller discards before reading the
    /// file whole.
    static func streamUnordered<T>(
        file: String, chunk: Int = readChunk, transform: @Sendable (Document) -> T, take: (consuming [T]) -> Void
    ) throws(StoreError) -> Bool {
        try stream(file: file, chunk: chunk, transform: transform, take: take, keepGroups: false) != nil
    }

    /// Parses and decodes the file, handing the values to `take` in batches in the file's
    /// order; returns the groups (`keepGroups`, else none) in the order of their top-level
    /// paths, or nil when the file cannot be streamed.
    private static func stream<T>(
        file: String, chunk: Int, transform: @Sendable (Document) -> T, take: (consuming [T]) -> Void,
        keepGroups: Bool
    ) throws(StoreError) -> [Group]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { throw .notFound(path: file) }
            throw .unreadable(path: file, reason: errnoText())
        }
        defer { close(fd) }
        let failure = ReadFailure()
        var reader = JSONReader(chunk: chunk) { buffer in
            while true {
                let n = posixRead(fd, buffer.baseAddress, buffer.count)
                if n >= 0 { return n }
                if errno != EINTR {
                    failure.code = errno
                    return 0
                }
            }
        }
        var size = stat()
        let expected = fstat(fd, &size) == 0 ? min(Int(size.st_size) / 100, Int(Int32.max)) : 0
        var decoder = SingleFileDecoder(file: file)
        var batch: [Document] = []
        var taken = 0
        var groups: [Group] = []
        var groupKeys = PathOrder.Collector(capacity: expected / 4)
        var pending: StoreError?
        func flush() {
            taken += batch.count
            take(batch.parallelMap(transform))
            batch.removeAll(keepingCapacity: true)
        }
        /// The documents decoded from the top-level document `path`, in order, to the batch.
        func group(_ path: DocumentPath) {
            let first = decoder.taken
            var documents = decoder.takeDocuments()
            var missing: [DocumentPath] = []
            let holders = decoder.holders.isEmpty ? [] : Array(decoder.holders[first..<decoder.taken])
            if documents.count > 1 || holders.contains(true) {
                missing = PathOrder.arrange(&documents, holders: holders)
            }
            groupKeys.append(path.segments, holder: false)
            if keepGroups {
                groups.append(Group(start: taken + batch.count, count: documents.count, missing: missing))
            }
            batch.append(contentsOf: documents)
            if batch.count >= streamBatch { flush() }
        }
        do throws(JSONError) {
            let streamable = try walkCollections(&reader, file: file, pending: &pending) {
                (path, body) throws(StoreError) in
                try decoder.nodeDocument(path, body)
                group(path)
            }
            guard streamable else { return nil }
        } catch {
            if failure.code != 0 { throw .unreadable(path: file, reason: errnoText(failure.code)) }
            throw .invalidJSON(file: file, error: error)
        }
        if failure.code != 0 { throw .unreadable(path: file, reason: errnoText(failure.code)) }
        if let pending { throw pending }
        flush()
        if groupKeys.segmentHasNUL { return nil }
        var none: [DocumentPath] = []
        if keepGroups {
            _ = groupKeys.arrange(&groups, &none)  // top-level paths: no ancestors
        } else {
            var keys = [Int32](repeating: 0, count: groupKeys.count)
            _ = groupKeys.arrange(&keys, &none)  // only to learn whether the paths are distinct
        }
        if !groupKeys.distinct { return nil }
        return groups
    }

    /// Walks the text `{"__collections__": {name: {id: document, …}, …}, …}`, handing each
    /// top-level document to `document` until a problem is found (kept in `pending`; the rest
    /// is only parsed). False when the text is not such a file, or names `__collections__`
    /// twice.
    private static func walkCollections(
        _ reader: inout JSONReader, file: String, pending: inout StoreError?,
        document: (DocumentPath, JSONValue) throws(StoreError) -> Void
    ) throws(JSONError) -> Bool {
        try reader.beginText()
        guard try reader.peek() == UInt8(ascii: "{") else { return false }
        try reader.beginObject()
        guard try reader.nextKey() == "__collections__", try reader.peek() == UInt8(ascii: "{") else { return false }
        try reader.beginObject()
        while let name = try reader.nextKey() {
            guard try reader.peek() == UInt8(ascii: "{") else {
                let docs = try reader.readValue()
                pending =
                    pending
                    ?? .malformed(
                        file: file, location: "collection \(name)",
                        detail: "expected an object of documents, found \(docs.kindDescription)")
                continue
            }
            try reader.beginObject()
            while let id = try reader.nextKey() {
                let body = try reader.readValue()
                guard pending == nil else { continue }
                do throws(StoreError) {
                    try document(DocumentPath([name, id]), body)
                } catch {
                    pending = error
                }
            }
        }
        while let key = try reader.nextKey() {
            if key == "__collections__" { return false }
            _ = try reader.readValue()
        }
        try reader.endText()
        return true
    }
}

/// One top-level document and those below it, in order: where their values are, and the
/// missing parents among them.
private struct Group {
    var start: Int
    var count: Int
    var missing: [DocumentPath]
}

/// The errno of a failed read, set by the reader's fill closure.
private final class ReadFailure {
    var code: Int32 = 0
}
