// Fuzz target `store-reader`: bytes → JSONParser.parse → the store's conversions.
// Compiled into the Store module (see build.sh), so internal helpers are reachable.
// Everything is in memory: SingleFileStore.decode takes parsed JSON, and a directory
// store document is `Fields(json:)` of a top-level object (what DirectoryStore.readOne does).
import JSON

@inline(never)
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("store-reader: " + message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let json: JSONValue
    do {
        json = try JSONParser.parse(bytes)
    } catch {
        // Error positions must lie inside the input (offset == size for "unexpected end").
        check(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside 0...\(size)")
        check(error.line >= 1 && error.column >= 1, "error position \(error.line):\(error.column)")
        _ = error.description
        return 0
    }

    // JSONWriter output parses back to the same value (pretty and compact).
    for pretty in [true, false] {
        let written = JSONWriter.write(json, pretty: pretty)
        do {
            let again = try JSONParser.parse(written)
            check(again == json, "JSON round trip (pretty: \(pretty)) changed the value")
        } catch {
            check(false, "JSONWriter output does not parse (pretty: \(pretty)): \(error)")
        }
    }

    // A directory-store document: a top-level object, plain JSON values.
    if case .object(let pairs) = json {
        let fields = Fields(json: pairs)
        check(fields.count == pairs.count, "Fields(json:) lost pairs")
        check(DirectoryStoreWriter.jsonObject(fields) == json, "plain JSON → fields → JSON is not the identity")
    }

    // A single-file store: format detection and conversion.
    do {
        let (format, documents) = try SingleFileStore.decode(json, file: "fuzz.json")
        check(format.isSingleFile, "decode returned the directory format")
        _ = format.description
        for k in documents.indices.dropFirst() {
            check(!(documents[k].path < documents[k - 1].path), "documents not sorted by path")
        }
        let missing = DocumentStore.missingParents(of: documents)
        _ = DocumentStore(documents: documents, format: format, path: "fuzz.json", missingParents: missing)
        for d in documents {
            check(!d.path.segments.isEmpty, "document with an empty path")
            _ = d.path.description
            // What `roost import` would write must be JSON that parses back.
            let object = DirectoryStoreWriter.jsonObject(d.fields)
            do { _ = try JSONParser.parse(JSONWriter.write(object)) } catch {
                check(false, "written document \(d.path) does not parse: \(error)")
            }
            for (_, value) in d.fields { checkTimestamps(value) }
        }
    } catch {
        _ = error.description
    }
    return 0
}

/// Timestamps that RFC 3339 can write parse back to themselves.
private func checkTimestamps(_ value: Value) {
    switch value {
    case .timestamp(let t):
        if let s = RFC3339.format(t) {
            check(
                RFC3339.parse(s) == t,
                "RFC3339 round trip: \(t.seconds)s \(t.nanoseconds)ns → \(s) → \(String(describing: RFC3339.parse(s)))")
        }
    case .array(let values):
        for v in values { checkTimestamps(v) }
    case .map(let fields):
        for (_, v) in fields { checkTimestamps(v) }
    default:
        break
    }
}
