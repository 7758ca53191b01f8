/// Builds the compiled node tree from tokens.
struct Parser {
    private struct Frame {
        var token: Token
        var index: Int
        var nodes: [Node] = []
    }

    static func parse(_ source: [UInt8], file: String, delimiters: Delimiters = .standard) throws -> [Node] {
        let tokens = try Lexer.tokenize(source, file: file, delimiters: delimiters)
        var root: [Node] = []
        var stack: [Frame] = []

        func append(_ node: Node) {
            if stack.isEmpty { root.append(node) } else { stack[stack.count - 1].nodes.append(node) }
        }

        for (index, t) in tokens.enumerated() {
            switch t.kind {
            case .text: append(.text(TextChunk(bytes: t.bytes)))
            case .lineStart: append(.lineStart)
            case .variable(let escaped): append(.variable(VariableNode(name: Name(t.name), escaped: escaped)))
            case .comment, .setDelimiters: break
            case .partial: append(.partial(reference(t)))
            case .section, .inverted, .block, .parent: stack.append(Frame(token: t, index: index))
            case .close:
                guard let frame = stack.popLast() else {
                    throw MustacheError.unexpectedCloseTag(name: t.name, at: t.location)
                }
                let open = frame.token
                guard open.name == t.name, open.isDynamic == t.isDynamic else {
                    throw MustacheError.mismatchedCloseTag(
                        open: (open.isDynamic ? "*" : "") + open.name, closed: (t.isDynamic ? "*" : "") + t.name,
                        at: t.location)
                }
                switch open.kind {
                case .section, .inverted:
                    let section = SectionNode(
                        name: Name(open.name), children: frame.nodes,
                        rawText: String(decoding: source[open.end..<t.start], as: UTF8.self),
                        delimiters: open.delimiters)
                    append(open.kind == .section ? .section(section) : .inverted(section))
                case .block:
                    let indent = blockIndent(tokens, at: frame.index)
                    append(
                        .block(
                            BlockNode(
                                name: open.name, indent: indent, isStandalone: open.isStandalone,
                                content: frame.nodes, stripped: strip(frame.nodes, indent))))
                default:  // parent: only its blocks matter, other content is ignored
                    var overrides: [String: BlockNode] = [:]
                    for case .block(let b) in frame.nodes { overrides[b.name] = b }
                    append(.parent(ParentNode(target: reference(open), overrides: overrides)))
                }
            }
        }
        if let frame = stack.last {
            throw MustacheError.unclosedSection(name: frame.token.name, at: frame.token.location)
        }
        return finalize(root)
    }

    private static func reference(_ t: Token) -> PartialRef {
        PartialRef(
            name: t.name, isDynamic: t.isDynamic, indent: t.isStandalone ? t.lineIndent : [], location: t.location)
    }

    /// A block's indentation: for a standalone opening tag, that of the first
    /// line of its content (or of the tag when the content is empty);
    /// otherwise the whitespace before the tag on its line.
    private static func blockIndent(_ tokens: [Token], at index: Int) -> [UInt8] {
        let open = tokens[index]
        guard open.isStandalone else { return open.lineIndent }
        let next = tokens[index + 1]
        if next.kind == .lineStart {
            guard index + 2 < tokens.count, tokens[index + 2].kind == .text else { return [] }
            return Array(tokens[index + 2].bytes.prefix(while: Lexer.isBlank))
        }
        if next.isTag && next.isStandalone { return next.lineIndent }
        return open.lineIndent
    }

    private static func dropPrefix(_ bytes: [UInt8], _ prefix: [UInt8]) -> [UInt8] {
        var k = 0
        while k < bytes.count && k < prefix.count && bytes[k] == prefix[k] { k += 1 }
        return k == 0 ? bytes : Array(bytes[k...])
    }

    /// Removes `indent` from the start of every line of `nodes` (raw, not finalized).
    private static func strip(_ nodes: [Node], _ indent: [UInt8]) -> [Node] {
        if indent.isEmpty { return nodes }
        var out: [Node] = []
        out.reserveCapacity(nodes.count)
        var atLineStart = false
        for node in nodes {
            switch node {
            case .lineStart:
                out.append(node)
                atLineStart = true
                continue
            case .text(let chunk) where atLineStart:
                out.append(.text(TextChunk(bytes: dropPrefix(chunk.bytes, indent))))
            case .section(let s):
                out.append(.section(s.with(children: strip(s.children, indent))))
            case .inverted(let s):
                out.append(.inverted(s.with(children: strip(s.children, indent))))
            case .partial(let p):
                out.append(.partial(p.with(indent: dropPrefix(p.indent, indent))))
            case .parent(let p):
                let target = p.target.with(indent: dropPrefix(p.target.indent, indent))
                out.append(.parent(ParentNode(target: target, overrides: p.overrides)))
            case .block(let b):
                out.append(.block(b.with(indent: dropPrefix(b.indent, indent), content: strip(b.content, indent))))
            default:
                out.append(node)
            }
            atLineStart = false
        }
        return out
    }

    /// Merges text and line starts into text chunks, everywhere in the tree.
    static func finalize(_ nodes: [Node]) -> [Node] {
        var out: [Node] = []
        out.reserveCapacity(nodes.count)
        var bytes: [UInt8] = []
        var lineStarts: [Int] = []
        var pending = false
        func flush() {
            if pending { out.append(.text(TextChunk(bytes: bytes, lineStarts: lineStarts))) }
            bytes = []
            lineStarts = []
            pending = false
        }
        func finalizeBlock(_ b: BlockNode) -> BlockNode {
            b.with(content: finalize(b.content), stripped: finalize(b.stripped))
        }
        for node in nodes {
            switch node {
            case .lineStart:
                lineStarts.append(bytes.count)
                pending = true
            case .text(let t):
                bytes += t.bytes
                pending = true
            case .section(let s):
                flush()
                out.append(.section(s.with(children: finalize(s.children))))
            case .inverted(let s):
                flush()
                out.append(.inverted(s.with(children: finalize(s.children))))
            case .block(let b):
                flush()
                out.append(.block(finalizeBlock(b)))
            case .parent(let p):
                flush()
                out.append(.parent(ParentNode(target: p.target, overrides: p.overrides.mapValues(finalizeBlock))))
            default:
                flush()
                out.append(node)
            }
        }
        flush()
        return out
    }
}
