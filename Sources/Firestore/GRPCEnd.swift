/// How a gRPC call ended (`GRPCStream`'s `onEnd`).
package enum GRPCEnd: Sendable, Equatable, CustomStringConvertible {
    /// The server ended it with a gRPC status: `grpc-status` (0 OK, 1 CANCELLED, 14
    /// UNAVAILABLE, …) and `grpc-message`, decoded, from the trailers, or from the headers of
    /// an answer that is trailers only (a call refused at once).
    case status(code: Int32, message: String)
    /// The transport failed: the host unreachable, the connection reset or closed, an HTTP
    /// status other than 200, nothing received for too long, an answer that is not gRPC, no
    /// token. The text names the host (or the database, for a token) and what happened.
    case failed(String)

    package var description: String {
        switch self {
        case .status(let code, let message):
            "gRPC status \(code) (\(Self.statusName(code)))" + (message.isEmpty ? "" : ": \(message)")
        case .failed(let text): text
        }
    }

    /// gRPC's names of its status codes, for messages.
    package static func statusName(_ code: Int32) -> String {
        let names = [
            "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
            "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
            "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
        ]
        return code >= 0 && Int(code) < names.count ? names[Int(code)] : "code \(code)"
    }

    /// `grpc-message` as sent: UTF-8, percent-encoded (gRPC over HTTP/2). A `%` not followed
    /// by two hex digits stays as it is, as the spec asks of a receiver.
    package static func decodeMessage(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]),
                let low = hex(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
