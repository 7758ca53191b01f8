/// A database as named on the command line or in `roost.json` (SPEC 11):
/// `firestore://PROJECT` (the database `(default)`) or `firestore://PROJECT/DATABASE`.
package struct FirestoreAddress: Sendable, Hashable, CustomStringConvertible {
    package static let scheme = "firestore://"

    package let project: String
    package let database: String

    package init(project: String, database: String = "(default)") {
        self.project = project
        self.database = database
    }

    /// True when `location` is meant as a database (it starts with `firestore://`), whether
    /// or not the rest is a valid address.
    package static func isDatabase(_ location: String) -> Bool { location.hasPrefix(scheme) }

    /// The address `location` names, or why it is not one.
    package static func parse(_ location: String) throws(FirestoreError) -> FirestoreAddress {
        guard location.hasPrefix(scheme) else { throw .badAddress(location, "it does not start with \(scheme)") }
        let rest = location.dropFirst(scheme.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else {
            throw .badAddress(location, "expected firestore://PROJECT or firestore://PROJECT/DATABASE")
        }
        let project = String(parts[0])
        // Google's rules: project IDs are 6–30 of a-z, 0-9 and '-'; the emulator takes any
        // such name, shorter ones included (`demo`), so only the characters are checked.
        guard !project.isEmpty, project.utf8.allSatisfy(isProjectByte) else {
            throw .badAddress(location, "the project ID \"\(project)\" may hold only a-z, 0-9, '-', '.', ':' and '_'")
        }
        guard parts.count == 2 else { return FirestoreAddress(project: project) }
        let database = String(parts[1])
        guard !database.isEmpty, database.utf8.allSatisfy(isDatabaseByte) else {
            throw .badAddress(
                location, "the database ID \"\(database)\" may hold only a-z, 0-9 and '-' (or be (default))")
        }
        return FirestoreAddress(project: project, database: database)
    }

    /// `projects/P/databases/D`: the resource name every call carries.
    package var resourceName: String { "projects/\(project)/databases/\(database)" }

    /// `projects/P/databases/D/documents`: the parent of every document name.
    package var documentsRoot: String { resourceName + "/documents" }

    package var description: String {
        database == "(default)" ? "\(Self.scheme)\(project)" : "\(Self.scheme)\(project)/\(database)"
    }

    private static func isProjectByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x3A || b == 0x5F
    }

    private static func isDatabaseByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x28 || b == 0x29
    }
}
