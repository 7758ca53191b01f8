import Support

/// Handles (SPEC 3): the lowercased username when it matches `[A-Za-z0-9_]{1,30}` and
/// no other user has the same lowercased username; otherwise `u-` and a form of the uid.
/// Safe usernames never contain `-`, so the two kinds cannot collide; uids that differ only in
/// case get the hashed form, so no two handles differ only in case.
extension Snapshot {
    static func assignHandles(_ users: inout [User]) -> [Diagnostic] {
        var sharing: [String: [Int]] = [:]
        for (i, user) in users.enumerated() { sharing[user.username.lowercased(), default: []].append(i) }
        var diagnostics: [Diagnostic] = []
        for i in users.indices {
            let folded = users[i].username.lowercased()
            let holders = sharing[folded]!
            if holders.count == 1, isSafeUsername(users[i].username) {
                users[i].handle = folded
            } else {
                users[i].handle = fallbackHandle(uid: users[i].uid)
            }
            if holders.count > 1, holders[0] == i {
                let others = holders.dropFirst().map { "users/\(users[$0].uid) ('\(users[$0].username)')" }
                diagnostics.append(
                    Diagnostic(
                        .sharedHandle, path: "users/\(users[i].uid)", field: "username",
                        "'\(users[i].username)' is the same handle as \(others.joined(separator: ", ")); "
                            + "each gets a uid-derived handle"))
            }
        }
        // uids that differ only in case (`u-Abc`, `u-abc`) would share a folder on a
        // case-insensitive file system: those take the hashed form.
        for group in CaseFold.clashes(in: users.map(\.handle)) {
            for i in group { users[i].handle = "u-" + StableHash.hex(StableHash.fnv1a(users[i].uid)) }
        }
        return diagnostics
    }

    static func isSafeUsername(_ name: String) -> Bool {
        let bytes = name.utf8
        return (1...30).contains(bytes.count) && bytes.allSatisfy(isWordByte)
    }

    /// `u-{uid}` when the uid is plain ASCII of reasonable length, else `u-` and a
    /// 64-bit FNV-1a hash of it in hex: stable, and always a valid path segment.
    static func fallbackHandle(uid: String) -> String {
        let bytes = uid.utf8
        if (1...100).contains(bytes.count), bytes.allSatisfy({ isWordByte($0) || $0 == UInt8(ascii: "-") }) {
            return "u-" + uid
        }
        return "u-" + StableHash.hex(StableHash.fnv1a(uid))
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95
    }
}
