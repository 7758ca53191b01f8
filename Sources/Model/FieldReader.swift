import Store

/// Reads a document's fields by the schema of SPEC 2.3, recording a diagnostic
/// that names the document and field for every value that is missing or of the wrong type.
struct FieldReader {
    let document: Document
    private(set) var diagnostics: [Diagnostic] = []
    /// False once a required field is missing or any field has the wrong type: the document is not used.
    private(set) var isUsable = true

    init(_ document: Document) {
        self.document = document
    }

    var path: String { document.path.description }

    private mutating func fail(_ kind: Diagnostic.Kind, _ field: String, _ message: String) {
        diagnostics.append(Diagnostic(kind, path: path, field: field, message))
        if kind.severity == .error { isUsable = false }
    }

    mutating func warn(_ kind: Diagnostic.Kind, _ field: String?, _ message: String) {
        diagnostics.append(Diagnostic(kind, path: path, field: field, message))
    }

    private mutating func wrongType(_ field: String, expected: String, got value: Value) {
        fail(.wrongType, field, "expected \(expected), found \(value.typeName)")
    }

    /// The first of `names` present; a missing optional field and an explicit `null` read as nil.
    private func lookUp(_ names: [String]) -> (String, Value)? {
        for name in names {
            if let value = document.fields[name] { return (name, value) }
        }
        return nil
    }

    mutating func requiredString(_ name: String) -> String? {
        guard let (field, value) = lookUp([name]), value != .null else {
            fail(.missingField, name, "required string is missing")
            return nil
        }
        guard case .string(let text) = value else {
            wrongType(field, expected: "a string", got: value)
            return nil
        }
        return text
    }

    mutating func optionalString(_ names: String...) -> String? {
        guard let (field, value) = lookUp(names), value != .null else { return nil }
        guard case .string(let text) = value else {
            wrongType(field, expected: "a string", got: value)
            return nil
        }
        return text
    }

    mutating func optionalInteger(_ name: String) -> Int64? {
        guard let (field, value) = lookUp([name]), value != .null else { return nil }
        switch value {
        case .integer(let n): return n
        case .double(let d) where d.isFinite && d == d.rounded() && abs(d) < 9e15: return Int64(d)
        default:
            wrongType(field, expected: "an integer", got: value)
            return nil
        }
    }

    mutating func requiredTimestamp(_ name: String) -> Timestamp? {
        guard let (_, value) = lookUp([name]), value != .null else {
            fail(.missingField, name, "required timestamp is missing")
            return nil
        }
        return timestamp(name, value)
    }

    mutating func optionalTimestamp(_ name: String) -> Timestamp? {
        guard let (_, value) = lookUp([name]), value != .null else { return nil }
        return timestamp(name, value)
    }

    private mutating func timestamp(_ name: String, _ value: Value) -> Timestamp? {
        if let t = Timestamp(value) { return t }
        fail(
            .invalidTimestamp, name,
            "not a timestamp between years 1 and 9999: \(value.excerpt) (accepted: an RFC 3339 string, "
                + "seconds since 1970, {\"_seconds\", \"_nanoseconds\"}, {\"seconds\", \"nanoseconds\"})")
        return nil
    }

    /// A favorite's `coordinate`: `latitude` and `longitude` (or `longtitude`), each a number
    /// or a numeric string; or a geopoint in any of its forms. Anything else is a warning and no coordinate.
    mutating func coordinate(_ name: String) -> Coordinate? {
        guard let (_, value) = lookUp([name]), value != .null else { return nil }
        switch value {
        case .geoPoint(let latitude, let longitude):
            return checked(name, latitude, longitude)
        case .map(let fields):
            if case .string("geopoint")? = fields["__datatype__"], case .map(let inner)? = fields["value"] {
                return pair(name, inner, "_latitude", ["_longitude"])
            }
            if fields["_latitude"] != nil { return pair(name, fields, "_latitude", ["_longitude"]) }
            return pair(name, fields, "latitude", ["longitude", "longtitude"])
        default:
            warn(.nonNumericCoordinate, name, "expected an object with latitude and longitude, found \(value.typeName)")
            return nil
        }
    }

    private mutating func pair(_ name: String, _ fields: Fields, _ latKey: String, _ lonKeys: [String]) -> Coordinate? {
        let lonKey = lonKeys.first { fields[$0] != nil } ?? lonKeys[0]
        guard let lat = number(fields[latKey]), let lon = number(fields[lonKey]) else {
            let shown = [latKey, lonKey].map { "\($0) \(fields[$0]?.excerpt ?? "missing")" }.joined(separator: ", ")
            warn(.nonNumericCoordinate, name, "not a pair of numbers: \(shown)")
            return nil
        }
        return checked(name, lat, lon)
    }

    private mutating func checked(_ name: String, _ lat: Double, _ lon: Double) -> Coordinate? {
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            warn(.nonNumericCoordinate, name, "out of range: latitude \(lat), longitude \(lon)")
            return nil
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private func number(_ value: Value?) -> Double? {
        switch value {
        case .integer(let n)?: return Double(n)
        case .double(let d)? where d.isFinite: return d
        case .string(let s)?:
            let trimmed = s.trimmingSpaces
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }),
                let d = Double(trimmed), d.isFinite
            else { return nil }
            return d
        default: return nil
        }
    }
}

extension Value {
    /// How error messages name a value's type.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .timestamp: "a timestamp"
        case .geoPoint: "a geopoint"
        case .reference: "a reference"
        case .bytes: "bytes"
        case .array: "an array"
        case .map: "an object"
        }
    }

    /// A short rendering of the value for messages.
    var excerpt: String {
        switch self {
        case .string(let s): s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
        case .integer(let n): String(n)
        case .double(let d): String(d)
        case .bool(let b): String(b)
        default: typeName
        }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = self[...]
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
