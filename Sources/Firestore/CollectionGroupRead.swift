import JSON
import Store

/// One collection group (`tweets` at any depth, SPEC 2.1) read at one read time, page after
/// page: ordered by document name, each page starting after the last name of the one before
/// (a cursor costs no skipped reads, unlike an offset), at most `pageSize` documents a page.
/// A page is parsed one result at a time (`JSONReader`), never as one tree.
struct CollectionGroupRead {
    let client: FirestoreClient
    let group: String
    let readTime: String
    let pageSize: Int
    /// Names alone (`select` of no field): for deleting.
    var namesOnly = false

    /// Reads the group, handing each page's documents to `take`; returns how many there were.
    func run(_ take: ([Document]) throws(StoreError) -> Void) throws(StoreError) -> Int {
        var after: String?
        var count = 0
        while true {
            let body: [UInt8]
            do {
                body = try client.call(":runQuery", body: request(after: after))
            } catch {
                throw .unavailable(error)
            }
            let page = try parse(body)
            count += page.documents.count
            try take(page.documents)
            guard page.documents.count == pageSize, let last = page.lastName else { return count }
            after = last
        }
    }

    /// The runQuery request of the page after the document named `after` (the first without).
    func request(after: String?) -> [UInt8] {
        var query: [(key: String, value: JSONValue)] = [
            ("from", .array([.object([("collectionId", .string(group)), ("allDescendants", .bool(true))])])),
            ("orderBy", .array([.object([("field", .object([("fieldPath", .string("__name__"))]))])])),
            ("limit", .integer(Int64(pageSize))),
        ]
        if namesOnly {
            query.append(("select", .object([("fields", .array([.object([("fieldPath", .string("__name__"))])]))])))
        }
        if let after {
            query.append(
                (
                    "startAt",
                    .object([
                        ("values", .array([.object([("referenceValue", .string(after))])])), ("before", .bool(false)),
                    ])
                ))
        }
        return JSONWriter.write(
            .object([("structuredQuery", .object(query)), ("readTime", .string(readTime))]), pretty: false)
    }

    /// A page's documents, and the name of its last one.
    func parse(_ body: [UInt8]) throws(StoreError) -> (documents: [Document], lastName: String?) {
        let database = client.database
        func bad(_ detail: String) -> StoreError {
            .unavailable(FirestoreError.badResponse(database: database, detail: "runQuery of \(group): \(detail)"))
        }
        var documents: [Document] = []
        var lastName: String?
        var reader = JSONReader(chunk: body.count + 16, fill: PageBytes(body).fill)
        var started = false
        while true {
            let result: JSONValue?
            do throws(JSONError) {
                if !started {
                    try reader.beginText()
                    guard try reader.peek() == UInt8(ascii: "[") else {
                        throw JSONError(message: "expected an array of query results", line: 1, column: 1, offset: 0)
                    }
                    try reader.beginArray()
                    started = true
                }
                if try reader.nextElement() {
                    result = try reader.readValue()
                } else {
                    try reader.endText()
                    result = nil
                }
            } catch {
                throw bad(body.isEmpty ? "the answer is empty" : "cut off or not JSON (\(error.description))")
            }
            guard let result else { break }
            if let error = result["error"] {
                let said =
                    GoogleErrorAnswer(error: error)
                    ?? GoogleErrorAnswer(json: nil, body: JSONWriter.write(error, pretty: false))
                throw .unavailable(
                    FirestoreError.refused(
                        database: database, code: said.code ?? 500, status: said.status, message: said.message))
            }
            guard let document = result["document"] else { continue }
            documents.append(try RESTDocument.decode(document, source: database, location: "runQuery of \(group)"))
            lastName = document["name"]?.stringValue
        }
        return (documents, lastName)
    }
}

/// A page's bytes handed to a `JSONReader` as it asks for them.
private final class PageBytes {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + n)]))
        }
        offset += n
        return n
    }
}
