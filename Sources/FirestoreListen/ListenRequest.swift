import Protobuf

/// The messages a client sends on a listen stream: `ListenRequest` of
/// google/firestore/v1/firestore.proto, its `Target` and `Target.QueryTarget` (same file), the
/// query's `StructuredQuery` with its `CollectionSelector`, `Filter`, `FieldFilter` and
/// `FieldReference` (google/firestore/v1/query.proto), and the compared `Value`
/// (google/firestore/v1/document.proto). Fields are written in field-number order, as
/// protobuf's own serialisers do, so that equal requests are equal bytes.
package enum ListenRequest {
    /// Starts following `target`; `database` is `projects/P/databases/D`.
    package static func adding(_ target: ListenTarget, database: String) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.string(Field.database, database)
        writer.message(Field.addTarget) { writeTarget(target, database: database, into: &$0) }
        return writer.bytes
    }

    /// Stops following the target `targetID` named when it was added.
    package static func removing(targetID: Int32, database: String) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.string(Field.database, database)
        writer.int64(Field.removeTarget, Int64(targetID))  // int32 on the wire: sign-extended
        return writer.bytes
    }

    // MARK: Field numbers

    /// `ListenRequest` (firestore.proto).
    private enum Field {
        static let database = 1
        static let addTarget = 2
        static let removeTarget = 3
    }

    /// `Target` (firestore.proto).
    private enum TargetField {
        static let query = 2
        static let resumeToken = 4
        static let targetID = 5
    }

    /// `Target.QueryTarget` (firestore.proto).
    private enum QueryTargetField {
        static let parent = 1
        static let structuredQuery = 2
    }

    /// `StructuredQuery` and its nested messages (query.proto).
    private enum QueryField {
        static let from = 2
        static let `where` = 3
        static let collectionID = 2  // CollectionSelector.collection_id
        static let allDescendants = 3  // CollectionSelector.all_descendants
        static let fieldFilter = 2  // Filter.field_filter
        static let filterField = 1  // FieldFilter.field
        static let filterOperator = 2  // FieldFilter.op
        static let filterValue = 3  // FieldFilter.value
        static let fieldPath = 2  // FieldReference.field_path
        static let equal: UInt64 = 5  // FieldFilter.Operator.EQUAL
    }

    /// `Value.string_value` (document.proto).
    private static let stringValue = 17

    // MARK: Writing

    private static func writeTarget(_ target: ListenTarget, database: String, into writer: inout ProtobufWriter) {
        let root = database + "/documents"
        writer.message(TargetField.query) { query in
            switch target.query {
            case .collection(let parent, let id):
                query.string(QueryTargetField.parent, documentsParent(root, parent))
                query.message(QueryTargetField.structuredQuery) { writeFrom(id, allDescendants: false, into: &$0) }
            case .fieldEquals(let parent, let id, let field, let value):
                query.string(QueryTargetField.parent, documentsParent(root, parent))
                query.message(QueryTargetField.structuredQuery) { structured in
                    writeFrom(id, allDescendants: false, into: &structured)
                    writeEquals(field: field, value: value, into: &structured)
                }
            case .collectionGroup(let id):
                // A collection group is searched under the whole database.
                query.string(QueryTargetField.parent, root)
                query.message(QueryTargetField.structuredQuery) { writeFrom(id, allDescendants: true, into: &$0) }
            }
        }
        if !target.resumeToken.isEmpty { writer.lengthDelimited(TargetField.resumeToken, target.resumeToken) }
        writer.int64(TargetField.targetID, Int64(target.id))
    }

    /// The query's parent: the documents root, or a document under it.
    private static func documentsParent(_ root: String, _ parent: String) -> String {
        parent.isEmpty ? root : root + "/" + parent
    }

    private static func writeFrom(_ id: String, allDescendants: Bool, into writer: inout ProtobufWriter) {
        writer.message(QueryField.from) { selector in
            selector.string(QueryField.collectionID, id)
            // proto3 leaves a false bool out.
            if allDescendants { selector.bool(QueryField.allDescendants, true) }
        }
    }

    /// `where field == value`. `field` goes out as the field path it is written as (dotted
    /// names reach into maps; a name that is not a plain identifier must come back-quoted).
    private static func writeEquals(field: String, value: String, into writer: inout ProtobufWriter) {
        writer.message(QueryField.where) { writeComparison(field, QueryField.equal, value, into: &$0) }
    }

    /// One `Filter` holding the `FieldFilter` `field op value`.
    private static func writeComparison(
        _ field: String, _ op: UInt64, _ value: String, into filter: inout ProtobufWriter
    ) {
        filter.message(QueryField.fieldFilter) { fieldFilter in
            fieldFilter.message(QueryField.filterField) { $0.string(QueryField.fieldPath, field) }
            fieldFilter.varint(QueryField.filterOperator, op)
            fieldFilter.message(QueryField.filterValue) { $0.string(stringValue, value) }
        }
    }
}
