import Foundation

extension JSONParser {
    /// Parses `Data` or any other contiguous bytes.
    package static func parse(_ bytes: some ContiguousBytes) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }
}
