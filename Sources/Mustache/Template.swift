/// A compiled template: parsed once, rendered many times.
package struct Template: Sendable {
    /// The name partials and parents refer to it by.
    package let name: String
    /// The file (or name) errors point at.
    package let file: String
    let nodes: [Node]
    /// The text it was compiled from (what `fingerprint(ofTemplatesReachableFrom:)` hashes).
    let source: [UInt8]

    init(name: String, file: String, nodes: [Node], source: [UInt8]) {
        self.name = name
        self.file = file
        self.nodes = nodes
        self.source = source
    }

    /// Compiles a single template. Partial and parent tags need a
    /// `TemplateLibrary`: here they are an error, since nothing can resolve them
    /// (dynamic ones fail when rendered).
    package init(source: String, name: String = "template") throws {
        let bytes = Array(source.utf8)
        let nodes = try Parser.parse(bytes, file: name)
        self.init(name: name, file: name, nodes: try Linker.link(nodes, index: [:], missing: .fail), source: bytes)
    }

    /// Renders against `context`, appending to `buffer`.
    package func render(_ context: some MustacheBoxable, into buffer: inout [UInt8]) throws {
        var renderer = Renderer(library: .empty, context: context.mustacheValue)
        try renderer.render(nodes, into: &buffer, indent: [], overrides: [:])
    }

    /// Renders against `context` into a new buffer of UTF-8 bytes.
    package func render(_ context: some MustacheBoxable) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try render(context, into: &buffer)
        return buffer
    }

    /// Renders against `context` into a String.
    package func renderString(_ context: some MustacheBoxable) throws -> String {
        String(decoding: try render(context), as: UTF8.self)
    }
}

/// Points static partial and parent tags at library slots.
enum Linker {
    static func link(_ nodes: [Node], index: [String: Int], missing: TemplateLibrary.MissingPartials) throws -> [Node] {
        func slot(_ ref: PartialRef, isParent: Bool) throws -> PartialRef {
            if ref.isDynamic { return ref }
            if let i = index[ref.name] { return ref.with(slot: i) }
            if missing == .fail {
                throw isParent
                    ? MustacheError.unknownParent(name: ref.name, at: ref.location)
                    : MustacheError.unknownPartial(name: ref.name, at: ref.location)
            }
            return ref
        }
        func linkBlock(_ b: BlockNode) throws -> BlockNode {
            b.with(
                content: try link(b.content, index: index, missing: missing),
                stripped: try link(b.stripped, index: index, missing: missing))
        }
        return try nodes.map { node in
            switch node {
            case .section(let s):
                return .section(s.with(children: try link(s.children, index: index, missing: missing)))
            case .inverted(let s):
                return .inverted(s.with(children: try link(s.children, index: index, missing: missing)))
            case .partial(let p):
                return .partial(try slot(p, isParent: false))
            case .parent(let p):
                return .parent(
                    ParentNode(
                        target: try slot(p.target, isParent: true),
                        overrides: try p.overrides.mapValues(linkBlock)))
            case .block(let b):
                return .block(try linkBlock(b))
            default:
                return node
            }
        }
    }
}
