import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Single-file stores written by Firestore export tools (SPEC 2.2); the format is
/// recognised from the shape of the top-level value:
///
/// - an object with `__collections__` → node-firestore-import-export;
/// - an object whose `documents` is an array, or `{}` (what the REST API returns for an
///   empty list) → REST documents.list;
/// - an array whose elements have `document` or `readTime` → REST runQuery (elements
///   without `document` are skipped);
/// - any other array (of objects with `name`; `[]` included) → an array of REST documents;
/// - an object of objects of objects → firestore-export-import.
///
/// The documents come sorted as the directory store sorts them (see `PathOrder`); in
/// node-firestore-import-export an object holding only subcollections (Firestore's
/// "missing" document, such as `favorites/{uid}`) is not a document but a missing parent.
package enum SingleFileStore {
    package static func read(file: String) throws(StoreError) -> DocumentStore {
        let (format, documents, missingParents) = try read(file: file, transform: { $0 })
        return DocumentStore(documents: documents, format: format, path: file, missingParents: missingParents)
    }

    /// Reads the single-file store `file` and turns each document into a `T` (on all cores),
    /// the results sorted by document path, with the store's format and missing parents (see
    /// `decodeStore`). A node-firestore-import-export file is decoded while it is parsed
    /// (`readStreaming`), so its JSON is never in memory whole; other files, and files that
    /// are not what they first look like, are parsed whole (`readWhole`).
    package static func read<T>(file: String, transform: @Sendable (Document) -> T) throws(StoreError)
        -> (format: StoreFormat, values: [T], missingParents: [DocumentPath])
    {
        if let streamed = try readStreaming(file: file, transform: transform) { return streamed }
        let (format, documents, missingParents) = try readWhole(file: file)
        return (format, documents.parallelMap(transform), missingParents)
    }

    /// `read(file:transform:)` for a caller to whom the values' order does not matter (a
    /// snapshot): they are handed to `take` in batches as they are decoded, so that those of
    /// a large node-firestore-import-export file are never all held at once. `restart` is
    /// called before the file is read again whole (it did not stream to the end, see
    /// `readStreaming`): the values taken until then are to be dropped.
    package static func read<T>(
        file: String, transform: @Sendable (Document) -> T, take: (consuming [T]) -> Void, restart: () -> Void
    ) throws(StoreError) -> StoreFormat {
        if try streamUnordered(file: file, transform: transform, take: take) { return .nodeFirestoreImportExport }
        restart()
        let (format, documents, _) = try readWhole(file: file)
        take(documents.parallelMap(transform))
        return format
    }

    /// The file parsed into one tree, then decoded.
    static func readWhole(file: String) throws(StoreError) -> (StoreFormat, [Document], [DocumentPath]) {
        let buffer = ReadBuffer()
        let count: Int
        switch buffer.readFile(file, noFollow: false) {
        case .success(let c): count = c
        case .failure(let e):
            if e.code == ENOENT { throw .notFound(path: file) }
            throw .unreadable(path: file, reason: e.text)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(buffer.bytes(count: count))
        } catch {
            throw .invalidJSON(file: file, error: error)
        }
        return try decodeStore(json, file: file)
    }

    /// The documents of a parsed single-file store, sorted by path; `file` is used in
    /// error messages and as each document's `source`.
    package static func decode(_ json: JSONValue, file: String) throws(StoreError) -> (StoreFormat, [Document]) {
        let (format, documents, _) = try decodeStore(json, file: file)
        return (format, documents)
    }

    /// The documents of a parsed single-file store, sorted by path, and its missing parents
    /// (sorted): paths with documents below them but no document of their own, and
    /// node-firestore-import-export objects holding only subcollections.
    static func decodeStore(_ json: JSONValue, file: String) throws(StoreError)
        -> (StoreFormat, [Document], [DocumentPath])
    {
        let format: StoreFormat
        switch detect(json) {
        case .success(let f): format = f
        case .failure(let detail): throw .unrecognisedFormat(file: file, detail: detail.text)
        }
        var decoder = SingleFileDecoder(file: file)
        switch format {
        case .nodeFirestoreImportExport:
            try decoder.nodeCollections(json["__collections__"]!, parent: [], location: "__collections__")
        case .firestoreExportImport:
            for (name, docs) in json.objectPairs ?? [] {
                try decoder.exportCollection(segments: [name], docs)
            }
        case .restDocumentsList:
            for (k, doc) in (json["documents"]?.arrayValue ?? []).enumerated() {
                try decoder.restDocument(doc, location: "documents[\(k)]")
            }
        case .restRunQuery:
            for (k, entry) in (json.arrayValue ?? []).enumerated() {
                guard case .object = entry else {
                    throw .malformed(
                        file: file, location: "[\(k)]",
                        detail: "expected a runQuery result object, found \(entry.kindDescription)")
                }
                if let doc = entry["document"] {
                    try decoder.restDocument(doc, location: "[\(k)].document")
                }
            }
        case .restDocumentArray:
            for (k, doc) in (json.arrayValue ?? []).enumerated() {
                try decoder.restDocument(doc, location: "[\(k)]")
            }
        case .directory, .firestore, .exportFolder:
            break
        }
        var documents = decoder.takeDocuments()  // the only reference: sorted in place
        let missing = PathOrder.arrange(&documents, holders: decoder.holders)
        return (format, documents, missing)
    }

    struct Detail: Error { let text: String }

    /// The format the shape of `json` says, or why it matches none.
    static func detect(_ json: JSONValue) -> Result<StoreFormat, Detail> {
        switch json {
        case .object(let pairs):
            if let c = json["__collections__"] {
                if case .object = c { return .success(.nodeFirestoreImportExport) }
                return .failure(
                    Detail(text: "\"__collections__\" is \(c.kindDescription), expected an object of collections"))
            }
            if let d = json["documents"], case .array = d { return .success(.restDocumentsList) }
            if pairs.isEmpty { return .success(.restDocumentsList) }
            for (name, docs) in pairs {
                guard case .object(let docPairs) = docs else {
                    return .failure(
                        Detail(
                            text:
                                "top-level key \"\(name)\" holds \(docs.kindDescription), expected an object of documents"
                        ))
                }
                for (id, body) in docPairs {
                    guard case .object = body else {
                        return .failure(
                            Detail(text: "\"\(name)\".\"\(id)\" is \(body.kindDescription), expected a document object")
                        )
                    }
                }
            }
            return .success(.firestoreExportImport)
        case .array(let values):
            if values.contains(where: { $0["document"] != nil || $0["readTime"] != nil }) {
                return .success(.restRunQuery)
            }
            for (k, v) in values.enumerated() {
                guard case .object = v, case .string = v["name"] else {
                    return .failure(Detail(text: "array element [\(k)] is not a REST document with a \"name\""))
                }
            }
            return .success(.restDocumentArray)
        default:
            return .failure(Detail(text: "the top level is \(json.kindDescription)"))
        }
    }

    /// Strips `projects/P/databases/D/documents/` (and leading slashes) from a REST name or reference.
    package static func stripDatabasePrefix(_ name: String) -> String {
        splitDatabasePrefix(name).joined(separator: "/")
    }

    /// The segments of a REST name or reference after `projects/P/databases/D/documents/`
    /// (or after leading slashes when there is no such prefix).
    static func splitDatabasePrefix(_ name: String) -> [String] {
        let parts = splitSlashes(name)
        if parts.count >= 5, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" {
            return Array(parts[5...])
        }
        var k = 0
        while k < parts.count - 1 && parts[k].isEmpty { k += 1 }
        return k == 0 ? parts : Array(parts[k...])
    }
}

