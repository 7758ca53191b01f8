import Store
import Support

#if canImport(Glibc)
import Glibc
#endif

/// Reads every document of an export: its output files one after another, each file's
/// records checked in one pass and decoded on all cores. Damage anywhere is an error naming
/// the file and byte, and a kind whose files hold fewer documents or bytes than its metadata
/// counted (a file cut at a record's end, say) is one too: never a smaller site.
enum ExportReader {
    /// Records decoded together on one core: enough that handing out work costs little.
    static let recordsPerTask = 64

    /// Every document of `layout`, each turned into a `T` on the core that decoded it, handed
    /// to `take` in batches as each output file is decoded.
    static func read<T>(
        _ layout: ExportLayout, transform: @escaping @Sendable (Document) -> T, take: (consuming [T]) -> Void
    ) throws(StoreError) {
        for kind in layout.kinds {
            var documents = 0
            var bytes = 0
            for output in kind.outputs {
                let file = try contents(of: output, listedIn: kind.metadata)
                bytes += file.count
                for batch in try decode(file, path: output, transform: transform) {
                    documents += batch.count
                    take(batch)
                }
            }
            try check(kind, documents: documents, bytes: bytes)
        }
    }

    private static func contents(of output: String, listedIn metadata: String) throws(StoreError) -> [UInt8] {
        switch readWholeFile(output, regularOnly: true) {
        case .success(let bytes):
            return bytes
        case .failure(let error) where error.code == ENOENT:
            throw .incompleteExport(
                path: output, detail: "missing (\(ExportLayout.lastComponent(metadata)) lists it as an output file)")
        case .failure(let error):
            throw .unreadable(path: output, reason: error.text)
        }
    }

    /// What one core made of a run of records: their values, or the first that failed.
    private enum Batch<T> {
        case values([T])
        case failure(record: Int, ExportDamage)
    }

    /// The documents of the output file `path` (its bytes `file`), made `T`s, in batches (one
    /// per run of records decoded together: handing them on as they are copies no value).
    private static func decode<T>(_ file: [UInt8], path: String, transform: @escaping @Sendable (Document) -> T)
        throws(StoreError) -> [[T]]
    {
        let records: [LogRecord]
        do {
            records = try LevelDBLog.records(in: file)
        } catch {
            throw .damagedExport(file: path, offset: error.offset, document: error.document, detail: error.detail)
        }
        let runs = (records.count + recordsPerTask - 1) / recordsPerTask
        let batches = [Batch<T>](parallelCount: runs) { run in
            let range = (run * recordsPerTask)..<min(records.count, (run + 1) * recordsPerTask)
            var values: [T] = []
            values.reserveCapacity(range.count)
            for k in range {
                let decoded = records[k].payload.withUnsafeBytes { raw in
                    Result { () throws(ExportDamage) in try EntityDecoder.document(raw, source: path) }
                }
                switch decoded {
                case .success(let document): values.append(transform(document))
                case .failure(let damage): return .failure(record: k, damage)
                }
            }
            return .values(values)
        }
        var values: [[T]] = []
        values.reserveCapacity(batches.count)
        for batch in batches {
            switch batch {
            case .values(let run):
                values.append(run)
            case .failure(let k, let damage):
                throw .damagedExport(
                    file: path, offset: records[k].fileOffset(ofByte: damage.offset), document: damage.document,
                    detail: damage.detail)
            }
        }
        return values
    }

    /// Throws unless `kind`'s files held what its metadata counted.
    private static func check(_ kind: ExportLayout.Kind, documents: Int, bytes: Int) throws(StoreError) {
        if let listed = kind.bytes, listed != bytes {
            throw .incompleteExport(
                path: kind.metadata,
                detail: "the export's metadata counts \(listed) bytes of output files, and they hold \(bytes): "
                    + "a file is cut or was written again")
        }
        if let listed = kind.documents, listed != documents {
            throw .incompleteExport(
                path: kind.metadata,
                detail: "the export's metadata counts \(listed) documents, and the output files hold \(documents)")
        }
    }
}
