/// One piece of a template: literal text, a line start, or a tag.
struct Token {
    enum Kind: Equatable {
        case text
        case lineStart
        case variable(escaped: Bool)
        case section
        case inverted
        case close
        case comment
        case partial
        case parent
        case block
        case setDelimiters
    }

    var kind: Kind
    var bytes: [UInt8] = []
    var name: String = ""
    var isDynamic = false
    /// For a close tag: whether it closes a parent `{{<x}}`.
    var closesParent = false
    /// Tag start and end offsets in the source.
    var start = 0
    var end = 0
    var location = SourceLocation(file: "", line: 0, column: 0)
    /// The delimiters in force when the tag was read.
    var delimiters = Delimiters.standard
    var isStandalone = false
    /// For a standalone tag, the whitespace that began its line; for another
    /// tag, the text before it on its line when that is all whitespace.
    var lineIndent: [UInt8] = []

    var isTag: Bool { kind != .text && kind != .lineStart }

    /// Tags that may stand alone on a line (which is then removed from output).
    var canStandAlone: Bool {
        switch kind {
        case .section, .inverted, .close, .comment, .partial, .parent, .block, .setDelimiters: return true
        default: return false
        }
    }
}

/// Splits template source into tokens, resolving standalone lines:
/// a line holding only whitespace and one standalone-capable tag (not counting
/// parent tags `{{<x}}`/`{{/x}}` that open or close on it) is removed from the
/// output; its leading whitespace becomes the tag's indentation.
struct Lexer {
    let source: [UInt8]
    let file: String
    var delimiters: Delimiters
    var tokens: [Token] = []
    var line: [Token] = []
    /// Names of open sections, to tell a parent's close tag.
    var openKinds: [Token.Kind] = []
    var lineNumber = 1
    var lineStartOffset = 0

    init(source: [UInt8], file: String, delimiters: Delimiters = .standard) {
        self.source = source
        self.file = file
        self.delimiters = delimiters
    }

    static func tokenize(_ source: [UInt8], file: String, delimiters: Delimiters = .standard) throws -> [Token] {
        var lexer = Lexer(source: source, file: file, delimiters: delimiters)
        try lexer.run()
        return lexer.tokens
    }

    /// 1-based line and column (in characters) of `offset`, at or after the
    /// current line start.
    func location(_ offset: Int) -> SourceLocation {
        let column = String(decoding: source[lineStartOffset..<offset], as: UTF8.self).count + 1
        return SourceLocation(file: file, line: lineNumber, column: column)
    }

    mutating func passNewlines(_ from: Int, _ to: Int) {
        for i in from..<to where source[i] == 10 {
            lineNumber += 1
            lineStartOffset = i + 1
        }
    }

    func matches(_ pattern: [UInt8], at i: Int) -> Bool {
        if i + pattern.count > source.count { return false }
        var k = 0
        while k < pattern.count {
            if source[i + k] != pattern[k] { return false }
            k += 1
        }
        return true
    }

    func find(_ pattern: [UInt8], from i: Int) -> Int? {
        var j = i
        while j + pattern.count <= source.count {
            if matches(pattern, at: j) { return j }
            j += 1
        }
        return nil
    }

    mutating func run() throws {
        var pos = 0
        var textStart = 0
        let n = source.count
        let newline = UInt8(ascii: "\n")
        while pos < n {
            let b = source[pos]
            if b == newline {
                addText(textStart, pos + 1)
                flushLine()
                pos += 1
                lineNumber += 1
                lineStartOffset = pos
                textStart = pos
            } else if b == delimiters.open[0] && matches(delimiters.open, at: pos) {
                addText(textStart, pos)
                let end = try readTag(at: pos)
                passNewlines(pos, end)
                pos = end
                textStart = pos
            } else {
                pos += 1
            }
        }
        addText(textStart, n)
        flushLine()
    }

    mutating func addText(_ from: Int, _ to: Int) {
        if from < to { line.append(Token(kind: .text, bytes: Array(source[from..<to]), start: from, end: to)) }
    }

