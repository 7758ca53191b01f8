// Fuzz target `caption`: bytes → String (lossy UTF-8) → MarkdownRenderer.render and
// HashtagsAndMentions.scan. Compiled into the Markdown module (see build.sh).
//
// Safety checks on the HTML (trap when broken):
// - no `<script` anywhere (case-insensitive);
// - no attribute value that a browser would read as `javascript:` (entities decoded,
//   controls/spaces trimmed, tabs and newlines removed), and every href's scheme is
//   http, https or mailto (or none). Plain text may say "javascript:" (escaped, harmless),
//   so the check is on attribute values rather than on the whole output.
// Consistency: HashtagsAndMentions.scan finds hashtags/mentions exactly when the renderer links some
// (the mention closure knows every user).

private let renderer = MarkdownRenderer(
    mentionURL: { _ in "/users/someone/" },
    tagURL: { _ in "/tags/sometag/" })

@inline(never)
private func fail(_ message: String, _ html: String) -> Never {
    fatalError("caption: \(message)\n--- HTML ---\n\(html)\n---")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let html = renderer.render(text)
    let (hashtags, mentions) = HashtagsAndMentions.scan(text)

    let lower = Array(html.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
    if contains(lower, Array("<script".utf8)) { fail("<script in output", html) }

    for value in attributeValues(lower) {
        let decoded = browserView(value)
        if decoded.starts(with: Array("javascript:".utf8)) { fail("javascript: attribute value", html) }
        if let scheme = scheme(of: decoded), !["http", "https", "mailto"].contains(scheme) {
            // Only hrefs carry URLs here; titles and classes are free text, so check hrefs only.
            if value.isHref { fail("href with scheme \(scheme)", html) }
        }
    }

    let linkedTags = contains(lower, Array("class=\"hashtag\"".utf8))
    let linkedMentions = contains(lower, Array("class=\"mention\"".utf8))
    if hashtags.isEmpty == linkedTags {
        fail("HashtagsAndMentions.scan hashtags \(hashtags) vs rendered hashtag links \(linkedTags)", html)
    }
    if mentions.isEmpty == linkedMentions {
        fail("HashtagsAndMentions.scan mentions \(mentions) vs rendered mention links \(linkedMentions)", html)
    }
    if !html.isEmpty && !html.hasSuffix("\n") { fail("non-empty output does not end with a newline", html) }
    return 0
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    var i = 0
    while i + needle.count <= haystack.count {
        if haystack[i] == needle[0] && haystack[i..<i + needle.count].elementsEqual(needle) { return true }
        i += 1
    }
    return false
}

private struct Attribute {
    var bytes: [UInt8]
    var isHref: Bool
}

/// Values of `name="…"` attributes inside tags (the renderer always quotes with `"`).
private func attributeValues(_ html: [UInt8]) -> [Attribute] {
    var out: [Attribute] = []
    var i = 0
    var inTag = false
    while i < html.count {
        let b = html[i]
        if !inTag {
            if b == UInt8(ascii: "<") { inTag = true }
            i += 1
            continue
        }
        if b == UInt8(ascii: ">") {
            inTag = false
            i += 1
            continue
        }
        if b == UInt8(ascii: "="), i + 1 < html.count, html[i + 1] == UInt8(ascii: "\"") {
            var n = i - 1
            while n >= 0, html[n] != UInt8(ascii: " ") { n -= 1 }
            let name = Array(html[(n + 1)..<i])
            var j = i + 2
            while j < html.count, html[j] != UInt8(ascii: "\"") { j += 1 }
            out.append(Attribute(bytes: Array(html[(i + 2)..<min(j, html.count)]), isHref: name == Array("href".utf8)))
            i = j + 1
            continue
        }
        i += 1
    }
    return out
}

/// The attribute value as a browser sees it: character references decoded (lowercased
/// input), leading/trailing C0 controls and spaces trimmed, tabs and newlines removed.
private func browserView(_ attribute: Attribute) -> [UInt8] {
    let v = attribute.bytes
    var decoded: [UInt8] = []
    var i = 0
    while i < v.count {
        if v[i] == UInt8(ascii: "&"), let semi = v[i...].firstIndex(of: UInt8(ascii: ";")), semi - i <= 10 {
            let entity = String(decoding: v[(i + 1)..<semi], as: UTF8.self)
            var scalar: UInt32? = nil
            switch entity {
            case "amp": scalar = 38
            case "lt": scalar = 60
            case "gt": scalar = 62
            case "quot": scalar = 34
            case "apos": scalar = 39
            case "colon": scalar = 58
            case "tab": scalar = 9
            case "newline": scalar = 10
            default:
                if entity.hasPrefix("#x") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(1))
                }
            }
            if let s = scalar, let u = Unicode.Scalar(s) {
                decoded.append(contentsOf: Array(String(Character(u)).lowercased().utf8))
                i = semi + 1
                continue
            }
        }
        decoded.append(v[i])
        i += 1
    }
    decoded.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    while let f = decoded.first, f <= 0x20 { decoded.removeFirst() }
    while let l = decoded.last, l <= 0x20 { decoded.removeLast() }
    return decoded
}

/// The URL scheme (lowercase), or nil for a relative URL. As the URL standard parses it: an
/// ASCII letter, then letters, digits, `+`, `-`, `.`, up to the `:` (`%5Cjavascript:x` is a path).
private func scheme(of url: [UInt8]) -> String? {
    guard let first = url.first, (97...122).contains(first) || (65...90).contains(first) else { return nil }
    for (k, b) in url.enumerated().dropFirst() {
        switch b {
        case UInt8(ascii: ":"):
            return String(decoding: url[..<k], as: UTF8.self)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            continue
        default:
            return nil
        }
    }
    return nil
}
