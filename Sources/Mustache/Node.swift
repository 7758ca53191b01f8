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
struct TextChunk: Sendable {
    var bytes: [UInt8]
    var lineStarts: [Int]
}

struct SectionNode: Sendable {
    let name: Name
    var children: [Node]
    /// The unrendered section text and the delimiters in force, for lambdas.
    let rawText: String
    let delimiters: Delimiters
}

/// A `{{>partial}}` or the target of a `{{<parent}}`.
struct PartialRef: Sendable {
    let name: String
    let isDynamic: Bool
    /// Whitespace before a standalone tag; empty when not standalone.
    var indent: [UInt8]
    let location: SourceLocation
    /// Index of the template in its library, -1 when not linked.
    var slot: Int = -1
}

/// `{{$name}}…{{/name}}`.
struct BlockNode: Sendable {
    let name: String
    /// The block's indentation at this site (relative to an enclosing block).
    var indent: [UInt8]
    let isStandalone: Bool
    /// The content as written, rendered when not overridden.
    var content: [Node]
    /// The content with its own indentation removed, rendered when it is an
    /// argument substituted into a parent's block.
    var stripped: [Node]
}

struct ParentNode: Sendable {
    var target: PartialRef
    var overrides: [String: BlockNode]
}

/// The compiled form of a template.
enum Node: Sendable {
    case text(TextChunk)
    /// Only while parsing: a template line starts here (merged into `.text`).
    case lineStart
    case variable(Name, escaped: Bool)
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
