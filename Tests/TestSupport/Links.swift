// Reading a built site's HTML the way a browser does (enough of it), and the one check that
// every link of a site points at a file that was written (SPEC 3).

// MARK: - Tags

package struct Tag {
    package var name: String
    /// Names lowercased; values with character references decoded.
    package var attributes: [(name: String, value: String)]
    /// For `<script>`/`<style>`: the raw text up to the end tag.
    package var rawText: String?

    package func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
}

/// Start tags of a page (comments, doctype and end tags skipped), with attributes as a
/// browser tokenizes them: quoted, unquoted, or without a value.
package func tags(_ html: String) -> [Tag] {
    let b = Array(html.utf8)
    var found: [Tag] = []
    var i = 0
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
    func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    while i < b.count {
        guard b[i] == UInt8(ascii: "<"), i + 1 < b.count else {
            i += 1
            continue
        }
        if b[i + 1] == UInt8(ascii: "!") {
            // Comment or doctype.
            if b[(i + 2)...].starts(with: Array("--".utf8)) {
                var j = i + 4
                while j + 2 < b.count, !(b[j] == 0x2D && b[j + 1] == 0x2D && b[j + 2] == 0x3E) { j += 1 }
                i = j + 3
            } else {
                while i < b.count, b[i] != UInt8(ascii: ">") { i += 1 }
            }
            continue
        }
        guard isLetter(b[i + 1]) else {
            i += 1
            continue
        }
        var j = i + 1
        while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: ">"), b[j] != UInt8(ascii: "/") { j += 1 }
        var tag = Tag(name: String(decoding: b[(i + 1)..<j], as: UTF8.self).lowercased(), attributes: [])
        // Attributes.
        while j < b.count, b[j] != UInt8(ascii: ">") {
            if isSpace(b[j]) || b[j] == UInt8(ascii: "/") {
                j += 1
                continue
            }
            let nameStart = j
            j += 1
            while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: ">"), b[j] != UInt8(ascii: "/"),
                b[j] != UInt8(ascii: "=")
            { j += 1 }
            let name = String(decoding: b[nameStart..<j], as: UTF8.self).lowercased()
            while j < b.count, isSpace(b[j]) { j += 1 }
            var value = ""
            if j < b.count, b[j] == UInt8(ascii: "=") {
                j += 1
                while j < b.count, isSpace(b[j]) { j += 1 }
                if j < b.count, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                    let quote = b[j]
                    let start = j + 1
                    j = start
                    while j < b.count, b[j] != quote { j += 1 }
                    value = String(decoding: b[start..<min(j, b.count)], as: UTF8.self)
                    j += 1
                } else {
                    let start = j
                    while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: ">") { j += 1 }
                    value = String(decoding: b[start..<j], as: UTF8.self)
                }
            }
            tag.attributes.append((name, decodeReferences(value)))
        }
        i = j + 1
        if tag.name == "script" || tag.name == "style" {
            let end = Array("</\(tag.name)".utf8)
            var k = i
            while k + end.count <= b.count, !b[k..<(k + end.count)].elementsEqual(end) { k += 1 }
            tag.rawText = String(decoding: b[min(i, b.count)..<min(k, b.count)], as: UTF8.self)
            i = k
        }
        found.append(tag)
    }
    return found
}

// MARK: - Links

/// The scheme a browser sees: leading controls and spaces dropped, tabs and newlines removed, lowercased.
package func browserScheme(_ url: String) -> String? {
    var cleaned = ""
    var started = false
    for scalar in url.unicodeScalars {
        if !started, scalar.value <= 0x20 { continue }
        started = true
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
        cleaned.unicodeScalars.append(scalar)
    }
    guard let colon = cleaned.firstIndex(of: ":") else { return nil }
    let scheme = cleaned[..<colon]
    guard !scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return nil }
    return scheme.lowercased()
}

/// Every `href`/`src` value of a page (of `<base>` too), in document order.
package func links(_ html: String) -> [String] {
    links(of: tags(html))
}

private func links(of tags: some Sequence<Tag>) -> [String] {
    tags.flatMap { tag in tag.attributes.filter { $0.name == "href" || $0.name == "src" }.map(\.value) }
}

/// Whether a link is relative to the page's `<base>`: no scheme (as a browser reads it), not
/// `#…`, not `/…`.
package func isRelativeLink(_ value: String) -> Bool {
    !value.hasPrefix("#") && !value.hasPrefix("/") && browserScheme(value) == nil
}

