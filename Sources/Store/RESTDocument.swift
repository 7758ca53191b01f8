import JSON

/// One document as the Firestore REST API writes it, `{"name", "fields", "createTime",
/// "updateTime"}` with typed values (SPEC 2.2 item 3): the one decoder of those values, for
/// export files and for the database alike.
package enum RESTDocument {
    /// The document `json` holds; `source` (a file, a database) and `location` (where in it)
    /// name it in errors.
    package static func decode(_ json: JSONValue, source: String, location: String) throws(StoreError) -> Document {
        var decoder = SingleFileDecoder(file: source)
        try decoder.restDocument(json, location: location)
        return decoder.takeDocuments()[0]
    }

    /// A document path as the REST API names it, under `root` (`projects/P/databases/D/documents`).
    package static func name(of path: DocumentPath, root: String) -> String { root + "/" + path.description }
}
