import CCmark

/// Where a caption escapes `#` or `@` with a backslash (`\#swift`): Markdown's "this
/// character as it is", so no hashtag or mention may start there.
///
/// cmark merges an escaped character into the text around it, so its tree does not say
/// which `#` was escaped. Inline text nodes do carry their line and byte columns: the
/// node's source is read again and lined up with its literal. Where the two do not line up
/// as plain bytes and backslash escapes (an entity, a replaced NUL), the text is taken as
/// it is, every `#` and `@` in it a possible start.
struct EscapedSigils {
    /// The caption's lines (cmark's: ended by LF, CR LF or CR); empty when it escapes no `#`
    /// or `@`, the usual case, and then no text node is looked at again.
    private let lines: [ArraySlice<UInt8>]

    init(_ markdown: String) {
        var escapes = false
        var afterBackslash = false
        for byte in markdown.utf8 {
            if afterBackslash && (byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@")) {
                escapes = true
                break
            }
            afterBackslash = byte == UInt8(ascii: "\\") && !afterBackslash
        }
        guard escapes else {
            lines = []
            return
        }
        let bytes = Array(markdown.utf8)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var k = 0
        while k < bytes.count {
            let byte = bytes[k]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(bytes[start..<k])
                if byte == UInt8(ascii: "\r"), k + 1 < bytes.count, bytes[k + 1] == UInt8(ascii: "\n") { k += 1 }
                start = k + 1
            }
            k += 1
        }
        lines.append(bytes[start...])
        self.lines = lines
    }

    /// A piece of a text node's literal; an `escaped` one is a lone `#` or `@`.
    struct Piece {
        var text: String
        var escaped: Bool
    }

    /// `literal`, the text of `node`, cut around the `#` and `@` its source escapes.
    func pieces(of literal: String, node: OpaquePointer) -> [Piece] {
        guard !lines.isEmpty else { return [Piece(text: literal, escaped: false)] }
        let bytes = Array(literal.utf8)
        guard let offsets = escapedOffsets(of: bytes, node: node), !offsets.isEmpty else {
            return [Piece(text: literal, escaped: false)]
        }
        var pieces: [Piece] = []
        var start = 0
        for offset in offsets {
            if offset > start {
                pieces.append(Piece(text: String(decoding: bytes[start..<offset], as: UTF8.self), escaped: false))
            }
            pieces.append(Piece(text: String(decoding: bytes[offset..<offset + 1], as: UTF8.self), escaped: true))
            start = offset + 1
        }
        if start < bytes.count {
            pieces.append(Piece(text: String(decoding: bytes[start...], as: UTF8.self), escaped: false))
        }
        return pieces
    }

    /// The byte offsets in `literal` of each `#` or `@` escaped in the source; nil when the
    /// source does not line up with it.
    private func escapedOffsets(of literal: [UInt8], node: OpaquePointer) -> [Int]? {
        let line = Int(cmark_node_get_start_line(node))
        let first = Int(cmark_node_get_start_column(node))
        let last = Int(cmark_node_get_end_column(node))
        guard line >= 1, line <= lines.count, cmark_node_get_end_line(node) == Int32(line), first >= 1, last >= first
        else { return nil }
        let text = lines[line - 1]
        guard last <= text.count else { return nil }
        let source = text[(text.startIndex + first - 1)..<(text.startIndex + last)]
        var offsets: [Int] = []
        var i = source.startIndex
        var j = 0
        while i < source.endIndex {
            guard j < literal.count else { return nil }
            let byte = source[i]
            if byte == UInt8(ascii: "\\"), i + 1 < source.endIndex, isASCIIPunctuation(source[i + 1]),
                literal[j] == source[i + 1]
            {
                if literal[j] == UInt8(ascii: "#") || literal[j] == UInt8(ascii: "@") { offsets.append(j) }
                i += 2
            } else if byte == literal[j] {
                i += 1
            } else {
                return nil
            }
            j += 1
        }
        return j == literal.count ? offsets : nil
    }

    private func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }
}
