import Foundation
import Protobuf
import Store

/// Turns one exported entity, a Datastore v3 `EntityProto` (proto2, with groups), into a
/// document: the key's path elements give the path (kind → collection, name → document ID, a
/// numeric ID → `__idN__`, as Firestore names those), its properties the fields, typed as the
/// other stores type them (`Value`): the same data read from any store gives the same values.
///
/// Field numbers (App Engine's `entity.proto`): EntityProto key=13, property=14,
/// raw_property=15 (unindexed; both are fields); Reference name_space=20, path=14; Path
/// element group=1 (type=2, id=3, name=4); Property meaning=1, name=3, multiple=4, value=5;
/// PropertyValue int64=1, boolean=2, string=3, double=4, point group=5 (x=6, y=7), user
/// group=8, reference group=12 (name_space=20, path element group=14: type=15, id=16,
/// name=17). Fields it does not know are skipped.
package enum EntityDecoder {
    /// Maps nested deeper than this are refused (Firestore allows 20 levels).
    static let maximumDepth = 100

    /// The document `payload` holds; `source` becomes its `source`. Errors give offsets in
    /// `payload`, and the document's path once the key has been read.
    package static func document(_ payload: UnsafeRawBufferPointer, source: String) throws(ExportDamage) -> Document {
        var reader = MessageReader(ProtobufReader(payload), what: "the entity")
        var path: DocumentPath?
        var properties = PropertyList()
        do throws(ExportDamage) {
            while let tag = try reader.nextTag() {
                switch tag.number {
                case 13:
                    guard path == nil else { throw ExportDamage(at: tag.offset, "the entity has two keys") }
                    path = try key(reader.message(tag, "the key"), at: tag.offset)
                case 14, 15:
                    try properties.add(property(reader.message(tag, "a property"), at: tag.offset, depth: 0))
                default:
                    try reader.skip(tag)
                }
            }
            guard let path else { throw ExportDamage(at: payload.count, "the entity has no key") }
            return Document(path: path, fields: properties.fields(), source: source)
        } catch {
            var damage = error
            damage.document = damage.document ?? path?.description
            throw damage
        }
    }

    // MARK: Keys and references

    /// The key (a `Reference`): its path elements as a document path.
    private static func key(_ key: consuming MessageReader, at offset: Int) throws(ExportDamage) -> DocumentPath {
        var segments: [String] = []
        while let field = try key.nextTag() {
            switch field.number {
            case 14:
                var path = try key.message(field, "the key's path")
                while let element = try path.nextTag() {
                    if element.number == 1 {
                        segments += try pathElement(
                            path.group(element, "a key's path element"), at: element.offset, fields: (2, 3, 4))
                    } else {
                        try path.skip(element)
                    }
                }
            case 20: try checkNamespace(key.string(field), at: field.offset)
            default: try key.skip(field)
            }
        }
        guard !segments.isEmpty else { throw ExportDamage(at: offset, "the entity's key has no path") }
        return DocumentPath(segments)
    }

    /// A reference value's path, relative to the database (`users/u1`), as the REST reader
    /// gives it.
    private static func reference(_ group: consuming MessageReader, at offset: Int) throws(ExportDamage) -> String {
        var segments: [String] = []
        while let field = try group.nextTag() {
            switch field.number {
            case 14:
                segments += try pathElement(
                    group.group(field, "a reference's path element"), at: field.offset, fields: (15, 16, 17))
            case 20: try checkNamespace(group.string(field), at: field.offset)
            default: try group.skip(field)
            }
        }
        guard !segments.isEmpty else { throw ExportDamage(at: offset, "a reference without a path") }
        return segments.joined(separator: "/")
    }

    /// One path element's collection and document ID; `fields` are the numbers of its kind,
    /// id and name (a key's and a reference's differ).
    private static func pathElement(
        _ element: consuming MessageReader, at offset: Int, fields: (kind: Int, id: Int, name: Int)
    ) throws(ExportDamage) -> [String] {
        var collection: String?
        var name: String?
        var id: Int64?
        while let field = try element.nextTag() {
            switch field.number {
            case fields.kind: collection = try element.string(field)
            case fields.name: name = try element.string(field)
            case fields.id: id = try element.int64(field)
            default: try element.skip(field)
            }
        }
        guard let collection, !collection.isEmpty else {
            throw ExportDamage(at: offset, "a path element without its kind (the collection)")
        }
        guard let documentID = name ?? id.map({ "__id\($0)__" }), !documentID.isEmpty else {
            throw ExportDamage(at: offset, "the path element of \(collection) has neither a name nor an id")
        }
        return [collection, documentID]
    }

    /// Firestore's documents are in the default namespace: any other is not Firestore's.
    private static func checkNamespace(_ namespace: String, at offset: Int) throws(ExportDamage) {
        guard namespace.isEmpty else {
            throw ExportDamage(
                at: offset, "the namespace \"\(namespace)\": a Firestore database has the default namespace only")
        }
    }

    // MARK: Properties

    /// One property as read, before repeated ones are put together into arrays.
    struct Property {
        let name: String
        let multiple: Bool
        /// Nil for an empty array's mark (meaning 24), which has no value of its own.
        let value: Value?
        let offset: Int
    }

    /// The property `message` holds (a `Property`, its tag at `offset`).
    private static func property(_ message: consuming MessageReader, at offset: Int, depth: Int) throws(ExportDamage)
        -> Property
    {
        var meaning: UInt64 = 0
        var name: String?
        var multiple = false
        var raw = RawValue(kind: .none, offset: offset)
        while let field = try message.nextTag() {
            switch field.number {
            case 1: meaning = try message.varint(field)
            case 3: name = try message.string(field)
            case 4: multiple = try message.bool(field)
            case 5: raw = try rawValue(message.message(field, "a property's value"), property: name)
            default: try message.skip(field)
            }
        }
        guard let name else { throw ExportDamage(at: offset, "a property without a name") }
        return Property(
            name: name, multiple: multiple, value: try typed(raw, meaning: meaning, property: name, depth: depth),
            offset: offset)
    }

    /// A `PropertyValue` as its protobuf fields hold it.
    struct RawValue {
        enum Kind {
            case none
            case integer(Int64)
            case boolean(Bool)
            /// The string field's bytes (text, bytes or a nested entity, by the meaning), and
            /// where they start.
            case bytes(UnsafeRawBufferPointer, at: Int)
            case double(Double)
            case point(x: Double, y: Double)
            case reference(String)
        }

        var kind: Kind
        var offset: Int
    }

    private static func rawValue(_ value: consuming MessageReader, property: String?) throws(ExportDamage) -> RawValue {
        var raw = RawValue(kind: .none, offset: value.offset)
        while let field = try value.nextTag() {
            let kind: RawValue.Kind
            switch field.number {
            case 1: kind = .integer(try value.int64(field))
            case 2: kind = .boolean(try value.bool(field))
            case 3:
                let (bytes, at) = try value.bytes(field)
                kind = .bytes(bytes, at: at)
            case 4: kind = .double(try value.double(field))
            case 5: kind = try point(value.group(field, "a point"))
            case 8:
                throw ExportDamage(
                    at: field.offset,
                    "property \(property ?? "?") holds an App Engine user, which is no Firestore value")
            case 12: kind = .reference(try reference(value.group(field, "a reference"), at: field.offset))
            default:
                try value.skip(field)
                continue
            }
            if case .none = raw.kind {
                raw = RawValue(kind: kind, offset: field.offset)
            } else {
                throw ExportDamage(at: field.offset, "property \(property ?? "?") holds both \(raw.kind) and \(kind)")
            }
        }
        return raw
    }

    private static func point(_ group: consuming MessageReader) throws(ExportDamage) -> RawValue.Kind {
        var (x, y) = (0.0, 0.0)
        while let field = try group.nextTag() {
            switch field.number {
            case 6: x = try group.double(field)
            case 7: y = try group.double(field)
            default: try group.skip(field)
            }
        }
        return .point(x: x, y: y)
    }

    /// The value `raw` stands for by its `meaning`; nil for an empty array's mark.
    private static func typed(_ raw: RawValue, meaning code: UInt64, property: String, depth: Int) throws(ExportDamage)
        -> Value?
    {
        guard let meaning = DatastoreMeaning(rawValue: code) else {
            throw ExportDamage(
                at: raw.offset, "property \(property) has the meaning \(code), which is no Firestore value")
        }
        switch (meaning, raw.kind) {
        case (.none, .none): return .null
        case (.none, .integer(let i)): return .integer(i)
        case (.none, .boolean(let b)): return .bool(b)
        case (.none, .double(let d)): return .double(d)
        case (.none, .point(let x, let y)), (.geoPoint, .point(let x, let y)):
            return .geoPoint(latitude: x, longitude: y)
        case (.none, .reference(let path)): return .reference(path)
        case (.none, .bytes(let bytes, let at)), (.text, .bytes(let bytes, let at)):
            guard let text = ProtobufReader.utf8String(bytes) else {
                throw ExportDamage(at: at, "property \(property) holds a string that is not UTF-8")
            }
            return .string(text)
        case (.timestamp, .integer(let microseconds)): return .timestamp(timestamp(microseconds: microseconds))
        case (.blob, .bytes(let bytes, _)), (.byteString, .bytes(let bytes, _)):
            return .bytes(Data(bytes).base64EncodedString())
        case (.entity, .bytes(let bytes, let at)):
            guard depth < maximumDepth else {
                throw ExportDamage(at: at, "property \(property): maps nested deeper than \(maximumDepth) levels")
            }
            return .map(try nestedFields(bytes, at: at, depth: depth + 1))
        case (.emptyList, .none): return nil
        default:
            throw ExportDamage(at: raw.offset, "property \(property) is marked as \(meaning) but holds \(raw.kind)")
        }
    }

    /// Microseconds since 1970 as seconds and nanoseconds (rounded down, before 1970 too).
    static func timestamp(microseconds: Int64) -> Timestamp {
        let (seconds, rest) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return rest < 0
            ? Timestamp(seconds: seconds - 1, nanoseconds: Int32((rest + 1_000_000) * 1000))
            : Timestamp(seconds: seconds, nanoseconds: Int32(rest * 1000))
    }

    /// A map's fields: the properties of the entity serialized in `bytes` (at `offset`; its
    /// key, empty, is not read).
    private static func nestedFields(_ bytes: UnsafeRawBufferPointer, at offset: Int, depth: Int) throws(ExportDamage)
        -> Fields
    {
        var reader = MessageReader(ProtobufReader(bytes, baseOffset: offset), what: "a map")
        var properties = PropertyList()
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 14, 15: try properties.add(property(reader.message(tag, "a property"), at: tag.offset, depth: depth))
            default: try reader.skip(tag)
            }
        }
        return properties.fields()
    }
}

extension EntityDecoder.RawValue.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .none: "no value"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .bytes: "a string"
        case .double: "a double"
        case .point: "a point"
        case .reference: "a reference"
        }
    }
}

extension DatastoreMeaning: CustomStringConvertible {
    var description: String {
        switch self {
        case .none: "a plain value"
        case .timestamp: "a timestamp (meaning 7)"
        case .geoPoint: "a geopoint (meaning 9)"
        case .blob: "bytes (meaning 14)"
        case .text: "text (meaning 15)"
        case .byteString: "bytes (meaning 16)"
        case .entity: "a map (meaning 19)"
        case .emptyList: "an empty array (meaning 24)"
        }
    }
}
