import Protobuf

/// Why the bytes of a listen stream's message are not a `ListenResponse` this client can use,
/// and the byte of the message where that was found.
package struct ListenDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// Not well-formed protobuf (a truncated varint, a length past the end, …).
        case malformed(ProtobufError.Kind)
        /// A document name that is not `projects/P/databases/D/documents/` and collection/ID
        /// pairs.
        case notADocumentName(String)
        /// A `DocumentChange` without its `document`.
        case missingDocument
        /// A `TargetChange.type` outside NO_CHANGE…RESET: an error rather than something to
        /// skip, as Google's clients treat it, since a change of unknown meaning cannot be
        /// applied safely.
        case unknownTargetChangeType(Int32)
        /// A `Value` with no type this client knows (none set, or only newer ones).
        case untypedValue
        /// Arrays and maps nested deeper than `ListenDecoder.maxDepth` (Firestore allows 20).
        case nestedTooDeeply
    }

    package let reason: Reason
    /// The byte of the message where the problem starts.
    package let offset: Int

    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package init(_ error: ProtobufError) {
        self.init(.malformed(error.kind), at: error.offset)
    }

    package var description: String {
        let text =
            switch reason {
            case .malformed(let kind): ProtobufError(kind, at: offset).reason
            case .notADocumentName(let name): "document name \"\(name)\" is not a document path"
            case .missingDocument: "a document change without a document"
            case .unknownTargetChangeType(let type): "target change type \(type) is not one this client knows"
            case .untypedValue: "a value of no type this client knows"
            case .nestedTooDeeply: "arrays and maps nested more than \(ListenDecoder.maxDepth) deep"
            }
        return "listen response: byte \(offset): \(text)"
    }
}
