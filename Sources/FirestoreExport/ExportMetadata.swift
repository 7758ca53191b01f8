import Protobuf

/// What an export's metadata files say (as the emulator and `gcloud firestore export` write
/// them; the field numbers were read from their files, the meaning from what they held).
///
/// `NAME.overall_export_metadata` is a LevelDB log: a first record of one byte (`3`, a
/// format's mark, not read), then records whose repeated field 1 lists the exported kinds, each with the path of
/// its `.export_metadata` file relative to the export (2), its documents (3) and the bytes of
/// its output files (4). A kind's `.export_metadata` is one protobuf message whose field 2
/// lists its output files by their names beside the metadata (its repeated field 2: the
/// emulator writes a file of output for every 1.2 MB or so).
enum ExportMetadata {
    /// One kind of entity an export lists (`all_kinds`, or a collection's when the export was
    /// of some collections).
    struct Kind: Equatable {
        /// The kind's `.export_metadata`, relative to the export's folder.
        let metadataFile: String
        /// What the metadata counted, when it says.
        let documents: Int?
        let bytes: Int?
    }

    /// The kinds `NAME.overall_export_metadata`'s bytes list.
    static func kinds(inOverall file: [UInt8]) throws(ExportDamage) -> [Kind] {
        let records = try LevelDBLog.records(in: file)
        guard !records.isEmpty else { throw ExportDamage(at: 0, "the metadata holds no record") }
        var kinds: [Kind] = []
        for record in records.dropFirst() {
            do throws(ExportDamage) {
                try withBytes(record.payload) { (raw) throws(ExportDamage) in
                    var reader = MessageReader(ProtobufReader(raw), what: "the export's metadata")
                    while let tag = try reader.nextTag() {
                        guard tag.number == 1 else {
                            try reader.skip(tag)
                            continue
                        }
                        kinds.append(try kind(reader.message(tag, "a kind's entry"), at: tag.offset))
                    }
                }
            } catch {
                throw ExportDamage(at: record.fileOffset(ofByte: error.offset), error.detail)
            }
        }
        return kinds
    }

    private static func kind(_ entry: consuming MessageReader, at offset: Int) throws(ExportDamage) -> Kind {
        var path: String?
        var documents: Int?
        var bytes: Int?
        while let field = try entry.nextTag() {
            switch field.number {
            case 2: path = try entry.string(field)
            case 3: documents = Int(clamping: try entry.varint(field))
            case 4: bytes = Int(clamping: try entry.varint(field))
            default: try entry.skip(field)
            }
        }
        guard let path, isRelative(path) else {
            throw ExportDamage(at: offset, "a kind's entry without the path of its .export_metadata inside the export")
        }
        return Kind(metadataFile: path, documents: documents, bytes: bytes)
    }

    /// The output files a kind's `.export_metadata` lists, by name beside it.
    static func outputs(inKind file: [UInt8]) throws(ExportDamage) -> [String] {
        try withBytes(file[...]) { (raw) throws(ExportDamage) -> [String] in
            var reader = MessageReader(ProtobufReader(raw), what: "a kind's metadata")
            var outputs: [String] = []
            while let tag = try reader.nextTag() {
                guard tag.number == 2 else {
                    try reader.skip(tag)
                    continue
                }
                var entry = try reader.message(tag, "the output files' entry")
                while let field = try entry.nextTag() {
                    guard field.number == 2 else {
                        try entry.skip(field)
                        continue
                    }
                    let name = try entry.string(field)
                    guard isRelative(name) else {
                        throw ExportDamage(
                            at: field.offset, "an output file \"\(name)\" that is not beside the metadata")
                    }
                    outputs.append(name)
                }
            }
            return outputs
        }
    }

    /// True for a path that stays inside the folder it is relative to.
    static func isRelative(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
    }
}
