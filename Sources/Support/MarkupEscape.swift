/// Text made safe for an HTML page or an XML document (an Atom feed), written once for
/// templates, Markdown and the preview server alike.
///
/// `& < > " '` become entities, and characters that neither HTML nor XML 1.0 allow in a
/// document (C0 controls but tab, line feed and carriage return; DEL and C1 controls;
/// U+FFFE, U+FFFF) or that HTML calls noncharacters (U+FDD0 to U+FDEF, and the last two
/// code points of every plane) become U+FFFD, so a value from the store cannot make a page
/// invalid or a feed ill-formed.
public enum MarkupEscape {
    /// Appends `bytes` (UTF-8), escaped. On the hot path of rendering: inlinable, byte by byte,
    /// copying the runs between special bytes whole.
    @inlinable @inline(__always)
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // All special bytes are below 0x3F, or 0x7F, 0xC2 or 0xEF; most text is none.
            var replacement: StaticString?
            var length = 1
            if b < 0x3F {
                replacement = entity(b)
                if replacement == nil, b < 0x20, b != 0x09, b != 0x0A, b != 0x0D { replacement = "\u{FFFD}" }
            } else if b == 0x7F {
                replacement = "\u{FFFD}"
            } else if b == 0xC2, i + 1 < n, (0x80...0x9F).contains(bytes[i + 1]) {
                replacement = "\u{FFFD}"
                length = 2
            } else if b == 0xEF, i + 2 < n,
                bytes[i + 1] == 0xBF && bytes[i + 2] >= 0xBE
                    || bytes[i + 1] == 0xB7 && (0x90...0xAF).contains(bytes[i + 2])
            {
                // U+FFFE, U+FFFF, U+FDD0 to U+FDEF
                replacement = "\u{FFFD}"
                length = 3
            } else if b >= 0xF0, i + 3 < n, bytes[i + 1] & 0x0F == 0x0F, bytes[i + 2] == 0xBF, bytes[i + 3] >= 0xBE {
                // U+1FFFE, U+1FFFF, … U+10FFFF: the last two code points of every plane
                replacement = "\u{FFFD}"
                length = 4
            }
            if let replacement {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }  // (a one-scalar literal has no utf8Start)
                runStart = i + length
            }
            i += length
        }
        if runStart < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
    }

    /// Appends `text`, escaped.
    @inlinable @inline(__always)
    public static func append(_ text: String, to out: inout [UInt8]) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0, to: &out) }
        if done == nil {
            var copy = text
            copy.withUTF8 { append($0, to: &out) }
        }
    }

    /// `text`, escaped.
    public static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inlinable @inline(__always)
    internal static func entity(_ b: UInt8) -> StaticString? {
        switch b {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        case UInt8(ascii: "'"): return "&#39;"
        default: return nil
        }
    }
}
