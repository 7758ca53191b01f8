/// The templates a renderer resolves partials and parents against.
final class LibraryStorage: Sendable {
    let templates: [Template]
    let index: [String: Int]
    let missingPartials: TemplateLibrary.MissingPartials

    init(templates: [Template], missingPartials: TemplateLibrary.MissingPartials) {
        self.templates = templates
        var index: [String: Int] = [:]
        for (i, t) in templates.enumerated() { index[t.name] = i }
        self.index = index
        self.missingPartials = missingPartials
    }

    static let empty = LibraryStorage(templates: [], missingPartials: .fail)
}

/// Walks compiled nodes, appending output bytes.
struct Renderer {
    let library: LibraryStorage
    var context: Context
    var depth = 0
    /// Set when an argument is substituted at an inline block site: its first
    /// line continues the site's line, so gets no indentation.
    var skipNextIndent = false
    static let maxDepth = 200

    init(library: LibraryStorage, context: MustacheValue) {
        self.library = library
        self.context = Context(context)
    }

    mutating func render(
        _ nodes: [Node], into out: inout [UInt8], indent: [UInt8],
        overrides: [String: BlockNode]
    ) throws {
        for node in nodes {
            switch node {
            case .text(let chunk):
                if indent.isEmpty || chunk.lineStarts.isEmpty {
                    out.append(contentsOf: chunk.bytes)
                } else {
                    appendIndented(chunk, indent: indent, skipFirst: skipNextIndent, into: &out)
                }
                skipNextIndent = false
            case .variable(let v):
                if let value = context.lookup(v.name) { try interpolate(value, escaped: v.escaped, into: &out) }
                skipNextIndent = false
            case .section(let s):
                guard let value = context.lookup(s.name) else { break }
                switch value {
                case .list(let list):
                    for i in 0..<list.count {
                        context.push(list.mustacheElement(at: i))
                        try render(s.children, into: &out, indent: indent, overrides: overrides)
                        context.pop()
                    }
                case .lambda(let lambda):
                    let nodes = try Parser.parse(
                        Array(lambda.body(s.rawText).utf8), file: "lambda '\(s.name.text)'", delimiters: s.delimiters)
                    try render(nodes, into: &out, indent: indent, overrides: overrides)
                default:
                    if value.isTruthy {
                        context.push(value)
                        try render(s.children, into: &out, indent: indent, overrides: overrides)
                        context.pop()
                    }
                }
            case .inverted(let s):
                if !(context.lookup(s.name)?.isTruthy ?? false) {
                    try render(s.children, into: &out, indent: indent, overrides: overrides)
                }
            case .partial(let ref):
                guard let slot = try resolve(ref, isParent: false) else { break }
                try include(slot, ref, into: &out, indent: indent, overrides: overrides)
            case .parent(let parent):
                guard let slot = try resolve(parent.target, isParent: true) else { break }
                // Arguments from further out take precedence.
                var merged = parent.overrides
                for (name, block) in overrides { merged[name] = block }
                try include(slot, parent.target, into: &out, indent: indent, overrides: merged)
            case .block(let block):
                if let argument = overrides[block.name] {
                    skipNextIndent = !block.isStandalone
                    // An argument never substitutes itself: a block of the same name inside it
                    // renders its own content (else `{{$b}}{{$b}}x{{/b}}{{/b}}` recursed forever — found by fuzzing).
                    var inner = overrides
                    inner[block.name] = nil
                    try render(argument.stripped, into: &out, indent: indent + block.indent, overrides: inner)
                    skipNextIndent = false
                } else {
                    try render(block.content, into: &out, indent: indent, overrides: overrides)
                }
            case .lineStart:
                break
            }
        }
    }

    private func appendIndented(_ chunk: TextChunk, indent: [UInt8], skipFirst: Bool, into out: inout [UInt8]) {
        var previous = 0
        for start in chunk.lineStarts {
            out.append(contentsOf: chunk.bytes[previous..<start])
            if !(skipFirst && start == 0) { out.append(contentsOf: indent) }
            previous = start
        }
        out.append(contentsOf: chunk.bytes[previous...])
    }

    private mutating func include(
        _ slot: Int, _ ref: PartialRef, into out: inout [UInt8], indent: [UInt8], overrides: [String: BlockNode]
    ) throws {
        guard depth < Renderer.maxDepth else { throw MustacheError.recursionTooDeep(name: ref.name, at: ref.location) }
        depth += 1
        defer { depth -= 1 }
        let inner = ref.indent.isEmpty ? indent : indent + ref.indent
        try render(library.templates[slot].nodes, into: &out, indent: inner, overrides: overrides)
    }

    /// The library slot of a partial or parent; nil to render nothing.
    private func resolve(_ ref: PartialRef, isParent: Bool) throws -> Int? {
        if ref.slot >= 0 { return ref.slot }
        var name = ref.name
        if ref.isDynamic {
            guard case .string(let target)? = context.lookup(Name(ref.name)) else {
                if library.missingPartials == .renderEmpty { return nil }
                throw MustacheError.dynamicNameNotFound(name: ref.name, at: ref.location)
            }
            name = target
        }
        if let slot = library.index[name] { return slot }
        if library.missingPartials == .renderEmpty { return nil }
        if ref.isDynamic { throw MustacheError.dynamicNameNotFound(name: ref.name, at: ref.location) }
        throw isParent
            ? MustacheError.unknownParent(name: name, at: ref.location)
            : MustacheError.unknownPartial(name: name, at: ref.location)
    }

    private mutating func interpolate(_ value: MustacheValue, escaped: Bool, into out: inout [UInt8]) throws {
        switch value {
        case .string(let s): HTMLEscape.append(s, escaped: escaped, to: &out)
        case .int(let i): HTMLEscape.append(i, to: &out)
        case .double(let d): HTMLEscape.append(d, to: &out)
        case .bool(let b): out.append(contentsOf: b ? "true" : "false" as StaticString)
        case .lambda(let lambda):
            let nodes = try Parser.parse(Array(lambda.body("").utf8), file: "lambda")
            var rendered: [UInt8] = []
            try render(nodes, into: &rendered, indent: [], overrides: [:])
            HTMLEscape.append(rendered, escaped: escaped, to: &out)
        case .null, .list, .object:
            break
        }
    }
}
