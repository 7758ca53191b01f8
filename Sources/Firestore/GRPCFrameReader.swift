/// gRPC's length-prefixed messages (the "Length-Prefixed-Message" of gRPC over HTTP/2): a
/// flag byte (0: not compressed), a big-endian UInt32 length, the message. The reader takes
/// a response body in whatever chunks the network gives and yields whole messages in order.
package struct GRPCFrameReader: Sendable {
    /// The longest message taken: Firestore's documents are at most 1 MiB, a listen response
    /// holds one; anything near this bound is a peer that is not speaking gRPC.
    package static let maxMessageLength = 64 << 20

    /// Bytes of a frame not yet whole: its prefix, or its prefix and part of its message.
    private var pending: [UInt8] = []

    package init() {}

    /// True when no part of a frame is waiting for the rest (a body that ends otherwise was cut).
    package var isAtFrameBoundary: Bool { pending.isEmpty }

    /// The messages `chunk` completes, in order. After an error the reader is not to be used again.
    package mutating func append(_ chunk: UnsafeRawBufferPointer) throws(GRPCFrameError) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var rest = chunk[...]
        while !rest.isEmpty {
            if pending.count < 5 {
                // The prefix, possibly split over chunks.
                let take = min(5 - pending.count, rest.count)
                pending.append(contentsOf: rest.prefix(take))
                rest = rest.dropFirst(take)
                guard pending.count == 5 else { break }
                guard pending[0] == 0 else { throw .compressed(flag: pending[0]) }
                let length = Self.length(pending)
                guard length <= Self.maxMessageLength else { throw .tooLong(length) }
                pending.reserveCapacity(5 + length)
            }
            let length = Self.length(pending)
            let take = min(5 + length - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            if pending.count == 5 + length {
                messages.append(Array(pending[5...]))
                pending.removeAll()
            }
        }
        return messages
    }

    package mutating func append(_ chunk: [UInt8]) throws(GRPCFrameError) -> [[UInt8]] {
        // (withUnsafeBytes rethrows untyped: the error goes through a Result.)
        try chunk.withUnsafeBytes { bytes in Result { () throws(GRPCFrameError) in try append(bytes) } }.get()
    }

    /// `message` framed: the flag 0, its length, its bytes.
    package static func frame(_ message: [UInt8]) -> [UInt8] {
        let length = UInt32(message.count)
        var bytes: [UInt8] = [0]
        bytes.reserveCapacity(5 + message.count)
        for shift in [24, 16, 8, 0] as [UInt32] { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
        bytes.append(contentsOf: message)
        return bytes
    }

    private static func length(_ prefix: [UInt8]) -> Int {
        Int(prefix[1]) << 24 | Int(prefix[2]) << 16 | Int(prefix[3]) << 8 | Int(prefix[4])
    }
}

/// A response body that is not a stream of uncompressed gRPC messages.
package enum GRPCFrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A message marked compressed: no `grpc-encoding` is ever asked for, so none may come.
    case compressed(flag: UInt8)
    /// A length over `GRPCFrameReader.maxMessageLength`.
    case tooLong(Int)

    package var description: String {
        switch self {
        case .compressed(let flag): "a gRPC message marked compressed (flag \(flag)), though none was asked for"
        case .tooLong(let length):
            "a gRPC message of \(length) bytes, over the \(GRPCFrameReader.maxMessageLength) taken"
        }
    }
}
