import FirestoreExport
import Foundation
import Protobuf
import Store
import TestSupport
import Testing

// What the export tests share: the fixtures the emulator wrote (see Fixtures/README.md), and
// writers of the same formats, for inputs a test makes itself.

/// The folder of the emulator's exports kept as fixtures.
let fixtures = packageRoot + "/Tests/FirestoreExportTests/Fixtures"

/// A LevelDB log as LevelDB's writer makes it: records cut into fragments at 32 KiB block
/// ends, a block's tail shorter than a header filled with zeros.
struct LogWriter {
    private(set) var bytes: [UInt8] = []
    /// Where each record's first header is.
    private(set) var offsets: [Int] = []

    mutating func append(_ record: [UInt8]) {
        offsets.append(-1)
        var rest = record[...]
        var first = true
        while true {
            let left = LevelDBLog.blockSize - bytes.count % LevelDBLog.blockSize
            if left < LevelDBLog.headerSize {
                bytes += [UInt8](repeating: 0, count: left)
                continue
            }
            if first { offsets[offsets.count - 1] = bytes.count }
            let piece = rest.prefix(left - LevelDBLog.headerSize)
            rest = rest.dropFirst(piece.count)
            let type: LevelDBLog.RecordType =
                first ? (rest.isEmpty ? .full : .first) : (rest.isEmpty ? .last : .middle)
            appendFragment(Array(piece), type: type.rawValue)
            first = false
            if rest.isEmpty { break }
        }
    }

    /// One fragment as given: any type byte, any bytes, a right checksum.
    mutating func appendFragment(_ payload: [UInt8], type: UInt8) {
        let crc = LevelDBLog.mask(CRC32C.checksum(payload, continuing: CRC32C.checksum([type])))
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
        bytes += [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), type]
        bytes += payload
    }

    mutating func appendRaw(_ raw: [UInt8]) { bytes += raw }
}

/// Datastore entities as the export writes them (the field numbers of `EntityDecoder`).
enum Entity {
    /// A property: `value` writes its `PropertyValue`.
    struct Property {
        var name: String
        var meaning: UInt64 = 0
        var multiple = false
        var value: (inout ProtobufWriter) -> Void = { _ in }
    }

    /// An entity with the key `path` (collection, ID, …) and `properties` (as `property`, 14).
    static func bytes(path: [String], properties: [Property], rawField: Int = 15) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(13) { key in
            key.string(13, "dev~roost-test")
            key.message(14) { elements in
                for k in stride(from: 0, to: path.count, by: 2) {
                    elements.group(1) { element in
                        element.string(2, path[k])
                        element.string(4, path[k + 1])
                    }
                }
            }
        }
        append(properties, rawField: rawField, to: &writer)
        return writer.bytes
    }

    static func append(_ properties: [Property], rawField: Int = 15, to writer: inout ProtobufWriter) {
        for property in properties {
            writer.message(rawField) { p in
                if property.meaning != 0 { p.varint(1, property.meaning) }
                p.string(3, property.name)
                p.bool(4, property.multiple)
                p.message(5, property.value)
            }
        }
    }

    /// A nested entity (a map's value, meaning 19): an empty key, then the properties.
    static func map(_ properties: [Property]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(13) { key in
            key.string(13, "")
            key.string(14, "")
        }
        append(properties, to: &writer)
        return writer.bytes
    }

    static func string(_ name: String, _ text: String) -> Property {
        Property(name: name) { $0.string(3, text) }
    }

    static func integer(_ name: String, _ value: Int64) -> Property {
        Property(name: name) { $0.int64(1, value) }
    }
}

/// An export folder with the entities `records` in `outputs` output files (one after
/// another, as many in each), and the metadata that lists them as the emulator writes it:
/// `folder/NAME.overall_export_metadata`, `folder/all_namespaces/all_kinds/`
/// `{all_namespaces_all_kinds.export_metadata, output-0, output-1, …}`.
@discardableResult
func writeExport(
    _ records: [[UInt8]], in temporary: TemporaryFolder, at folder: String, name: String = "export", outputs: Int = 1
) throws -> String {
    let kinds = "\(folder)/all_namespaces/all_kinds"
    let each = max(1, (records.count + outputs - 1) / outputs)
    var bytes = 0
    for k in 0..<outputs {
        var output = LogWriter()
        for record in records.dropFirst(k * each).prefix(each) { output.append(record) }
        try temporary.write("\(kinds)/output-\(k)", bytes: output.bytes)
        bytes += output.bytes.count
    }
    var kind = ProtobufWriter()
    kind.message(1) { $0.string(1, "roost-test") }
    kind.message(2) { entry in
        entry.string(1, "")
        for k in 0..<outputs { entry.string(2, "output-\(k)") }
    }
    var overall = LogWriter()
    overall.append([0x33])
    var list = ProtobufWriter()
    list.message(1) { entry in
        entry.message(1) { $0.varint(1, 2) }
        entry.string(2, "all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata")
        entry.varint(3, UInt64(records.count))
        entry.varint(4, UInt64(bytes))
    }
    overall.append(list.bytes)
    try temporary.write("\(kinds)/all_namespaces_all_kinds.export_metadata", bytes: kind.bytes)
    try temporary.write("\(folder)/\(name).overall_export_metadata", bytes: overall.bytes)
    return temporary.path(folder)
}

/// Fields with their pairs sorted by name, maps within too, and NaN made comparable: what two
/// stores must agree on (an export keeps empty arrays apart from the other fields, so their
/// order is not the written one).
func comparable(_ fields: Fields) -> [String: String] {
    Dictionary(fields.pairs.map { ($0.key, comparable($0.value)) }, uniquingKeysWith: { $1 })
}

func comparable(_ value: Value) -> String {
    switch value {
    case .double(let d) where d.isNaN: return "double(nan)"
    case .array(let values): return "array[" + values.map(comparable).joined(separator: ", ") + "]"
    case .map(let fields):
        return "map{"
            + comparable(fields).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            .joined(separator: ", ") + "}"
    default: return "\(value)"
    }
}

/// Every document of `store` as `comparable` fields, by path.
func comparableDocuments(_ store: DocumentStore) -> [String: [String: String]] {
    Dictionary(store.documents.map { ($0.path.description, comparable($0.fields)) }, uniquingKeysWith: { $1 })
}

/// What fields become once written to a directory store and read back (SPEC 2.4's forms for
/// timestamps, geopoints, references and bytes; null for a double that is not finite).
func plainFields(_ fields: Fields) -> Fields {
    guard case .map(let plain) = Value(json: DirectoryStoreWriter.jsonObject(fields)) else { return fields }
    return plain
}
