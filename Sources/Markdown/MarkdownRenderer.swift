import Support

/// Renders captions and bios (CommonMark) to an HTML fragment, safely:
///
/// - raw HTML (blocks and inline) is shown as literal text, never passed through;
/// - links whose URL has a scheme other than `http`, `https` or `mailto`
///   (`javascript:`, `vbscript:`, `file:`, `data:`, …, however disguised) lose
///   their link; their text stays;
/// - links to other sites get `rel="nofollow ugc noopener"`;
/// - images are not loaded: an image becomes a link to its URL with the alt
///   text as link text (just the alt text if the URL is not allowed), unless
///   `image` is given: then it is an `<img>` of the picture `image` chooses for
///   the URL (a mirrored copy or a placeholder, SPEC 9), with its alt text,
///   lazy-loaded, with width and height when known;
/// - headings become `<p><strong>…</strong></p>`, so a caption cannot break
///   the page's heading outline;
/// - in text (not in code, raw HTML, or link and image text), `@handle` links
///   to the user's profile when `mentionURL` knows the user, `#tag` to the tag
///   page, and bare `http(s)://` URLs to themselves — the same places
///   `HashtagsAndMentions.scan` reports.
///
/// Output is deterministic and ends with a newline (unless empty).
/// URLs returned by `mentionURL` and `tagURL` are used as given (HTML-escaped);
/// URLs from the Markdown are percent-encoded where needed.
package struct MarkdownRenderer: Sendable {
    private let mentionURL: @Sendable (String) -> String?
    private let tagURL: @Sendable (String) -> String?
    private let image: (@Sendable (String) -> InlineImage)?

    /// - Parameters:
    ///   - mentionURL: the handle as written (without "@") → the URL of the
    ///     profile, or nil if there is no such user (then no link).
    ///   - tagURL: the tag, lowercased, without "#" → the URL of the tag page,
    ///     or nil if there is none (then no link: a bio's tag no tweet has).
    ///   - image: an image's URL as written → the picture to show instead; nil: images
    ///     stay links to their URL.
    package init(
        mentionURL: @escaping @Sendable (String) -> String?,
        tagURL: @escaping @Sendable (String) -> String?,
        image: (@Sendable (String) -> InlineImage)? = nil
    ) {
        self.mentionURL = mentionURL
        self.tagURL = tagURL
        self.image = image
    }

    /// The HTML fragment for `markdown`.
    package func render(_ markdown: String) -> String {
        var renderer = Renderer(
            mentionURL: mentionURL, tagURL: tagURL, image: image,
            capacity: markdown.utf8.count + markdown.utf8.count / 4 + 16)
        Cmark.walk(markdown) { renderer.handle($0) }
        return renderer.out.string
    }

    /// The HTML fragment and `PlainText.excerpt(markdown, limit:)`, from one parse.
    package func render(_ markdown: String, excerptLimit limit: Int) -> (html: String, excerpt: String) {
        var renderer = Renderer(
            mentionURL: mentionURL, tagURL: tagURL, image: image,
            capacity: markdown.utf8.count + markdown.utf8.count / 4 + 16)
        var collector = PlainTextCollector(limit: limit)
        Cmark.walk(markdown) { event in
            renderer.handle(event)
            collector.handle(event)
        }
        return (renderer.out.string, collector.result)
    }
}

private let externalRel: StaticString = " rel=\"nofollow ugc noopener\""

/// The picture an `<img>` of a caption shows: a path of the site (`media/{hash}.png`, or the
/// theme's placeholder), with its size in pixels when known.
package struct InlineImage: Sendable, Hashable {
    package var src: String
    package var width: Int?
    package var height: Int?

    package init(src: String, width: Int? = nil, height: Int? = nil) {
        self.src = src
        self.width = width
        self.height = height
    }
}

/// The state of one rendering.
private struct Renderer {
    let mentionURL: (String) -> String?
    let tagURL: (String) -> String?
    let image: ((String) -> InlineImage)?
    var out: HTMLWriter

    private enum Frame {
        case list(ordered: Bool, tight: Bool)
        case item
        case paragraph(tight: Bool)
        /// `mark`: output length after the opening tag, to see if the text was empty.
        case link(opened: Bool, mark: Int, url: String)
        case image(opened: Bool, mark: Int, url: String)
        /// An image shown as `<img>`: its alt text is written from `mark` and moved into it.
        case picture(mark: Int, image: InlineImage, title: String)
        /// Blocks and inlines closed by fixed markup (on a new line if `newline`).
        case closer(StaticString, newline: Bool)
        case other
    }
    private var stack: [Frame] = []
    /// Links and images we are inside: no links within links.
    private var linkDepth = 0
    /// Images we are inside: their content is alt text, written as plain text.
    private var altDepth = 0

