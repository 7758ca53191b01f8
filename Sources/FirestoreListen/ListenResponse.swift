import Store

/// One message of a listen stream (google/firestore/v1/firestore.proto, `ListenResponse`).
package enum ListenResponse: Sendable, Equatable {
    case targetChange(TargetChange)
    /// A document added to or changed in `targetIDs`, or gone from `removedTargetIDs`.
    case documentChange(ListenDocument, targetIDs: [Int32], removedTargetIDs: [Int32])
    /// A document deleted (`DocumentDelete`).
    case documentDelete(DocumentPath, removedTargetIDs: [Int32])
    /// A document that no longer matches `removedTargetIDs` (`DocumentRemove`).
    case documentRemove(DocumentPath, removedTargetIDs: [Int32])
    /// How many documents `targetID` matches now (`ExistenceFilter`).
    case filter(targetID: Int32, count: Int32)
    /// A message of a kind this client does not know (a field it does not read).
    case other
}

/// `TargetChange`: what happened to some targets (none listed: to all of them).
package struct TargetChange: Sendable, Equatable {
    package enum Kind: Int32, Sendable, Equatable {
        case noChange = 0
        case add = 1
        case remove = 2
        case current = 3
        case reset = 4
    }

    package var kind: Kind
    package var targetIDs: [Int32]
    /// Why a target was removed (`google.rpc.Status`): its code and message.
    package var cause: ListenStatus?
    package var resumeToken: [UInt8]
    package var readTime: Timestamp?

    package init(
        kind: Kind, targetIDs: [Int32] = [], cause: ListenStatus? = nil, resumeToken: [UInt8] = [],
        readTime: Timestamp? = nil
    ) {
        self.kind = kind
        self.targetIDs = targetIDs
        self.cause = cause
        self.resumeToken = resumeToken
        self.readTime = readTime
    }
}

/// A gRPC status: its code (0 is OK; google/rpc/code.proto) and message.
package struct ListenStatus: Sendable, Equatable, CustomStringConvertible {
    package var code: Int32
    package var message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message.isEmpty ? "gRPC status \(code)" : "\(message) (gRPC status \(code))" }
}

/// A document as the stream sends it, with the time it was last written.
package struct ListenDocument: Sendable, Equatable {
    package var document: Document
    package var updateTime: Timestamp

    package init(document: Document, updateTime: Timestamp) {
        self.document = document
        self.updateTime = updateTime
    }
}
