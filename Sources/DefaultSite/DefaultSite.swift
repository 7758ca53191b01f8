/// What `roost` carries inside its binary: the default theme (the repository's
/// `templates/`) and the sample store that `roost init` writes (its `content/`). The
/// EmbedDefaultSite build-tool plugin (`Plugins/`) generates their data at build time, so
/// an edit to either folder is in the next `swift build`.
package enum DefaultSite {
    /// One embedded file.
    package struct File: Sendable, Equatable {
        /// Relative to its folder, `/`-separated: `partials/card.mustache`, `users/u1.json`.
        package let path: String
        package let bytes: [UInt8]
    }

    /// The default theme: templates and `static/` files, in path order.
    package static let theme: [File] = embeddedTheme.withUTF8Buffer { unpack(UnsafeRawBufferPointer($0)) }
    /// The sample store (a directory store), in path order.
    package static let store: [File] = embeddedStore.withUTF8Buffer { unpack(UnsafeRawBufferPointer($0)) }

    /// The files of an archive as `embed-files` writes it: per file, the path, NUL, `t` (text
    /// follows) or `b` (base64 follows), NUL, the count of bytes that follow, NUL, the bytes.
    static func unpack(_ archive: UnsafeRawBufferPointer) -> [File] {
        var files: [File] = []
        var rest = archive[...]
        func field() -> String {
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            defer { rest = rest[min(end + 1, rest.endIndex)...] }
            return String(decoding: rest[..<end], as: UTF8.self)
        }
        while !rest.isEmpty {
            let path = field()
            let kind = field()
            let count = min(Int(field()) ?? 0, rest.count)
            let body = Array(rest.prefix(count))
            rest = rest.dropFirst(count)
            files.append(File(path: path, bytes: kind == "b" ? base64Decoded(body) : body))
        }
        return files
    }

    /// Standard base64 (as `embed-files` writes it) to bytes; other characters are skipped.
    static func base64Decoded(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var group = 0
        var bits = 0
        for c in text {
            let value: Int
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(c) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(c) - 97 + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(c) - 48 + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: continue
            }
            group = (group << 6 | value) & 0xFFFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((group >> bits) & 0xFF))
            }
        }
        return out
    }
}