    init(
        mentionURL: @escaping (String) -> String?, tagURL: @escaping (String) -> String?,
        image: ((String) -> InlineImage)?, capacity: Int
    ) {
        self.mentionURL = mentionURL
        self.tagURL = tagURL
        self.image = image
        self.out = HTMLWriter(capacity: capacity)
    }

    mutating func handle(_ event: MarkdownEvent) {
        switch event {
        case .enter(let node): enter(node)
        case .exit: exit()
        }
    }

    private var inParagraphOfTightList: Bool {
        guard stack.count >= 2, case .item = stack[stack.count - 1],
            case .list(_, let tight) = stack[stack.count - 2]
        else { return false }
        return tight
    }

    private mutating func enter(_ node: MarkdownNode) {
        // Inside an image only plain text is written (its alt text).
        if altDepth > 0 { return enterAltText(node) }
        switch node {
        case .document, .custom:
            stack.append(.other)
        case .blockQuote:
            out.newlineIfNeeded()
            out.raw("<blockquote>\n")
            stack.append(.closer("</blockquote>\n", newline: true))
        case .list(let ordered, let start, let tight):
            openList(ordered: ordered, start: start, tight: tight)
        case .item:
            out.newlineIfNeeded()
            out.raw("<li>")
            stack.append(.item)
        case .paragraph:
            let tight = inParagraphOfTightList
            if !tight {
                out.newlineIfNeeded()
                out.raw("<p>")
            }
            stack.append(.paragraph(tight: tight))
        case .heading:
            out.newlineIfNeeded()
            out.raw("<p><strong>")
            stack.append(.closer("</strong></p>\n", newline: false))
        case .codeBlock(let info, let code):
            writeCodeBlock(info: info, code: code)
        case .htmlBlock(let html):
            writeHTMLBlock(html)
        case .thematicBreak:
            out.newlineIfNeeded()
            out.raw("<hr>\n")
        case .text, .softBreak, .lineBreak, .code, .htmlInline:
            writeInline(node)
        case .emphasis:
            out.raw("<em>")
            stack.append(.closer("</em>", newline: false))
        case .strong:
            out.raw("<strong>")
            stack.append(.closer("</strong>", newline: false))
        case .link(let url, let title):
            let opened = linkDepth == 0 && openAnchor(url: url, title: title)
            linkDepth += 1
            stack.append(.link(opened: opened, mark: out.count, url: url))
        case .image(let url, let title) where image != nil:
            linkDepth += 1
            altDepth += 1
            stack.append(.picture(mark: out.count, image: image!(url), title: title))
        case .image(let url, let title):
            let opened = linkDepth == 0 && openAnchor(url: url, title: title)
            linkDepth += 1
            altDepth += 1
            stack.append(.image(opened: opened, mark: out.count, url: url))
        }
    }

    /// Inside an image: text as plain text; nested links and images only counted, so that
    /// their exits match.
    private mutating func enterAltText(_ node: MarkdownNode) {
        switch node {
        case .text(let text), .code(let text), .htmlInline(let text): out.escaped(text)
        case .softBreak, .lineBreak: out.raw(" ")
        case .image:
            altDepth += 1
            linkDepth += 1
            stack.append(.image(opened: false, mark: 0, url: ""))
        case .link:
            linkDepth += 1
            stack.append(.link(opened: false, mark: 0, url: ""))
        case .document, .blockQuote, .list, .item, .paragraph, .heading, .emphasis, .strong, .custom:
            stack.append(.other)
        case .codeBlock, .htmlBlock, .thematicBreak:
            break
        }
    }

    /// The inlines that are written whole on entering: text, breaks, code spans, raw HTML.
    private mutating func writeInline(_ node: MarkdownNode) {
        switch node {
        case .text(let text):
            if linkDepth > 0 { out.escaped(text) } else { linkify(text) }
        case .softBreak:
            out.raw("\n")
        case .lineBreak:
            out.raw("<br>\n")
        case .code(let code):
            out.raw("<code>")
            out.escaped(code)
            out.raw("</code>")
        case .htmlInline(let html):
            out.escaped(html)
        default:
            break  // (not a written-whole inline: `enter` handles it)
        }
    }

    private mutating func openList(ordered: Bool, start: Int, tight: Bool) {
        out.newlineIfNeeded()
        if !ordered {
            out.raw("<ul>\n")
        } else if start == 1 {
            out.raw("<ol>\n")
        } else {
            out.raw("<ol start=\"")
            out.decimal(start)
            out.raw("\">\n")
        }
        stack.append(.list(ordered: ordered, tight: tight))
    }

