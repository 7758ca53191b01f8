import JSON

/// A credentials file's JSON object while it is read, with the errors that name the file.
struct CredentialsFile {
    /// Google's OAuth 2.0 token endpoint: where tokens come from when a file names none.
    static let googleTokenURI = "https://oauth2.googleapis.com/token"

    let object: JSONValue
    let type: String
    let path: String
    let database: String

    func bad(_ detail: String) -> FirestoreError {
        .badCredentials(database: database, file: path, detail: detail)
    }

    /// The string fields `names`, in that order; all missing ones named at once, with what
    /// to do about it.
    func required(_ names: [String], remedy: String) throws(FirestoreError) -> [String] {
        var values: [String] = []
        var missing: [String] = []
        for name in names {
            if let value = try optional(name) { values.append(value) } else { missing.append(name) }
        }
        guard missing.isEmpty else {
            throw bad("it lacks \(Self.listed(missing)), which the type \(type) needs; \(remedy)")
        }
        return values
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The string field `name`, nil when absent or empty.
    func optional(_ name: String) throws(FirestoreError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value.isEmpty ? nil : value
        case let other?: throw bad("its field \(name) is \(other.kindDescription), not a string")
        }
    }
}