/// Turns the JSON of a single-file store into documents, one format at a time.
struct SingleFileDecoder {
    let file: String
    /// In the order met, each document before its subcollections (often path order); those
    /// not yet taken (`takeDocuments`).
    private(set) var documents: [Document] = []
    /// Documents taken so far.
    private(set) var taken = 0
    /// Empty, or one flag per document made (taken or not): true for a
    /// node-firestore-import-export missing parent (an object holding only subcollections),
    /// which is not a document.
    private(set) var holders: [Bool] = []
    private var anyHolder = false

    init(file: String) { self.file = file }

    /// The documents made since the last call, in order.
    mutating func takeDocuments() -> [Document] {
        var batch: [Document] = []
        swap(&batch, &documents)
        taken += batch.count
        return batch
    }

    // MARK: node-firestore-import-export

    mutating func nodeCollections(_ json: JSONValue, parent: [String], location: String) throws(StoreError) {
        guard case .object(let collections) = json else {
            throw .malformed(
                file: file, location: location,
                detail: "\"__collections__\" is \(json.kindDescription), expected an object of collections")
        }
        for (name, docs) in collections {
            let collection = (parent + [name]).joined(separator: "/")
            guard case .object(let docPairs) = docs else {
                throw .malformed(
                    file: file, location: "collection \(collection)",
                    detail: "expected an object of documents, found \(docs.kindDescription)")
            }
            for (id, body) in docPairs {
                try nodeDocument(DocumentPath(parent + [name, id]), body)
            }
        }
    }

