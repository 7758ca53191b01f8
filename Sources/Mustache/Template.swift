/// A compiled template: parsed once, rendered many times.
public struct Template: Sendable {
    /// The name partials and parents refer to it by.
    public let name: String
    /// The file (or name) errors point at.
    public let file: String
    let nodes: [Node]

    init(name: String, file: String, nodes: [Node]) {
        self.name = name
        self.file = file
        self.nodes = nodes
    }

    /// Compiles a single template. Partial and parent tags need a
    /// `TemplateLibrary`: here they are an error, since nothing can resolve them
    /// (dynamic ones fail when rendered).
    public init(source: String, name: String = "template") throws {
        let nodes = try Parser.parse(Array(source.utf8), file: name)
        self.init(name: name, file: name, nodes: try Linker.link(nodes, index: [:], missing: .fail))
    }

    /// Renders against `context`, appending to `buffer`.
    public func render(_ context: some MustacheBoxable, into buffer: inout [UInt8]) throws {
        var renderer = Renderer(library: .empty, context: context.mustacheValue)
        try renderer.render(nodes, into: &buffer, indent: [], overrides: [:])
    }

    /// Renders against `context` into a new buffer of UTF-8 bytes.
    public func render(_ context: some MustacheBoxable) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try render(context, into: &buffer)
        return buffer
    }

    /// Renders against `context` into a String.
    public func renderString(_ context: some MustacheBoxable) throws -> String {
        String(decoding: try render(context), as: UTF8.self)
    }
}

/// Points static partial and parent tags at library slots.
enum Linker {
    static func link(_ nodes: [Node], index: [String: Int], missing: TemplateLibrary.MissingPartials) throws -> [Node] {
        func slot(_ ref: inout PartialRef, isParent: Bool) throws {
            if ref.isDynamic { return }
            if let i = index[ref.name] {
                ref.slot = i
            } else if missing == .fail {
                throw isParent
                    ? MustacheError.unknownParent(name: ref.name, at: ref.location)
                    : MustacheError.unknownPartial(name: ref.name, at: ref.location)
            }
        }
        func linkBlock(_ b: BlockNode) throws -> BlockNode {
            var b = b
            b.content = try link(b.content, index: index, missing: missing)
            b.stripped = try link(b.stripped, index: index, missing: missing)
            return b
        }
        return try nodes.map { node in
            switch node {
            case .section(var s):
                s.children = try link(s.children, index: index, missing: missing)
                return .section(s)
            case .inverted(var s):
                s.children = try link(s.children, index: index, missing: missing)
                return .inverted(s)
            case .partial(var p):
                try slot(&p, isParent: false)
                return .partial(p)
            case .parent(var p):
                try slot(&p.target, isParent: true)
                p.overrides = try p.overrides.mapValues(linkBlock)
                return .parent(p)
            case .block(let b):
                return .block(try linkBlock(b))
            default:
                return node
            }
        }
    }
}
