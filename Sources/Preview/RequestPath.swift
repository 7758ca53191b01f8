/// Turning a raw request path into a path inside the site, refusing anything that could leave it.
enum RequestPath {
    /// A request path after decoding: `relative` has no leading slash; `isFolder` when it ended with `/`
    /// (then `relative` is `""` for the root or ends with `/`).
    struct Resolved: Equatable {
        var relative: String
        var isFolder: Bool

        /// The file to serve for it: `…/index.html` for a folder.
        var file: String { isFolder ? relative + "index.html" : relative }
    }

    /// `raw` is the path as it came in the request line (still percent-encoded; a query string,
    /// if any, is ignored). Returns nil for anything refused: not starting with `/`, a bad `%`
    /// escape, NUL or other control characters, a backslash, invalid UTF-8, an empty segment
    /// (`//`), or a segment starting with `.` (`.`, `..`, dot-files) — also when spelled with escapes.
    static func resolve(_ raw: String) -> Resolved? {
        var raw = Substring(raw)
        if let q = raw.firstIndex(where: { $0 == "?" || $0 == "#" }) { raw = raw[..<q] }
        let input = Array(raw.utf8)
        guard input.first == UInt8(ascii: "/") else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(input.count)
        var i = 1
        while i < input.count {
            let byte = input[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < input.count, let high = hexValue(input[i + 1]), let low = hexValue(input[i + 2]) else {
                    return nil
                }
                decoded.append(high << 4 | low)
                i += 3
            } else {
                decoded.append(byte)
                i += 1
            }
        }
        for byte in decoded where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
            return nil
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { return nil }
        if text.isEmpty { return Resolved(relative: "", isFolder: true) }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty {
                if index == segments.count - 1 { continue }  // the trailing slash of a folder
                return nil
            }
            if segment.hasPrefix(".") { return nil }
        }
        return Resolved(relative: text, isFolder: text.hasSuffix("/"))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
