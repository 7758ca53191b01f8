/// The record of what the last build wrote: `.roost-manifest` in the output folder.
///
/// Format (UTF-8, one entry a line, sorted by the path's bytes):
///
///     # roost-manifest 1
///     <hash: 16 lowercase hex digits> <size: decimal bytes> <path relative to the output folder>
///
/// An entry whose hash is `-` is "dirty": the file is ours but its content is unknown
/// (it was being replaced when a commit was interrupted); it never counts as unchanged.
/// Lines that do not parse, or whose path breaks `PathRules`, are ignored.
public struct ManifestEntry: Equatable, Sendable {
    public var hash: UInt64
    public var size: Int
    public var known: Bool

    public init(hash: UInt64, size: Int) { self.hash = hash; self.size = size; self.known = true }
    public static let dirty = ManifestEntry(unknown: ())
    private init(unknown: Void) { hash = 0; size = 0; known = false }

    func matches(hash: UInt64, size: Int) -> Bool { known && self.hash == hash && self.size == size }
}

public enum Manifest {
    public static let fileName = ".roost-manifest"
    static let header = "# roost-manifest 1\n"

    public static func encode(_ entries: [String: ManifestEntry]) -> [UInt8] {
        let paths = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var out = [UInt8]()
        out.reserveCapacity(header.utf8.count + paths.count * 64)
        out.append(contentsOf: header.utf8)
        let hex = Array("0123456789abcdef".utf8)
        for path in paths {
            let entry = entries[path]!
            if entry.known {
                for shift in stride(from: 60, through: 0, by: -4) {
                    out.append(hex[Int((entry.hash >> UInt64(shift)) & 0xF)])
                }
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: String(entry.size).utf8)
            } else {
                out.append(contentsOf: "- 0".utf8)
            }
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: path.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    public static func decode(_ bytes: [UInt8]) -> [String: ManifestEntry] {
        var entries = [String: ManifestEntry]()
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if let (path, entry) = parseLine(bytes[lineStart..<lineEnd]) { entries[path] = entry }
            lineStart = lineEnd + 1
        }
        return entries
    }

    private static func parseLine(_ line: ArraySlice<UInt8>) -> (String, ManifestEntry)? {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")),
              let secondSpace = line[(firstSpace + 1)...].firstIndex(of: UInt8(ascii: " ")),
              line.first != UInt8(ascii: "#")
        else { return nil }
        let hashField = line[line.startIndex..<firstSpace]
        guard let size = Int(String(decoding: line[(firstSpace + 1)..<secondSpace], as: UTF8.self)), size >= 0 else { return nil }
        let path = String(decoding: line[(secondSpace + 1)...], as: UTF8.self)
        guard PathRules.problem(with: path) == nil else { return nil }
        if hashField.elementsEqual("-".utf8) { return (path, .dirty) }
        guard hashField.count == 16, let hash = UInt64(String(decoding: hashField, as: UTF8.self), radix: 16) else { return nil }
        return (path, ManifestEntry(hash: hash, size: size))
    }
}