    static func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }

    static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let f = s.first, isBlank(f) || f == 10 || f == 13 { s = s.dropFirst() }
        while let l = s.last, isBlank(l) || l == 10 || l == 13 { s = s.dropLast() }
        return s
    }

    mutating func readTag(at start: Int) throws -> Int {
        let open = delimiters.open
        let close = delimiters.close
        var j = start + open.count
        var token = Token(kind: .variable(escaped: true), start: start, delimiters: delimiters)
        token.location = location(start)
        let contentEnd: Int
        let end: Int
        if j < source.count && source[j] == UInt8(ascii: "{") {
            // Triple mustache: `{{{name}}}` (the `}` before the close delimiter).
            guard let k = find([UInt8(ascii: "}")] + close, from: j + 1) else {
                throw MustacheError.unclosedTag(at: token.location)
            }
            token.kind = .variable(escaped: false)
            j += 1
            contentEnd = k
            end = k + 1 + close.count
        } else if j < source.count && source[j] == UInt8(ascii: "=") {
            guard let k = find([UInt8(ascii: "=")] + close, from: j + 1) else {
                throw MustacheError.unclosedTag(at: token.location)
            }
            token.kind = .setDelimiters
            let spec = Lexer.trim(source[(j + 1)..<k])
            let parts = spec.split(whereSeparator: { Lexer.isBlank($0) || $0 == 10 || $0 == 13 })
            guard parts.count == 2, !parts[0].contains(UInt8(ascii: "=")), !parts[1].contains(UInt8(ascii: "=")) else {
                throw MustacheError.badDelimiters(String(decoding: spec, as: UTF8.self), at: token.location)
            }
            delimiters = Delimiters(open: Array(parts[0]), close: Array(parts[1]))
            token.end = k + 1 + close.count
            line.append(token)
            return token.end
        } else {
            guard let k = find(close, from: j) else { throw MustacheError.unclosedTag(at: token.location) }
            contentEnd = k
            end = k + close.count
            if j < k {
                switch source[j] {
                case UInt8(ascii: "#"): token.kind = .section
                case UInt8(ascii: "^"): token.kind = .inverted
                case UInt8(ascii: "/"): token.kind = .close
                case UInt8(ascii: "!"): token.kind = .comment
                case UInt8(ascii: ">"): token.kind = .partial
                case UInt8(ascii: "<"): token.kind = .parent
                case UInt8(ascii: "$"): token.kind = .block
                case UInt8(ascii: "&"): token.kind = .variable(escaped: false)
                default: j -= 1  // no sigil
                }
                j += 1
            }
        }
        token.end = end
        if token.kind != .comment {
            var name = Lexer.trim(source[j..<contentEnd])
            if token.kind == .partial || token.kind == .parent || token.kind == .close, name.first == UInt8(ascii: "*")
            {
                token.isDynamic = true
                name = Lexer.trim(name.dropFirst())
            }
            if name.isEmpty { throw MustacheError.emptyTag(at: token.location) }
            token.name = String(decoding: name, as: UTF8.self)
        }
        switch token.kind {
        case .section, .inverted, .block, .parent: openKinds.append(token.kind)
        case .close: if !openKinds.isEmpty { token.closesParent = openKinds.removeLast() == .parent }
        default: break
        }
        line.append(token)
        return end
    }

    /// Decides whether the collected line is standalone and emits its tokens.
    mutating func flushLine() {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return }
        var tagCount = 0
        var plainTags = 0
        var standalone = true
        for t in line {
            if t.kind == .text {
                if !t.bytes.allSatisfy({ Lexer.isBlank($0) || $0 == 10 || $0 == 13 }) {
                    standalone = false
                    break
                }
                // "\r" only counts as part of the line ending "\r\n".
                if let r = t.bytes.firstIndex(of: 13), !(r == t.bytes.count - 2 && t.bytes.last == 10) {
                    standalone = false
                    break
                }
            } else {
                if !t.canStandAlone {
                    standalone = false
                    break
                }
                tagCount += 1
                // A parent's own tags (`{{<x}}`, its `{{/x}}`) do not count.
                if !(t.kind == .parent || (t.kind == .close && t.closesParent)) { plainTags += 1 }
            }
        }
        if standalone && tagCount > 0 && plainTags <= 1 {
            var indent: [UInt8] = []
            if let first = line.first, first.kind == .text {
                indent = first.bytes.filter { Lexer.isBlank($0) }
            }
            for var t in line where t.isTag {
                t.isStandalone = true
                t.lineIndent = indent
                tokens.append(t)
            }
            return
        }
        tokens.append(Token(kind: .lineStart))
        var before: [UInt8]? = []
        for var t in line {
            if t.kind == .text {
                if before != nil, t.bytes.allSatisfy(Lexer.isBlank) { before! += t.bytes } else { before = nil }
            } else {
                t.lineIndent = before ?? []
                before = nil
            }
            tokens.append(t)
        }
    }
}