    /// One document of a node-firestore-import-export collection, then its subcollections.
    mutating func nodeDocument(_ path: DocumentPath, _ body: JSONValue) throws(StoreError) {
        guard case .object(let pairs) = body else {
            throw .notAnObject(file: file, document: path.description, found: body.kindDescription)
        }
        var fields = Fields()
        var subcollections: [JSONValue] = []
        for (key, value) in pairs {
            if key == "__collections__" {
                subcollections.append(value)
            } else {
                fields.append(key, Self.nodeValue(value))
            }
        }
        // The tool writes `"__collections__": {}` on every document, and for a
        // "missing" document (no body, only subcollections, e.g. favorites/{uid})
        // nothing else: such an object is a missing parent, as a folder without its
        // file is in a directory store. (An existing document without fields but
        // with subcollections is written the same way, and is taken as missing.)
        // `{"__collections__": {}}` is a document without fields.
        let holder =
            pairs.count == subcollections.count
            && subcollections.contains { if case .object(let c) = $0 { !c.isEmpty } else { false } }
        if holder && !anyHolder {
            anyHolder = true
            holders = Array(repeating: false, count: taken + documents.count)
        }
        if anyHolder { holders.append(holder) }
        documents.append(Document(path: path, fields: fields, source: file))
        for value in subcollections {
            try nodeCollections(value, parent: path.segments, location: "document \(path)")
        }
    }

    /// `{"__datatype__": "timestamp"|"geopoint"|"documentReference", "value": …}` becomes a
    /// typed value; a malformed or unknown tag stays a map (the model reports it).
    static func nodeValue(_ json: JSONValue) -> Value {
        switch json {
        case .object(let pairs):
            if case .string(let type)? = json["__datatype__"], let v = json["value"] {
                switch type {
                case "timestamp":
                    if let t = timestamp(v) { return .timestamp(t) }
                case "geopoint":
                    if let (lat, lon) = geoPoint(v) { return .geoPoint(latitude: lat, longitude: lon) }
                case "documentReference":
                    if case .string(let s) = v { return .reference(SingleFileStore.stripDatabasePrefix(s)) }
                default:
                    break
                }
            }
            var fields = Fields()
            for (k, v) in pairs { fields.append(k, nodeValue(v)) }
            return .map(fields)
        case .array(let values):
            return .array(values.map { nodeValue($0) })
        default:
            return Value(json: json)
        }
    }

    static func timestamp(_ v: JSONValue) -> Timestamp? {
        switch v {
        case .string(let s):
            return RFC3339.parse(s)
        case .object:
            guard let s = integer(v["_seconds"] ?? v["seconds"]) else { return nil }
            let n = integer(v["_nanoseconds"] ?? v["nanoseconds"] ?? .integer(0)) ?? -1
            guard n >= 0 && n < 1_000_000_000 else { return nil }
            return Timestamp(seconds: s, nanoseconds: Int32(n))
        default:
            return nil
        }
    }

    static func geoPoint(_ v: JSONValue) -> (Double, Double)? {
        guard let lat = (v["_latitude"] ?? v["latitude"])?.numberValue,
            let lon = (v["_longitude"] ?? v["longitude"])?.numberValue
        else { return nil }
        return (lat, lon)
    }

