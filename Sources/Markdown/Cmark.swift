// The only file that talks to libcmark. All C memory handling lives here:
// the document is parsed, walked and freed inside one call, and what the rest
// of the module sees are plain Swift values copied out of the tree.
import CCmark

/// A node of cmark's syntax tree, with its payload copied into Swift values.
enum MarkdownNode {
    // Blocks
    case document
    case blockQuote
    case list(ordered: Bool, start: Int, tight: Bool)
    case item
    case codeBlock(info: String, code: String)
    case htmlBlock(String)
    case paragraph
    case heading(level: Int)
    case thematicBreak
    // Inlines
    case text(String)
    case softBreak
    case lineBreak
    case code(String)
    case htmlInline(String)
    case emphasis
    case strong
    case link(url: String, title: String)
    case image(url: String, title: String)
    /// Custom blocks and inlines never come out of the parser; kept for completeness.
    case custom
}

/// One step of a depth-first walk. Leaf nodes (text, code, breaks, code and
/// HTML blocks, thematic breaks) only get `.enter`; every other node gets
/// `.enter` and, after its children, `.exit` — even when it has no children.
enum MarkdownEvent {
    case enter(MarkdownNode)
    case exit(MarkdownNode)
}

enum Cmark {
    /// Parses `markdown` (CommonMark, `CMARK_OPT_DEFAULT`: no smart punctuation;
    /// raw HTML comes out as HTML nodes, which the callers escape) and calls
    /// `visit` for every node in document order. Adjacent text nodes are merged, so
    /// a word is never split across text nodes by escapes or entities, except a `#`
    /// or `@` escaped with a backslash: it comes alone, so it starts no hashtag or
    /// mention, as a Markdown writer means by escaping it.
    /// Iterative: deeply nested input does not grow the Swift stack.
    /// The tree is freed before this returns; nothing of it escapes.
    static func walk(_ markdown: String, _ visit: (MarkdownEvent) -> Void) {
        var source = markdown
        let parsed: OpaquePointer? = source.withUTF8 { bytes -> OpaquePointer? in
            // Swift strings are valid UTF-8; cmark replaces NUL bytes (we pass a length).
            if let base = bytes.baseAddress, bytes.count > 0 {
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    cmark_parse_document($0, bytes.count, CMARK_OPT_DEFAULT)
                }
            }
            return cmark_parse_document("", 0, CMARK_OPT_DEFAULT)
        }
        guard let document = parsed else { preconditionFailure("cmark_parse_document returned NULL") }
        defer { cmark_node_free(document) }

        guard let iterator = cmark_iter_new(document) else { preconditionFailure("cmark_iter_new returned NULL") }
        defer { cmark_iter_free(iterator) }
        let escapes = EscapedSigils(markdown)
        // Text nodes are leaves: adjacent ones come as consecutive entries, merged here.
        var text: String?
        func flush() {
            if let merged = text { visit(.enter(.text(merged))) }
            text = nil
        }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_ENTER, cmark_node_get_type(node) == CMARK_NODE_TEXT {
                let literal = string(cmark_node_get_literal(node))
                for piece in escapes.pieces(of: literal, node: node) {
                    if piece.escaped {
                        flush()
                        visit(.enter(.text(piece.text)))
                    } else {
                        text = (text ?? "") + piece.text
                    }
                }
                continue
            }
            flush()
            if event == CMARK_EVENT_ENTER {
                visit(.enter(convert(node)))
            } else if event == CMARK_EVENT_EXIT {
                visit(.exit(convert(node, payload: false)))
            }
        }
        flush()
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// `payload: false` skips copying strings (exit events don't need them).
    private static func convert(_ node: OpaquePointer, payload: Bool = true) -> MarkdownNode {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST:
            return .list(
                ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                start: Int(cmark_node_get_list_start(node)),
                tight: cmark_node_get_list_tight(node) != 0)
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK:
            return .codeBlock(
                info: string(cmark_node_get_fence_info(node)),
                code: string(cmark_node_get_literal(node)))
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock(string(cmark_node_get_literal(node)))
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text(string(cmark_node_get_literal(node)))
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code(string(cmark_node_get_literal(node)))
        case CMARK_NODE_HTML_INLINE: return .htmlInline(string(cmark_node_get_literal(node)))
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK:
            guard payload else { return .link(url: "", title: "") }
            return .link(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE:
            guard payload else { return .image(url: "", title: "") }
            return .image(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        default: return .custom
        }
    }
}
