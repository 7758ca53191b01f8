import Search

/// A caption's HTML (what `MarkdownRenderer` wrote) as a JSON tree, for result cards built by
/// `static/search.js` with DOM calls: a node is a string (text) or an array
/// `[tag, {attributes}?, children…]`. The browser makes elements of a fixed set of tags and
/// attributes from it and never parses markup, so store text cannot become markup there.
/// Only the renderer's own output is read: well-formed tags, quoted attributes, and the five
/// character references `HTMLWriter` writes (others are kept as they are).
enum CaptionTree {
    static func append(html: String, to out: inout [UInt8]) {
        let bytes = Array(html.utf8)
        var i = 0
        /// Per open element: whether a child has been written (for commas), and its tag.
        var open: [(tag: String, hasChild: Bool)] = [("", false)]
        out.append(UInt8(ascii: "["))
        func comma() {
            if open[open.count - 1].hasChild { out.append(UInt8(ascii: ",")) }
            open[open.count - 1].hasChild = true
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                var j = i + 1
                let closing = j < bytes.count && bytes[j] == UInt8(ascii: "/")
                if closing { j += 1 }
                let nameStart = j
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                let name = String(decoding: bytes[nameStart..<j], as: UTF8.self)
                var attributes: [(String, String)] = []
                while j < bytes.count, bytes[j] != UInt8(ascii: ">") {
                    if isNameByte(bytes[j]) {
                        let a = j
                        while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                        let attribute = String(decoding: bytes[a..<j], as: UTF8.self)
                        var value = ""
                        if j + 1 < bytes.count, bytes[j] == UInt8(ascii: "="), bytes[j + 1] == UInt8(ascii: "\"") {
                            let v = j + 2
                            j = v
                            while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += 1 }
                            value = decode(bytes[v..<min(j, bytes.count)])
                            j += 1
                        }
                        attributes.append((attribute, value))
                    } else {
                        j += 1
                    }
                }
                i = j + 1
                if closing {
                    if open.count > 1 {
                        open.removeLast()
                        out.append(UInt8(ascii: "]"))
                    }
                    continue
                }
                comma()
                out.append(UInt8(ascii: "["))
                JSONText.append(name, to: &out)
                if !attributes.isEmpty {
                    out += Array(",{".utf8)
                    for (k, (attribute, value)) in attributes.enumerated() {
                        if k > 0 { out.append(UInt8(ascii: ",")) }
                        JSONText.append(attribute, to: &out)
                        out.append(UInt8(ascii: ":"))
                        JSONText.append(value, to: &out)
                    }
                    out.append(UInt8(ascii: "}"))
                }
                if ["br", "hr", "img"].contains(name) {
                    out.append(UInt8(ascii: "]"))
                } else {
                    open.append((name, true))
                }
            } else {
                var j = i
                while j < bytes.count, bytes[j] != UInt8(ascii: "<") { j += 1 }
                let text = bytes[i..<j]
                i = j
                // Newlines between blocks show nothing; inside code they are the code.
                if text.allSatisfy({ $0 == 0x0A }), open.last?.tag != "code" { continue }
                comma()
                JSONText.append(decode(text), to: &out)
            }
        }
        while open.count > 1 {
            open.removeLast()
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-")
    }

    private static let references: [(String, String)] = [
        ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"),
    ]

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        for (reference, character) in references where reference != "&amp;" {
            text = text.replacing(reference, with: character)
        }
        return text.replacing("&amp;", with: "&")
    }
}
