import FirestoreListen
import Protobuf
import Store

/// Builders of hand-made responses (field numbers from firestore.proto and document.proto).
enum Messages {
    static let database = "projects/p/databases/d"
    static let source = "firestore://demo"

    static func name(_ path: String) -> String { database + "/documents/" + path }

    static func bytes(_ write: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var writer = ProtobufWriter()
        write(&writer)
        return writer.bytes
    }

    /// A map entry key=1, value=2 as field `number`.
    static func entry(
        _ writer: inout ProtobufWriter, _ number: Int, _ key: String, _ value: (inout ProtobufWriter) -> Void
    ) {
        writer.message(number) { e in
            e.string(1, key)
            e.message(2, value)
        }
    }

    /// A `Timestamp` as field `number`.
    static func timestamp(_ writer: inout ProtobufWriter, _ number: Int, _ seconds: Int64, _ nanos: Int64) {
        writer.message(number) { t in
            t.int64(1, seconds)
            t.int64(2, nanos)
        }
    }

    static func decode(_ bytes: [UInt8]) throws(ListenDecodingError) -> ListenResponse {
        try ListenResponse.decode(bytes, source: source)
    }
}
