import JSON
import Store

/// Values as the REST API types them (SPEC 2.2 item 3), for writing: the inverse of
/// `RESTDocument.decode`. `root` is the database's documents root, which references are
/// written under.
enum RESTValueEncoding {
    /// Why a value cannot be stored in Firestore, and at which field.
    struct Refusal: Error {
        var field: String
        var detail: String
    }

    static func fields(_ fields: Fields, root: String) throws(Refusal) -> JSONValue {
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(fields.count)
        for (key, value) in fields {
            try checkName(key, field: key)
            pairs.append((key, try encode(value, field: key, root: root, inArray: false)))
        }
        return .object(pairs)
    }

    /// Firestore refuses field names of the form `__name__` (the request fails, and with it
    /// everything after it): found before anything is written.
    static func checkName(_ key: String, field: String) throws(Refusal) {
        if isReserved(key) {
            throw Refusal(field: field, detail: "Firestore reserves names of the form __name__; rename it")
        }
    }

    /// `__name__`: a name Firestore keeps for itself (field names, document and collection IDs).
    static func isReserved(_ name: String) -> Bool {
        name.utf8.count >= 4 && name.hasPrefix("__") && name.hasSuffix("__")
    }

    /// A reserved ID (`isReserved`) but `__id123__`, the form of Datastore's numeric IDs,
    /// which Firestore takes (and its exports hold).
    static func isReservedID(_ id: String) -> Bool {
        guard isReserved(id) else { return false }
        let inner = id.utf8.dropFirst(2).dropLast(2)
        let isNumeric =
            inner.starts(with: "id".utf8) && inner.count > 2
            && inner.dropFirst(2).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return !isNumeric
    }

    static func encode(_ value: Value, field: String, root: String, inArray: Bool) throws(Refusal) -> JSONValue {
        func typed(_ key: String, _ json: JSONValue) -> JSONValue { .object([(key, json)]) }
        switch value {
        case .null: return typed("nullValue", .null)
        case .bool(let b): return typed("booleanValue", .bool(b))
        case .integer(let i): return typed("integerValue", .string(String(i)))
        case .double(let d):
            if d.isNaN { return typed("doubleValue", .string("NaN")) }
            if d.isInfinite { return typed("doubleValue", .string(d > 0 ? "Infinity" : "-Infinity")) }
            return typed("doubleValue", .double(d))
        case .string(let s): return typed("stringValue", .string(s))
        case .timestamp(let t):
            guard let text = RFC3339.format(t), t.seconds >= -62_135_596_800 else {
                throw Refusal(field: field, detail: "the timestamp is outside the years 1–9999 Firestore stores")
            }
            return typed("timestampValue", .string(text))
        case .geoPoint(let latitude, let longitude):
            return typed(
                "geoPointValue", .object([("latitude", .double(latitude)), ("longitude", .double(longitude))]))
        case .reference(let path): return typed("referenceValue", .string(root + "/" + path))
        case .bytes(let base64): return typed("bytesValue", .string(base64))
        case .array(let values):
            // Firestore stores no array directly inside an array.
            if inArray { throw Refusal(field: field, detail: "an array inside an array cannot be stored in Firestore") }
            var items: [JSONValue] = []
            items.reserveCapacity(values.count)
            for (k, item) in values.enumerated() {
                items.append(try encode(item, field: "\(field)[\(k)]", root: root, inArray: true))
            }
            return typed("arrayValue", .object([("values", .array(items))]))
        case .map(let nested):
            // `{"__datatype__": "timestamp", "value": …}` of a folder store: its typed value.
            if let typed = value.nodeTypedValue { return try encode(typed, field: field, root: root, inArray: inArray) }
            var pairs: [(key: String, value: JSONValue)] = []
            for (key, item) in nested {
                try checkName(key, field: "\(field).\(key)")
                pairs.append((key, try encode(item, field: "\(field).\(key)", root: root, inArray: false)))
            }
            return typed("mapValue", .object([("fields", .object(pairs))]))
        }
    }
}
