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

    /// Reads a node-firestore-import-export file (`{"__collections__": {…}, …}`, the key
    /// first) with a `JSONReader`: each top-level document, with its subcollections, is
    /// parsed, decoded and turned into a `T` before the next is read, so neither the file
    /// nor its JSON tree is ever held whole. Nil when the file is something else (another
    /// format, or a second `__collections__`, whose last one counts): the caller then reads
    /// it whole, as before.
    ///
    /// The results and errors are those of `readWhole`: the first invalid JSON in the file
    /// wins over a decoding error found before it, so after one the rest is only parsed.
    static func readStreaming<T>(file: String, transform: @Sendable (Document) -> T) throws(StoreError)
        -> (format: StoreFormat, values: [T], missingParents: [DocumentPath])?
    {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { throw .notFound(path: file) }
            throw .unreadable(path: file, reason: errnoText())
        }
        defer { close(fd) }
        let failure = ReadFailure()
        var reader = JSONReader { buffer in
            while true {
                let n = posixRead(fd, buffer.baseAddress, buffer.count)
                if n >= 0 { return n }
                if errno != EINTR {
                    failure.code = errno
                    return 0
                }
            }
        }
        var decoder = SingleFileDecoder(file: file)
        // The values in batches, joined at the end: one array grown by doubling would be
        // copied whole, the old and the new one in memory together.
        var batches: [[T]] = []
        // Room for the keys of a file of generated documents (~110 bytes each): unused room
        // costs address space only.
        var size = stat()
        var keys = PathOrder.Collector(capacity: fstat(fd, &size) == 0 ? Int(size.st_size) / 100 : 0)
        var pending: StoreError?
        func flush() {
            let batch = decoder.takeDocuments()
            let first = keys.count
            for (k, document) in batch.enumerated() {
                keys.append(document.path.segments, holder: decoder.holders.isEmpty ? false : decoder.holders[first + k])
            }
            batches.append(batch.parallelMap(transform))
        }
        do throws(JSONError) {
            try reader.beginText()
            guard try reader.peek() == UInt8(ascii: "{") else { return nil }
            try reader.beginObject()
            guard try reader.nextKey() == "__collections__", try reader.peek() == UInt8(ascii: "{") else { return nil }
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
                        try decoder.nodeDocument(DocumentPath([name, id]), body)
                    } catch {
                        pending = error
                    }
                    if decoder.documents.count >= streamBatch { flush() }
                }
            }
            while let key = try reader.nextKey() {
                if key == "__collections__" { return nil }
                _ = try reader.readValue()
            }
            try reader.endText()
        } catch {
            if failure.code != 0 { throw .unreadable(path: file, reason: errnoText(failure.code)) }
            throw .invalidJSON(file: file, error: error)
        }
        if failure.code != 0 { throw .unreadable(path: file, reason: errnoText(failure.code)) }
        if let pending { throw pending }
        flush()
        if keys.segmentHasNUL { return nil }  // hostile IDs: `PathOrder` needs the paths
        var values: [T] = []
        values.reserveCapacity(keys.count)
        for k in batches.indices {
            values.append(contentsOf: batches[k])
            batches[k] = []
        }
        var none: [DocumentPath] = []
        let missing = keys.arrange(&values, &none)
        return (.nodeFirestoreImportExport, values, missing)
    }
}

/// The errno of a failed read, set by the reader's fill closure.
private final class ReadFailure {
    var code: Int32 = 0
}
