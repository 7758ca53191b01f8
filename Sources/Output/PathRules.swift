/// The rules every path given to `SiteWriter.write` must follow, so that writes stay inside
/// the output folder and never touch the writer's own bookkeeping files.
package enum PathRules {
    /// Names starting with this are reserved for the writer (`.roost-manifest`, `.roost-lock`, …).
    package static let reservedPrefix = ".roost-"
    package static let maxSegmentBytes = 255
    private static let reservedBytes = Array(reservedPrefix.utf8)

    /// Why `path` is refused, or nil if it is safe.
    package static func problem(with path: String) -> String? {
        var path = path
        return path.withUTF8 { problem(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Why the path of UTF-8 `bytes` is refused, or nil if it is safe: the first problem in
    /// the order of its bytes. (Over raw bytes: a rebuild checks every path of the manifest.)
    static func problem(bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count
        if count == 0 { return "the path is empty" }
        let (slash, dot) = (UInt8(ascii: "/"), UInt8(ascii: "."))
        if bytes[0] == slash { return "the path is absolute; give it relative to the output folder" }
        var start = 0
        while true {
            var end = start
            while end < count {
                let byte = bytes[end]
                if byte == slash { break }
                switch byte {
                case 0: return "the path contains a NUL byte"
                case UInt8(ascii: "\\"): return "the path contains a backslash; use \"/\" between folders"
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "the path contains a line break"
                default: break
                }
                end += 1
                if end - start == 7, bytes[start..<end].elementsEqual(reservedBytes) {  // (".roost-")
                    return "names starting with \"\(reservedPrefix)\" are reserved for roost's own files"
                }
            }
            let length = end - start
            if length == 0 { return "the path has an empty segment (\"//\", or a trailing \"/\")" }
            if length <= 2, bytes[start] == dot, bytes[end - 1] == dot {
                return "the path has a \"\(length == 1 ? "." : "..")\" segment"
            }
            if length > maxSegmentBytes { return "a path segment is longer than \(maxSegmentBytes) bytes" }
            if end == count { return nil }
            start = end + 1
        }
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
