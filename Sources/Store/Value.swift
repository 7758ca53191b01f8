/// A field value of a document, as Firestore types it.
///
/// Directory stores hold plain JSON, so their values are only `null`, `bool`,
/// `integer`, `double`, `string`, `array` and `map`; the single-file formats
/// tag timestamps, geopoints, references and bytes, which keep their type here.
/// Interpreting an untagged value (an RFC 3339 string as a timestamp, say) is
/// the model's job, not the store's.
package enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case timestamp(Timestamp)
    case geoPoint(latitude: Double, longitude: Double)
    /// A document reference, as a path relative to the database root (`users/u1`).
    case reference(String)
    /// Base64 text, as Firestore exports bytes.
    case bytes(String)
    case array([Value])
    case map(Fields)
}

/// A document's fields, in the order the source gave them; the last of
/// duplicate keys wins on look-up. An array of pairs is far smaller than a
/// dictionary for the handful of fields a document has.
package struct Fields: Sendable, Equatable, Sequence {
    package private(set) var pairs: [(key: String, value: Value)]

    package init(_ pairs: [(key: String, value: Value)] = []) {
        self.pairs = pairs
    }

    package subscript(key: String) -> Value? {
        for pair in pairs.reversed() where pair.key == key { return pair.value }
        return nil
    }

    package var isEmpty: Bool { pairs.isEmpty }
    package var count: Int { pairs.count }

    package mutating func append(_ key: String, _ value: Value) {
        pairs.append((key, value))
    }

    package func makeIterator() -> IndexingIterator<[(key: String, value: Value)]> {
        pairs.makeIterator()
    }

    package static func == (lhs: Fields, rhs: Fields) -> Bool {
        lhs.pairs.count == rhs.pairs.count
            && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A point in time with nanosecond precision, as Firestore stores it.
package struct Timestamp: Sendable, Hashable, Comparable {
    package var seconds: Int64
    package var nanoseconds: Int32

    package init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