/// The relative links of a page (its `<base>` aside), in document order.
package func relativeLinks(_ html: String) -> [String] {
    links(of: tags(html).filter { $0.name != "base" }).filter(isRelativeLink)
}

/// Walks every HTML page of a site (SPEC 3: "every link points at a file that was written"),
/// given as every file it wrote by path, and served from `baseURL`. One line per problem:
/// - every page has a `<base href>`: the site root as a relative path (`./`, `../../`) from
///   the page's folder, and the base URL itself on `404.html` (shown at any URL);
/// - every relative `href`/`src` (not `#…`, no scheme) resolves, against the site root, to a
///   file that was written (the theme's assets count as written): not a folder, not outside
///   the site, in valid percent-encoding;
/// - every root-relative one (`/…`) is under the base URL and names a written file (`…/`
///   naming its `index.html`).
package func brokenLinks(in files: [String: String], baseURL: String) -> [String] {
    brokenLinks(written: Set(files.keys), baseURL: baseURL) { files[$0]! }
}

/// The same, for a site whose files are bytes (read as UTF-8).
package func brokenLinks(in files: [String: [UInt8]], baseURL: String) -> [String] {
    brokenLinks(written: Set(files.keys), baseURL: baseURL) { String(decoding: files[$0]!, as: UTF8.self) }
}

private func brokenLinks(written paths: Set<String>, baseURL: String, html: (String) -> String) -> [String] {
    let written = paths.union(themeAssets)
    var problems: [String] = []
    func check(_ link: String, on page: String) {
        var target = link
        if let cut = target.firstIndex(where: { $0 == "?" || $0 == "#" }) { target = String(target[..<cut]) }
        if link.hasPrefix("/") {
            // Root-relative (the canonical link): must be under the base URL and name a page.
            guard baseURL.hasPrefix("/"), link.hasPrefix(baseURL) else {
                problems.append("\(page): \(link) is not under the base URL \(baseURL)")
                return
            }
            target = String(target.dropFirst(baseURL.count))
        }
        guard let decoded = percentDecoded(target) else {
            problems.append("\(page): \(link) is not valid percent-encoding")
            return
        }
        guard var segments = resolve(decoded) else {
            problems.append("\(page): \(link) leaves the site")
            return
        }
        if link.hasPrefix("/"), segments.last == "" { segments[segments.count - 1] = "index.html" }
        let file = segments.joined(separator: "/")
        // A folder is not a file: file:// shows a listing there.
        if segments.last == "" || !written.contains(file) {
            problems.append("\(page): \(link.debugDescription) → \(file.debugDescription) was not written")
        }
    }
    for page in paths.filter({ $0.hasSuffix(".html") }).sorted() {
        let pageTags = tags(html(page))
        guard let base = pageTags.first(where: { $0.name == "base" })?.attribute("href") else {
            problems.append("\(page): no <base href>")
            continue
        }
        if page == "404.html" {
            // Servers show 404.html at any URL: its base is the base URL itself.
            if base != baseURL { problems.append("\(page): <base href=\"\(base)\">, expected the base URL \(baseURL)") }
        } else {
            let depth = page.utf8.count { $0 == UInt8(ascii: "/") }
            let root = depth == 0 ? "./" : String(repeating: "../", count: depth)
            if base != root { problems.append("\(page): <base href=\"\(base)\">, expected the site root \(root)") }
        }
        for link in links(of: pageTags.filter { $0.name != "base" }) where isRelativeLink(link) || link.hasPrefix("/") {
            check(link, on: page)
        }
    }
    return problems
}

/// The segments of the file a reference names from the site root (`a//b` keeps its empty
/// segment); a trailing "" when it names a folder (`…/`, `.`, `..`); nil above the root.
private func resolve(_ reference: String) -> [String]? {
    var segments: [String] = []
    let parts = reference.split(separator: "/", omittingEmptySubsequences: false)
    for (i, part) in parts.enumerated() {
        let isLast = i == parts.count - 1
        switch part {
        case ".":
            if isLast { segments.append("") }
        case "..":
            guard !segments.isEmpty else { return nil }
            segments.removeLast()
            if isLast { segments.append("") }
        default:
            segments.append(String(part))
        }
    }
    return segments
}
