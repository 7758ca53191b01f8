import Store
import Support

/// Documents and values (google/firestore/v1/document.proto; `Timestamp` from
/// google/protobuf/timestamp.proto, `LatLng` from google/type/latlng.proto), decoded to what
/// the REST decoder (`RESTDocument`) makes of the same document's JSON.
extension ListenDecoder {
    /// `Document`: name=1, fields=2 (map entries key=1, value=2), update_time=4; create_time=3
    /// is not needed.
    func document(_ reader: inout ListenReader, at offset: Int) throws(ListenDecodingError) -> ListenDocument {
        var name = ""
        var nameOffset = offset
        var fields = Fields()
        var updateTime = Timestamp(seconds: 0)
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1:
                name = try reader.string(tag)
                nameOffset = tag.offset
            case 2:
                var entry = try reader.message(tag)
                let (key, value) = try mapEntry(&entry, at: tag.offset, depth: 0)
                fields.append(key, value)
            case 4:
                var inner = try reader.message(tag)
                updateTime = try timestamp(&inner)
            default:
                try reader.skip(tag)
            }
        }
        let path = try documentPath(name, at: nameOffset)
        return ListenDocument(document: Document(path: path, fields: fields, source: source), updateTime: updateTime)
    }

    /// `projects/P/databases/D/documents/users/u1` → `users/u1`, as REST's names are read.
    func documentPath(_ name: String, at offset: Int) throws(ListenDecodingError) -> DocumentPath {
        guard let path = DocumentPath(string: SingleFileStore.stripDatabasePrefix(name)) else {
            throw ListenDecodingError(.notADocumentName(name), at: offset)
        }
        return path
    }

    /// A map entry (`map<string, Value>`): key=1, value=2, in either order. A missing value is
    /// an unset `Value`, so an error, as `{}` is in REST.
    func mapEntry(
        _ reader: inout ListenReader, at offset: Int, depth: Int
    ) throws(ListenDecodingError) -> (String, Value) {
        var key = ""
        var value: Value?
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1:
                key = try reader.string(tag)
            case 2:
                var inner = try reader.message(tag)
                value = try self.value(&inner, at: tag.offset, depth: depth)
            default:
                try reader.skip(tag)
            }
        }
        guard let value else { throw ListenDecodingError(.untypedValue, at: offset) }
        return (key, value)
    }

    /// `Value`: a oneof, so the last type given wins. `depth` counts the arrays and maps
    /// around it.
    func value(_ reader: inout ListenReader, at offset: Int, depth: Int) throws(ListenDecodingError) -> Value {
        var value: Value?
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 11:
                _ = try reader.varint(tag)  // NULL_VALUE, the enum's only value
                value = .null
            case 1: value = .bool(try reader.bool(tag))
            case 2: value = .integer(try reader.int64(tag))
            case 3: value = .double(try reader.double(tag))
            case 10:
                var inner = try reader.message(tag)
                value = .timestamp(try timestamp(&inner))
            case 17: value = .string(try reader.string(tag))
            // REST JSON gives bytes as standard base64 with padding; so does `.bytes` here.
            case 18: value = .bytes(Base64.encode(try reader.bytes(tag)))
            case 5: value = .reference(SingleFileStore.stripDatabasePrefix(try reader.string(tag)))
            case 8:
                var inner = try reader.message(tag)
                value = try geoPoint(&inner)
            case 9:
                var inner = try reader.message(tag)
                value = .array(try arrayValues(&inner, at: tag.offset, depth: depth + 1))
            case 6:
                var inner = try reader.message(tag)
                value = .map(try mapFields(&inner, at: tag.offset, depth: depth + 1))
            default:
                try reader.skip(tag)
            }
        }
        guard let value else { throw ListenDecodingError(.untypedValue, at: offset) }
        return value
    }

    /// `ArrayValue`: values=1.
    func arrayValues(
        _ reader: inout ListenReader, at offset: Int, depth: Int
    ) throws(ListenDecodingError) -> [Value] {
        guard depth <= Self.maxDepth else { throw ListenDecodingError(.nestedTooDeeply, at: offset) }
        var values: [Value] = []
        while let tag = try reader.nextTag() {
            guard tag.number == 1 else {
                try reader.skip(tag)
                continue
            }
            var inner = try reader.message(tag)
            values.append(try value(&inner, at: tag.offset, depth: depth))
        }
        return values
    }

    /// `MapValue`: fields=1, map entries, kept in the order they come.
    func mapFields(_ reader: inout ListenReader, at offset: Int, depth: Int) throws(ListenDecodingError) -> Fields {
        guard depth <= Self.maxDepth else { throw ListenDecodingError(.nestedTooDeeply, at: offset) }
        var fields = Fields()
        while let tag = try reader.nextTag() {
            guard tag.number == 1 else {
                try reader.skip(tag)
                continue
            }
            var entry = try reader.message(tag)
            let (key, value) = try mapEntry(&entry, at: tag.offset, depth: depth)
            fields.append(key, value)
        }
        return fields
    }

    /// `google.protobuf.Timestamp`: seconds=1, nanos=2.
    func timestamp(_ reader: inout ListenReader) throws(ListenDecodingError) -> Timestamp {
        var time = Timestamp(seconds: 0)
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1: time.seconds = try reader.int64(tag)
            case 2: time.nanoseconds = try reader.int32(tag)
            default: try reader.skip(tag)
            }
        }
        return time
    }

    /// `google.type.LatLng`: latitude=1, longitude=2; one left out is 0 (proto3 omits zeros).
    func geoPoint(_ reader: inout ListenReader) throws(ListenDecodingError) -> Value {
        var latitude = 0.0
        var longitude = 0.0
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1: latitude = try reader.double(tag)
            case 2: longitude = try reader.double(tag)
            default: try reader.skip(tag)
            }
        }
        return .geoPoint(latitude: latitude, longitude: longitude)
    }
}
