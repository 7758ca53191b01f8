import Protobuf
import Store

extension ListenResponse {
    /// The message `bytes` hold (one gRPC message of the stream, without its five-byte
    /// frame header). `source` becomes each document's `source` ("firestore://demo").
    /// Fields this client does not read are skipped; a message with none it reads is `.other`.
    package static func decode(
        _ bytes: some Collection<UInt8>, source: String
    ) throws(ListenDecodingError) -> ListenResponse {
        func run(_ raw: UnsafeRawBufferPointer) -> Result<ListenResponse, ListenDecodingError> {
            Result { () throws(ListenDecodingError) -> ListenResponse in
                var reader = ListenReader(ProtobufReader(raw))
                return try ListenDecoder(source: source).response(&reader)
            }
        }
        // `withUnsafeBytes` and its kin rethrow `any Error`: the result carries the typed one.
        let result =
            bytes.withContiguousStorageIfAvailable { run(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { run($0) }
        return try result.get()
    }
}

/// Decodes `ListenResponse` and the messages in it (google/firestore/v1/firestore.proto);
/// documents and values follow google/firestore/v1/document.proto (`ListenDecoder+Document`).
struct ListenDecoder {
    let source: String

    /// How deep arrays and maps may nest: well past Firestore's 20, and bounded so that a
    /// hostile message cannot exhaust the stack.
    static let maxDepth = 100

    // MARK: ListenResponse

    func response(_ reader: inout ListenReader) throws(ListenDecodingError) -> ListenResponse {
        var response = ListenResponse.other
        // `response_type` is a oneof: the last one given wins.
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 2:
                var inner = try reader.message(tag)
                response = .targetChange(try targetChange(&inner))
            case 3:
                var inner = try reader.message(tag)
                response = try documentChange(&inner, at: tag.offset)
            case 4:
                var inner = try reader.message(tag)
                let (path, removed) = try namedDocument(&inner, removedField: 6)
                response = .documentDelete(path, removedTargetIDs: removed)
            case 5:
                var inner = try reader.message(tag)
                response = try existenceFilter(&inner)
            case 6:
                var inner = try reader.message(tag)
                let (path, removed) = try namedDocument(&inner, removedField: 2)
                response = .documentRemove(path, removedTargetIDs: removed)
            default:
                try reader.skip(tag)
            }
        }
        return response
    }

    /// `TargetChange`: type=1, target_ids=2, cause=3, resume_token=4, read_time=6.
    func targetChange(_ reader: inout ListenReader) throws(ListenDecodingError) -> TargetChange {
        var change = TargetChange(kind: .noChange)
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1:
                let type = try reader.int32(tag)
                guard let kind = TargetChange.Kind(rawValue: type) else {
                    throw ListenDecodingError(.unknownTargetChangeType(type), at: tag.offset)
                }
                change.kind = kind
            case 2:
                try reader.appendInt32s(tag, to: &change.targetIDs)
            case 3:
                var inner = try reader.message(tag)
                change.cause = try status(&inner)
            case 4:
                change.resumeToken = try reader.bytes(tag)
            case 6:
                var inner = try reader.message(tag)
                change.readTime = try timestamp(&inner)
            default:
                try reader.skip(tag)
            }
        }
        return change
    }

    /// `google.rpc.Status` (google/rpc/status.proto): code=1, message=2; details=3 skipped.
    func status(_ reader: inout ListenReader) throws(ListenDecodingError) -> ListenStatus {
        var status = ListenStatus(code: 0, message: "")
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1: status.code = try reader.int32(tag)
            case 2: status.message = try reader.string(tag)
            default: try reader.skip(tag)
            }
        }
        return status
    }

    /// `DocumentChange`: document=1, target_ids=5, removed_target_ids=6.
    func documentChange(_ reader: inout ListenReader, at offset: Int) throws(ListenDecodingError) -> ListenResponse {
        var document: ListenDocument?
        var targetIDs: [Int32] = []
        var removedTargetIDs: [Int32] = []
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1:
                var inner = try reader.message(tag)
                document = try self.document(&inner, at: tag.offset)
            case 5: try reader.appendInt32s(tag, to: &targetIDs)
            case 6: try reader.appendInt32s(tag, to: &removedTargetIDs)
            default: try reader.skip(tag)
            }
        }
        guard let document else { throw ListenDecodingError(.missingDocument, at: offset) }
        return .documentChange(document, targetIDs: targetIDs, removedTargetIDs: removedTargetIDs)
    }

    /// `DocumentDelete` (document=1, removed_target_ids=6) and `DocumentRemove` (document=1,
    /// removed_target_ids=2): a name and target IDs each; their read_time=4 is not needed.
    func namedDocument(
        _ reader: inout ListenReader, removedField: Int
    ) throws(ListenDecodingError) -> (DocumentPath, [Int32]) {
        var name = ""
        var nameOffset = reader.offset
        var removedTargetIDs: [Int32] = []
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1:
                name = try reader.string(tag)
                nameOffset = tag.offset
            case removedField:
                try reader.appendInt32s(tag, to: &removedTargetIDs)
            default:
                try reader.skip(tag)
            }
        }
        return (try documentPath(name, at: nameOffset), removedTargetIDs)
    }

    /// `ExistenceFilter`: target_id=1, count=2; unchanged_names=3 (a bloom filter) skipped.
    func existenceFilter(_ reader: inout ListenReader) throws(ListenDecodingError) -> ListenResponse {
        var targetID: Int32 = 0
        var count: Int32 = 0
        while let tag = try reader.nextTag() {
            switch tag.number {
            case 1: targetID = try reader.int32(tag)
            case 2: count = try reader.int32(tag)
            default: try reader.skip(tag)
            }
        }
        return .filter(targetID: targetID, count: count)
    }
}
