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
            pairs.append((key, try encode(value, field: key, root: root, inArray: false)))
        }
        return .object(pairs)
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
            var pairs: [(key: String, value: JSONValue)] = []
            for (key, item) in nested {
                pairs.append((key, try encode(item, field: "\(field).\(key)", root: root, inArray: false)))
            }
            return typed("mapValue", .object([("fields", .object(pairs))]))
        }
    }
}