    static func integer(_ v: JSONValue?) -> Int64? {
        switch v {
        case .integer(let i)?: return i
        case .double(let d)? where d.rounded() == d && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }

    // MARK: firestore-export-import

    mutating func exportCollection(segments: [String], _ docs: JSONValue) throws(StoreError) {
        let collection = segments.joined(separator: "/")
        guard case .object(let docPairs) = docs else {
            throw .malformed(
                file: file, location: "collection \(collection)",
                detail: "expected an object of documents, found \(docs.kindDescription)")
        }
        for (id, body) in docPairs {
            let path = DocumentPath(segments + [id])
            guard case .object(let pairs) = body else {
                throw .notAnObject(file: file, document: path.description, found: body.kindDescription)
            }
            var fields = Fields()
            for (key, value) in pairs {
                if key == "subCollection", let subs = subcollections(value, of: path) {
                    for (sub, subDocs) in subs {
                        try exportCollection(segments: sub, subDocs)
                    }
                } else {
                    fields.append(key, exportValue(value))
                }
            }
            documents.append(Document(path: path, fields: fields, source: file))
        }
    }

    /// `"subCollection": {"users/UID/user-likes": {…}}` (full paths; a bare name is taken
    /// relative to the document); nil when the value does not look like that (a field).
    func subcollections(_ value: JSONValue, of path: DocumentPath) -> [([String], JSONValue)]? {
        guard case .object(let pairs) = value else { return nil }
        var out: [([String], JSONValue)] = []
        for (key, docs) in pairs {
            let parts = splitSlashes(key)
            guard parts.count % 2 == 1, !parts.contains(where: \.isEmpty), case .object = docs else { return nil }
            out.append((parts.count == 1 ? path.segments + parts : parts, docs))
        }
        return out
    }

    /// Exactly `{_seconds, _nanoseconds}` → timestamp, exactly `{_latitude, _longitude}` → geopoint.
    func exportValue(_ json: JSONValue) -> Value {
        switch json {
        case .object(let pairs):
            if pairs.count == 2 {
                let keys = Set(pairs.map(\.key))
                if keys == ["_seconds", "_nanoseconds"], let s = Self.integer(json["_seconds"]),
                    let n = Self.integer(json["_nanoseconds"]), n >= 0, n < 1_000_000_000
                {
                    return .timestamp(Timestamp(seconds: s, nanoseconds: Int32(n)))
                }
                if keys == ["_latitude", "_longitude"], let lat = json["_latitude"]?.numberValue,
                    let lon = json["_longitude"]?.numberValue
                {
                    return .geoPoint(latitude: lat, longitude: lon)
                }
            }
            var fields = Fields()
            for (k, v) in pairs { fields.append(k, exportValue(v)) }
            return .map(fields)
        case .array(let values):
            return .array(values.map { exportValue($0) })
        default:
            return Value(json: json)
        }
    }

    // MARK: REST

    mutating func restDocument(_ json: JSONValue, location: String) throws(StoreError) {
        guard case .object = json else {
            throw .malformed(
                file: file, location: location, detail: "expected a REST document object, found \(json.kindDescription)"
            )
        }
        guard case .string(let name)? = json["name"] else {
            throw .malformed(file: file, location: location, detail: "the document has no \"name\" string")
        }
        let segments = SingleFileStore.splitDatabasePrefix(name)
        guard !segments.isEmpty, segments.count % 2 == 0, !segments.contains(where: \.isEmpty) else {
            throw .malformed(
                file: file, location: location,
                detail: "\"name\": \"\(name)\" is not a document name (projects/P/databases/D/documents/collection/id…)"
            )
        }
        let path = DocumentPath(segments)
        var fields = Fields()
        if let f = json["fields"] {
            guard case .object(let pairs) = f else {
                throw .malformed(
                    file: file, location: "document \(path)",
                    detail: "\"fields\" is \(f.kindDescription), expected an object")
            }
            for (key, value) in pairs {
                fields.append(key, try restValue(value, document: path, field: key))
            }
        }
        documents.append(Document(path: path, fields: fields, source: file))
    }

    func restValue(_ json: JSONValue, document: DocumentPath, field: String) throws(StoreError) -> Value {
        func invalid(_ detail: String) -> StoreError {
            .invalidRESTValue(file: file, document: document.description, field: field, detail: detail)
        }
        guard case .object(let pairs) = json else {
            throw invalid("expected a typed value such as {\"stringValue\": …}, found \(json.kindDescription)")
        }
        guard let typeKey = pairs.last(where: { restValueTypes.contains($0.key) })?.key else {
            if let first = pairs.first?.key {
                throw .unknownRESTValue(file: file, document: document.description, field: field, type: first)
            }
            throw invalid("empty value object {}; expected a typed value such as {\"stringValue\": …}")
        }
        let v = json[typeKey]!
        switch typeKey {
        case "nullValue":
            return .null
        case "booleanValue":
            guard case .bool(let b) = v else {
                throw invalid("booleanValue is \(v.kindDescription), expected true or false")
            }
            return .bool(b)
        case "integerValue":
            switch v {
            case .string(let s):
                guard let i = Int64(s) else { throw invalid("integerValue \"\(s)\" is not a 64-bit integer") }
                return .integer(i)
            case .integer(let i):
                return .integer(i)
            default:
                throw invalid("integerValue is \(v.kindDescription), expected a string of digits")
            }
        case "doubleValue":
            switch v {
            case .integer(let i): return .double(Double(i))
            case .double(let d): return .double(d)
            case .string("NaN"): return .double(.nan)
            case .string("Infinity"): return .double(.infinity)
            case .string("-Infinity"): return .double(-.infinity)
            default: throw invalid("doubleValue is \(v.kindDescription), expected a number")
            }
        case "timestampValue":
            guard case .string(let s) = v else {
                throw invalid("timestampValue is \(v.kindDescription), expected an RFC 3339 string")
            }
            guard let t = RFC3339.parse(s) else {
                throw invalid("timestampValue \"\(s)\" is not an RFC 3339 timestamp")
            }
            return .timestamp(t)
        case "stringValue":
            guard case .string(let s) = v else {
                throw invalid("stringValue is \(v.kindDescription), expected a string")
            }
            return .string(s)
        case "bytesValue":
            guard case .string(let s) = v else {
                throw invalid("bytesValue is \(v.kindDescription), expected a base64 string")
            }
            return .bytes(s)
        case "referenceValue":
            guard case .string(let s) = v else {
                throw invalid("referenceValue is \(v.kindDescription), expected a document name")
            }
            return .reference(SingleFileStore.stripDatabasePrefix(s))
        case "geoPointValue":
            return try restGeoPoint(v, invalid: invalid)
        case "arrayValue":
            return try restArray(v, document: document, field: field, invalid: invalid)
        case "mapValue":
            return try restMap(v, document: document, field: field, invalid: invalid)
        default:
            throw .unknownRESTValue(file: file, document: document.description, field: field, type: typeKey)
        }
    }

    private func restGeoPoint(_ v: JSONValue, invalid: (String) -> StoreError) throws(StoreError) -> Value {
        guard case .object = v else {
            throw invalid("geoPointValue is \(v.kindDescription), expected {latitude, longitude}")
        }
        // proto3 JSON omits zero fields.
        let lat = v["latitude"] ?? .integer(0)
        let lon = v["longitude"] ?? .integer(0)
        guard let la = lat.numberValue, let lo = lon.numberValue else {
            throw invalid("geoPointValue latitude and longitude must be numbers")
        }
        return .geoPoint(latitude: la, longitude: lo)
    }

    private func restArray(
        _ v: JSONValue, document: DocumentPath, field: String, invalid: (String) -> StoreError
    ) throws(StoreError) -> Value {
        guard case .object = v else {
            throw invalid("arrayValue is \(v.kindDescription), expected {\"values\": […]}")
        }
        guard let values = v["values"] else { return .array([]) }
        guard case .array(let items) = values else {
            throw invalid("arrayValue.values is \(values.kindDescription), expected an array")
        }
        var out: [Value] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            out.append(try restValue(item, document: document, field: "\(field)[\(k)]"))
        }
        return .array(out)
    }

