/// The rules every path given to `SiteWriter.write` must follow, so that writes stay inside
/// the output folder and never touch the writer's own bookkeeping files.
package enum PathRules {
    /// Names starting with this are reserved for the writer (`.roost-manifest`, `.roost-lock`, …).
    package static let reservedPrefix = ".roost-"
    package static let maxSegmentBytes = 255
    private static let reservedBytes = Array(reservedPrefix.utf8)

    /// Why `path` is refused, or nil if it is safe.
    package static func problem(with path: String) -> String? {
        let bytes = path.utf8
        if bytes.isEmpty { return "the path is empty" }
        if bytes.first == UInt8(ascii: "/") { return "the path is absolute; give it relative to the output folder" }
        var length = 0
        var dots = 0  // segment consists only of this many dots so far (-1: not only dots)
        var reservedMatch = 0  // bytes of `.roost-` matched at the segment start (-1: no match)
        let reserved = reservedBytes
        func endSegment() -> String? {
            if length == 0 { return "the path has an empty segment (\"//\", or a trailing \"/\")" }
            if dots == 1 || dots == 2 { return "the path has a \"\(dots == 1 ? "." : "..")\" segment" }
            if length > maxSegmentBytes { return "a path segment is longer than \(maxSegmentBytes) bytes" }
            return nil
        }
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if let problem = endSegment() { return problem }
                length = 0
                dots = 0
                reservedMatch = 0
                continue
            }
            switch byte {
            case 0: return "the path contains a NUL byte"
            case UInt8(ascii: "\\"): return "the path contains a backslash; use \"/\" between folders"
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "the path contains a line break"
            default: break
            }
            if dots >= 0 { dots = byte == UInt8(ascii: ".") ? dots + 1 : -1 }
            if reservedMatch >= 0 {
                if reservedMatch < reserved.count, reserved[reservedMatch] == byte {
                    reservedMatch += 1
                    if reservedMatch == reserved.count {
                        return "names starting with \"\(reservedPrefix)\" are reserved for roost's own files"
                    }
                } else {
                    reservedMatch = -1
                }
            }
            length += 1
        }
        return endSegment()
    }
}

/// The folders above `path`, outermost first: `a/b/c.html` → `a`, `a/b`.
func parentFolders(of path: String) -> [String] {
    var folders: [String] = []
    let utf8 = path.utf8
    var index = utf8.startIndex
    while let slash = utf8[index...].firstIndex(of: UInt8(ascii: "/")) {
        folders.append(String(path[..<slash]))
        index = utf8.index(after: slash)
    }
    return folders
}
