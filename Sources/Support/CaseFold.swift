/// Names that a case-insensitive file system (macOS, Windows, a zip opened there) would take
/// for one: equal once case is folded (and, as Swift compares strings, canonically
/// equivalent), but not the same string. Pages named by them would overwrite each other.
public enum CaseFold {
    /// Groups of positions in `names` whose names clash that way, each sorted; names that
    /// clash with none are in no group. Identical names are not a clash.
    public static func clashes(in names: [String]) -> [[Int]] {
        // ASCII names (nearly all: IDs, handles) by a hash of their lowercased bytes, checked
        // exactly on a hit; others by their folded text. A hash seen once holds its first
        // name only (not a list per name: tens of thousands of them, nearly all alone).
        var first: [UInt64: Int] = [:]
        first.reserveCapacity(names.count)
        var byHash: [UInt64: [Int]] = [:]
        var byText: [String: [Int]] = [:]
        for (i, name) in names.enumerated() {
            if isASCII(name) {
                let hash = asciiFoldHash(name)
                if let j = first[hash] {
                    byHash[hash, default: [j]].append(i)
                } else {
                    first[hash] = i
                }
            } else {
                byText[name.uppercased().lowercased(), default: []].append(i)
            }
        }
        var groups: [[Int]] = []
        for (_, members) in byHash {
            // Split a hash bucket by the exact folded name (a hash collision is not a clash).
            var exact: [String: [Int]] = [:]
            for i in members { exact[names[i].lowercased(), default: []].append(i) }
            groups += exact.values.filter { Set($0.map { names[$0] }).count > 1 }
        }
        groups += byText.values.filter { group in
            // Only where the names differ as bytes: canonically equivalent spellings of one
            // name are the same string to Swift but two files to most file systems.
            Set(group.map { Array(names[$0].utf8) }).count > 1
        }
        return groups.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    private static func asciiFoldHash(_ name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { bytes in
            var hash = StableHash.fnvOffset
            for byte in bytes { hash = StableHash.fnv1a(hash, byte >= 65 && byte <= 90 ? byte + 32 : byte) }
            return hash
        }
    }
}