    private func restMap(
        _ v: JSONValue, document: DocumentPath, field: String, invalid: (String) -> StoreError
    ) throws(StoreError) -> Value {
        guard case .object = v else {
            throw invalid("mapValue is \(v.kindDescription), expected {\"fields\": {…}}")
        }
        guard let f = v["fields"] else { return .map(Fields()) }
        guard case .object(let fieldPairs) = f else {
            throw invalid("mapValue.fields is \(f.kindDescription), expected an object")
        }
        var fields = Fields()
        for (k, item) in fieldPairs {
            fields.append(k, try restValue(item, document: document, field: "\(field).\(k)"))
        }
        return .map(fields)
    }
}

extension Value {
    /// The typed value a map in node-firestore-import-export's typed form stands for (a
    /// folder store may hold `{"__datatype__": "timestamp", "value": {...}}`, SPEC 2.4): what
    /// it is written to a database as, where `__datatype__` is a reserved field name. Nil for
    /// any other value, and for a malformed or unknown tag.
    package var nodeTypedValue: Value? {
        guard case .map(let fields) = self, fields["__datatype__"] != nil else { return nil }
        let typed = SingleFileDecoder.nodeValue(DirectoryStoreWriter.json(for: self))
        if case .map = typed { return nil }
        return typed
    }
}
