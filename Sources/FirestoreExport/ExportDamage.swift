import Protobuf

/// Why bytes of an export are not what they should be, and where: the byte offset in the
/// bytes read (a log file's, or one record's until the record places it in its file), and the
/// document when it is known. The source turns it into `StoreError.damagedExport` with the
/// file's name.
package struct ExportDamage: Error, Sendable, Equatable {
    package var offset: Int
    package var document: String?
    package let detail: String

    package init(at offset: Int, document: String? = nil, _ detail: String) {
        self.offset = offset
        self.document = document
        self.detail = detail
    }

    /// A malformed protobuf message: what was being read, and the reader's reason.
    init(_ error: ProtobufError, reading what: String, document: String? = nil) {
        self.init(at: error.offset, document: document, "\(what): \(error.reason)")
    }
}