    private mutating func writeCodeBlock(info: String, code: String) {
        out.newlineIfNeeded()
        out.raw("<pre><code")
        let language = info.prefix { $0 != " " && $0 != "\t" }
        if !language.isEmpty {
            out.raw(" class=\"language-")
            out.escaped(String(language))
            out.raw("\"")
        }
        out.raw(">")
        out.escaped(code)
        out.raw("</code></pre>\n")
    }

    /// Raw HTML is shown as text, like any other paragraph.
    private mutating func writeHTMLBlock(_ html: String) {
        out.newlineIfNeeded()
        out.raw("<p>")
        var end = html.endIndex
        while end > html.startIndex, html[html.index(before: end)].isNewline { end = html.index(before: end) }
        out.escaped(String(html[..<end]))
        out.raw("</p>\n")
    }

    private mutating func exit() {
        guard let frame = stack.popLast() else { return }
        if altDepth > 0 {
            switch frame {
            case .link:
                linkDepth -= 1
                return
            case .image(let opened, let mark, let url):
                linkDepth -= 1
                altDepth -= 1
                if altDepth == 0 { closeAnchor(opened: opened, mark: mark, url: url) }
                return
            case .picture(let mark, let image, let title):
                linkDepth -= 1
                altDepth -= 1
                if altDepth == 0 { writePicture(image, title: title, altFrom: mark) }
                return
            default:
                return
            }
        }
        switch frame {
        case .list(let ordered, _):
            out.newlineIfNeeded()
            out.raw(ordered ? "</ol>\n" : "</ul>\n")
        case .item:
            out.raw("</li>\n")
        case .paragraph(let tight):
            if !tight { out.raw("</p>\n") }
        case .link(let opened, let mark, let url):
            linkDepth -= 1
            closeAnchor(opened: opened, mark: mark, url: url)
        case .image, .picture:
            break  // handled above: altDepth > 0 whenever an image frame is on top
        case .closer(let markup, let newline):
            if newline { out.newlineIfNeeded() }
            out.raw(markup)
        case .other:
            break
        }
    }

    /// Writes `<a href=… [rel] [title]>` and returns true, or returns false
    /// (writing nothing) when the URL may not be linked.
    private mutating func openAnchor(url: String, title: String) -> Bool {
        let kind = LinkPolicy.classify(url)
        if case .unsafe = kind { return false }
        out.raw("<a href=\"")
        out.href(url)
        out.raw("\"")
        if case .external = kind { out.raw(externalRel) }
        if !title.isEmpty {
            out.raw(" title=\"")
            out.escaped(title)
            out.raw("\"")
        }
        out.raw(">")
        return true
    }

    /// `<img src alt [title] loading="lazy" [width height]>`, the alt text being what was
    /// written (escaped) since `mark`.
    private mutating func writePicture(_ image: InlineImage, title: String, altFrom mark: Int) {
        let alt = out.cut(from: mark)
        out.raw("<img src=\"")
        out.escaped(image.src)
        out.raw("\" alt=\"")
        out.append(alt)
        out.raw("\"")
        if !title.isEmpty {
            out.raw(" title=\"")
            out.escaped(title)
            out.raw("\"")
        }
        out.raw(" loading=\"lazy\" decoding=\"async\"")
        if let width = image.width, let height = image.height {
            out.raw(" width=\"")
            out.decimal(width)
            out.raw("\" height=\"")
            out.decimal(height)
            out.raw("\"")
        }
        out.raw(">")
    }

    private mutating func closeAnchor(opened: Bool, mark: Int, url: String) {
        guard opened else { return }
        if out.count == mark { out.escaped(url) }  // empty link text: show the URL
        out.raw("</a>")
    }

    /// Text outside links: mentions, hashtags and bare URLs become links.
    private mutating func linkify(_ text: String) {
        Tokenizer.segments(of: text) { segment in
            switch segment {
            case .text(let plain):
                out.escaped(plain)
            case .mention(let handle):
                if let url = mentionURL(handle) {
                    out.raw("<a class=\"mention\" href=\"")
                    out.escaped(url)
                    out.raw("\">@")
                    out.escaped(handle)
                    out.raw("</a>")
                } else {
                    out.raw("@")
                    out.escaped(handle)
                }
            case .hashtag(let tag):
                if let url = tagURL(tag.lowercased()) {
                    out.raw("<a class=\"hashtag\" href=\"")
                    out.escaped(url)
                    out.raw("\">#")
                    out.escaped(tag)
                    out.raw("</a>")
                } else {
                    out.raw("#")
                    out.escaped(tag)
                }
            case .url(let url) where !WebAddress.hasUsableHost(url):
                out.escaped(url)  // `https://x.org:99999/`: no link a page can carry
            case .url(let url):
                out.raw("<a href=\"")
                out.href(url)
                out.raw("\"")
                out.raw(externalRel)
                out.raw(">")
                out.escaped(url)
                out.raw("</a>")
            }
        }
    }
}
