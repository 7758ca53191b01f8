// The compiled form of a template. Node payloads are immutable final classes,
// so walking the tree costs one reference count per node, not one per field.

/// A name as written in a tag, split at dots once at parse time. `.` has no parts.
struct Name: Sendable {
    let text: String
    let parts: [String]

    init(_ text: String) {
        self.text = text
        self.parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Literal text as UTF-8, with the offsets where a template line starts
/// (where a partial's indentation is inserted).
final class TextChunk: Sendable {
    let bytes: [UInt8]
    let lineStarts: [Int]

    init(bytes: [UInt8], lineStarts: [Int] = []) {
        self.bytes = bytes
        self.lineStarts = lineStarts
    }
}

final class VariableNode: Sendable {
    let name: Name
    let escaped: Bool

    init(name: Name, escaped: Bool) {
        self.name = name
        self.escaped = escaped
    }
}

/// `{{#name}}…{{/name}}` or `{{^name}}…{{/name}}`.
final class SectionNode: Sendable {
    let name: Name
    let children: [Node]
    /// The unrendered section text and the delimiters in force, for lambdas.
    let rawText: String
    let delimiters: Delimiters

    init(name: Name, children: [Node], rawText: String, delimiters: Delimiters) {
        self.name = name
        self.children = children
        self.rawText = rawText
        self.delimiters = delimiters
    }

    func with(children: [Node]) -> SectionNode {
        SectionNode(name: name, children: children, rawText: rawText, delimiters: delimiters)
    }
}

/// A `{{>partial}}` or the target of a `{{<parent}}`.
final class PartialRef: Sendable {
    let name: String
    let isDynamic: Bool
    /// Whitespace before a standalone tag; empty when not standalone.
    let indent: [UInt8]
    let location: SourceLocation
    /// Index of the template in its library, -1 when not linked.
    let slot: Int

    init(name: String, isDynamic: Bool, indent: [UInt8], location: SourceLocation, slot: Int = -1) {
        self.name = name
        self.isDynamic = isDynamic
        self.indent = indent
        self.location = location
        self.slot = slot
    }

    func with(indent: [UInt8]? = nil, slot: Int? = nil) -> PartialRef {
        PartialRef(
            name: name, isDynamic: isDynamic, indent: indent ?? self.indent, location: location,
            slot: slot ?? self.slot)
    }
}

/// `{{$name}}…{{/name}}`.
final class BlockNode: Sendable {
    let name: String
    /// The block's indentation at this site (relative to an enclosing block).
    let indent: [UInt8]
    let isStandalone: Bool
    /// The content as written, rendered when not overridden.
    let content: [Node]
    /// The content with its own indentation removed, rendered when it is an
    /// argument substituted into a parent's block.
    let stripped: [Node]

    init(name: String, indent: [UInt8], isStandalone: Bool, content: [Node], stripped: [Node]) {
        self.name = name
        self.indent = indent
        self.isStandalone = isStandalone
        self.content = content
        self.stripped = stripped
    }

    func with(indent: [UInt8]? = nil, content: [Node]? = nil, stripped: [Node]? = nil) -> BlockNode {
        BlockNode(
            name: name, indent: indent ?? self.indent, isStandalone: isStandalone,
            content: content ?? self.content, stripped: stripped ?? self.stripped)
    }
}

/// `{{<name}}` with its block arguments.
final class ParentNode: Sendable {
    let target: PartialRef
    let overrides: [String: BlockNode]

    init(target: PartialRef, overrides: [String: BlockNode]) {
        self.target = target
        self.overrides = overrides
    }
}

enum Node: Sendable {
    case text(TextChunk)
    /// Only while parsing: a template line starts here (merged into `.text`).
    case lineStart
    case variable(VariableNode)
    case section(SectionNode)
    case inverted(SectionNode)
    case partial(PartialRef)
    case parent(ParentNode)
    case block(BlockNode)
}

struct Delimiters: Sendable, Equatable {
    var open: [UInt8]
    var close: [UInt8]
    static let standard = Delimiters(open: Array("{{".utf8), close: Array("}}".utf8))
}
