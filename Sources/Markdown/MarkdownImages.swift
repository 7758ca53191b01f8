/// An image of a caption or bio (`![alt](url)`): what a mirrored site downloads (SPEC 9).
package struct MarkdownImage: Sendable, Hashable {
    /// The destination as written.
    package var url: String
    /// The alt text as plain text (empty when there is none).
    package var alt: String

    package init(url: String, alt: String) {
        self.url = url
        self.alt = alt
    }
}

/// Collects the images of one parse, fed cmark's events; an image inside another's alt text
/// is an image too (the renderer shows only the outer one, but both are of the document).
struct MarkdownImages {
    private(set) var found: [MarkdownImage] = []
    /// Per open image: its URL and the alt text so far.
    private var open: [(url: String, alt: String)] = []

    mutating func handle(_ event: MarkdownEvent) {
        switch event {
        case .enter(.image(let url, _)):
            open.append((url, ""))
        case .exit(.image):
            guard let image = open.popLast() else { return }
            let alt = image.alt.trimmingSpaces
            found.append(MarkdownImage(url: image.url, alt: alt))
            if !open.isEmpty { open[open.count - 1].alt += alt }
        case .enter(.text(let text)), .enter(.code(let text)), .enter(.htmlInline(let text)):
            if !open.isEmpty { open[open.count - 1].alt += text }
        case .enter(.softBreak), .enter(.lineBreak):
            if !open.isEmpty { open[open.count - 1].alt += " " }
        default:
            break
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
