/// A parsed JSON value. Objects keep their keys in document order, duplicates included
/// (look-ups with `subscript(key:)` take the last one, as most parsers do).
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number (always finite).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The value of `key` if this is an object holding it (the last one of duplicates).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        for pair in pairs.reversed() where pair.key == key { return pair.value }
        return nil
    }

    /// The object's pairs, or nil if this is not an object.
    package var objectPairs: [(key: String, value: JSONValue)]? {
        if case .object(let pairs) = self { return pairs }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as a Double, for `.integer` and `.double`.
    package var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// "an object", "a string", … for error messages.
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

/// Why a document is not valid JSON, and where (1-based line and column; the column
/// counts Unicode scalars, so a line of Korean text gives the column a user sees).
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// A grammar error: unexpected character, unterminated string, bad number, …
        case syntax
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// Arrays/objects nested deeper than `JSONParser.maxDepth`.
        case tooDeep
    }

    package var kind: Kind
    package var message: String
    package var line: Int
    package var column: Int
    /// 0-based byte offset of the error in the input.
    package var offset: Int

    package init(kind: Kind = .syntax, message: String, line: Int, column: Int, offset: Int) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `3:14: unexpected character 'x'`
    package var description: String { "\(line):\(column): \(message)" }
}
