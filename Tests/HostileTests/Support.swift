import Foundation
import Model
import Mustache
import Output
import Site
import Store
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

// MARK: - A store on disk

/// A directory store in a temporary folder (`store/` in it, made by the first write), written
/// file by file, with files beside it for symlinks to point at; removed with the folder.
final class StoreFolder {
    private let temporary: TemporaryFolder

    init() throws { temporary = try TemporaryFolder() }

    /// The temporary folder: the store and the `outside` files are in it.
    var root: String { temporary.path() }
    var path: String { root + "/store" }

    /// Writes `bytes` at `relative` (below the store), creating folders. Works for names that are not UTF-8.
    func write(_ relative: [UInt8], _ bytes: [UInt8]) {
        let full = Array((path + "/").utf8) + relative
        var slash = full.count
        while slash > 0, full[slash - 1] != UInt8(ascii: "/") { slash -= 1 }
        makeFolders(Array(full[..<(slash - 1)]))
        let fd = withCString(full) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        precondition(fd >= 0, "cannot create \(String(decoding: full, as: UTF8.self)): \(errno)")
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            precondition(n > 0)
            offset += n
        }
        close(fd)
    }

    func write(_ relative: String, _ text: String) { write(Array(relative.utf8), Array(text.utf8)) }
    func write(_ relative: String, bytes: [UInt8]) { write(Array(relative.utf8), bytes) }

    /// A document: `fields` as JSON text pairs (`"key": value` already JSON).
    func document(_ relative: String, _ fields: KeyValuePairs<String, String>) {
        write(relative, "{" + fields.map { "\(json($0.key)): \($0.value)" }.joined(separator: ", ") + "}")
    }

    func folder(_ relative: String) { makeFolders(Array((path + "/" + relative).utf8)) }

    /// A file outside the store (beside it), for symlinks to point at.
    func outside(_ name: String, _ text: String) throws -> String {
        try temporary.write("outside/" + name, text)
    }

    func symlink(_ relative: String, to target: String) {
        let link = path + "/" + relative
        makeFolders(Array((link as NSString).deletingLastPathComponent.utf8))
        precondition(Glibc.symlink(target, link) == 0, "symlink \(link): \(errno)")
    }

    private func makeFolders(_ full: [UInt8]) {
        var k = 1
        while k <= full.count {
            if k == full.count || full[k] == UInt8(ascii: "/") {
                _ = withCString(Array(full[..<k])) { mkdir($0, 0o755) }
            }
            k += 1
        }
    }

    private func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}

/// A JSON string literal for `text` (every control character escaped).
func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

// MARK: - Building in process

/// Every file of one in-process build, by path.
struct BuiltSite {
    let config: SiteConfig
    let snapshot: Snapshot
    let store: DocumentStore
    let paths: [String]
    let files: [String: [UInt8]]

    func text(_ path: String) -> String? { files[path].map { String(decoding: $0, as: UTF8.self) } }
    var htmlPaths: [String] { paths.filter { $0.hasSuffix(".html") } }
    var xmlPaths: [String] { paths.filter { $0.hasSuffix(".xml") } }
    /// Every file whose bytes contain `needle`.
    func paths(containing needle: String) -> [String] {
        paths.filter { contains(files[$0]!, needle) }
    }
}

/// What happened to a store: a site, or the message a build would stop with.
enum Outcome {
    case built(BuiltSite)
    /// The store could not be read (the message names the file).
    case storeError(StoreError)
    /// The snapshot has errors (each names the document and field).
    case dataErrors([Diagnostic], DocumentStore)
    /// Rendering failed.
    case renderError(String)

    var site: BuiltSite? { if case .built(let s) = self { return s } else { return nil } }

    var summary: String {
        switch self {
        case .built(let s): "built \(s.paths.count) files"
        case .storeError(let e): "store error: \(e)"
        case .dataErrors(let d, _): "data errors: \(d.map(\.description))"
        case .renderError(let m): "render error: \(m)"
        }
    }
}

/// The pipeline of `roost build`, in process: read, snapshot (errors stop it, as the
/// command does), plan, render every page.
func build(_ storePath: String, config: SiteConfig = SiteConfig()) -> Outcome {
    let store: DocumentStore
    do { store = try DocumentStore.read(at: storePath) } catch { return .storeError(error) }
    let snapshot = Snapshot(documents: store.documents)
    if !snapshot.errors.isEmpty { return .dataErrors(snapshot.errors, store) }
    do {
        let pages = try RenderedPages(of: snapshot, config: config, templates: defaultTemplates)
        if let path = pages.duplicate { return .renderError("two pages at \(path)") }
        return .built(
            BuiltSite(config: config, snapshot: snapshot, store: store, paths: pages.paths, files: pages.files))
    } catch {
        return .renderError("\(error)")
    }
}

/// Builds and requires a site; records the outcome otherwise.
func requireSite(
    _ storePath: String, config: SiteConfig = SiteConfig(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> BuiltSite {
    let outcome = build(storePath, config: config)
    return try #require(outcome.site, "expected a clean build: \(outcome.summary)", sourceLocation: sourceLocation)
}

// MARK: - HTML (`tags`, `browserScheme` and the link checker are in TestSupport)

/// Attributes whose value a browser loads or navigates to.
let urlAttributes: Set<String> = [
    "href", "src", "action", "formaction", "srcset", "poster", "data", "xlink:href",
    "cite", "background", "ping", "manifest", "icon", "longdesc", "lowsrc", "dynsrc",
]

/// Elements a page of the defaultTemplates never has; if one shows up, it came from the store.
let foreignElements: Set<String> = [
    "iframe", "object", "embed", "textarea", "style",
    "frame", "frameset", "applet", "math", "marquee", "video", "audio",
    "source", "x-hostile", "img2", "svg2", "xss", "meta2",
]

/// The search forms (every header, the search page) and the search page's words: the only
/// form, input, button and template elements the theme has, known by their attributes.
func isThemeSearchElement(_ tag: TestSupport.Tag) -> Bool {
    switch tag.name {
    case "form": tag.attribute("action") == "search/index.html" && tag.attribute("method") == "get"
    case "input": tag.attribute("name") == "q" && tag.attribute("type") == "search"
    case "button": tag.attribute("type") == "submit" && tag.attributes.count == 1
    case "template": tag.attribute("id") == "search-words" && tag.attributes.count == 1
    default: false
    }
}

/// The theme's scripts: relative dates, the placeholder of an image that fails to load, links
/// to a part of the page kept on it, and the search page's.
let themeScripts: Set<String> = [
    "static/time.js", "static/media.js", "static/fragment-links.js", "static/search.js", "search/index.js",
]

/// Everything unsafe about one HTML page (one line per problem).
func htmlProblems(_ html: String, path: String) -> [String] {
    var problems: [String] = []
    var bases = 0
    for tag in tags(html) {
        let at = "\(path): <\(tag.name)>"
        if foreignElements.contains(tag.name) || tag.name.hasPrefix("x-")
            || (["form", "input", "button", "template"].contains(tag.name) && !isThemeSearchElement(tag))
        {
            problems.append("\(at): element from the store")
        }
        for (name, value) in tag.attributes {
            if name.hasPrefix("on") {
                problems.append("\(at): event handler attribute \(name)=\"\(value.prefix(60))\"")
            }
            if name == "style" { problems.append("\(at): inline style attribute") }
            if urlAttributes.contains(name), let scheme = browserScheme(value),
                !["http", "https", "mailto"].contains(scheme)
            {
                problems.append("\(at): \(name) with scheme \(scheme): \"\(value.prefix(80))\"")
            }
            if name == "http-equiv", value.lowercased() != "content-security-policy" {
                problems.append("\(at): http-equiv=\(value)")
            }
        }
        switch tag.name {
        case "script":
            // The theme's own files; nothing else may run (but 404.html's fixed script, allowed
            // by its hash).
            if isFileBaseScript(tag, in: path) { break }
            if tag.attribute("src") == nil { problems.append("\(at): inline script") }
            if let text = tag.rawText, !text.allSatisfy(\.isWhitespace) {
                problems.append("\(at): script with content \"\(text.prefix(60))\"")
            }
            if let src = tag.attribute("src"), !themeScripts.contains(src) {
                problems.append("\(at): script src=\(src)")
            }
        case "base":
            bases += 1
        case "meta"
        where tag.attribute("http-equiv") == nil && tag.attribute("charset") == nil && tag.attribute("name") == nil:
            problems.append("\(at): meta without name")
        default:
            break
        }
    }
    if path.hasSuffix(".html"), bases != 1 { problems.append("\(path): \(bases) <base> elements") }
    return problems
}

// MARK: - Paths and links

/// Why an output path is unsafe (SPEC 3: no `.`, `..`, empty or > 200-byte segment, nothing absolute).
func pathProblem(_ path: String) -> String? {
    if let problem = PathRules.problem(with: path) { return problem }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for segment in segments {
        if segment.isEmpty || segment == "." || segment == ".." { return "segment \"\(segment)\"" }
        if segment.utf8.count > 200 { return "a segment of \(segment.utf8.count) bytes" }
        if segment.contains("\\") || segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a segment with a backslash or a control character"
        }
    }
    return nil
}

/// Everything wrong with a built site: unsafe paths, unsafe HTML, broken links, files that
/// are not UTF-8, XML that does not parse, and any of `forbidden` anywhere.
func siteProblems(_ site: BuiltSite, forbidden: [String] = []) -> [String] {
    var problems: [String] = []
    for path in site.paths {
        if let problem = pathProblem(path) { problems.append("path \(path.debugDescription): \(problem)") }
        if String(validating: site.files[path]!, as: UTF8.self) == nil { problems.append("\(path): not UTF-8") }
    }
    for path in site.htmlPaths { problems += htmlProblems(site.text(path)!, path: path) }
    problems += brokenLinks(in: site.files, baseURL: site.config.baseURL)
    for path in site.xmlPaths {
        if let error = xmlError(site.files[path]!) { problems.append("\(path): not well-formed XML: \(error)") }
    }
    for needle in forbidden {
        let found = site.paths(containing: needle)
        if !found.isEmpty { problems.append("\(needle.debugDescription) written in \(found.prefix(5))") }
    }
    return problems
}

/// Why `bytes` is not well-formed XML 1.0 (characters, tags nesting, references), or nil.
/// A small checker: Atom and sitemaps use no DTD, CDATA or processing instructions but the declaration.
func xmlError(_ bytes: [UInt8]) -> String? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return "not UTF-8" }
    for scalar in text.unicodeScalars {
        let v = scalar.value
        let allowed =
            v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
            || (0x10000...0x10FFFF).contains(v)
        if !allowed { return "character U+\(String(v, radix: 16, uppercase: true)) is not allowed in XML" }
    }
    // Scalars, not Characters: "<" or ">" followed by a combining mark is still markup.
    var stack: [String] = []
    var rest = Substring(text).unicodeScalars
    while let open = rest.firstIndex(of: "<") {
        if let problem = referenceProblem(Substring(String(String.UnicodeScalarView(rest[..<open])))) { return problem }
        guard let close = rest[open...].firstIndex(of: ">") else { return "unclosed tag" }
        let inner = String(String.UnicodeScalarView(rest[rest.index(after: open)..<close]))
        rest = rest[rest.index(after: close)...]
        if inner.hasPrefix("?") || inner.hasPrefix("!--") { continue }
        if inner.hasPrefix("/") {
            let name = inner.dropFirst().trimmingCharacters(in: .whitespaces)
            guard stack.popLast() == name else { return "</\(name)> does not close the open element" }
            continue
        }
        let name = String(inner.unicodeScalars.prefix { $0 != " " && $0 != "\n" && $0 != "/" }.map(Character.init))
        if inner.unicodeScalars.contains("<") { return "< in a tag" }
        var quote: Unicode.Scalar?
        for c in inner.unicodeScalars {
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c }
        }
        if quote != nil { return "unbalanced quotes in <\(name)>" }
        if let problem = referenceProblem(Substring(inner)) { return problem }
        if !inner.hasSuffix("/") { stack.append(name) }
    }
    if let problem = referenceProblem(Substring(String(String.UnicodeScalarView(rest)))) { return problem }
    return stack.isEmpty ? nil : "unclosed <\(stack.last!)>"
}

private func referenceProblem(_ text: Substring) -> String? {
    var rest = text.unicodeScalars
    while let amp = rest.firstIndex(of: "&") {
        let after = rest[rest.index(after: amp)...]
        guard let semi = after.prefix(10).firstIndex(of: ";") else {
            return "a bare & in \(text.prefix(40).debugDescription)"
        }
        let name = String(String.UnicodeScalarView(after[..<semi]))
        if !["amp", "lt", "gt", "quot", "apos"].contains(name) {
            guard name.hasPrefix("#"),
                let v = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst()),
                v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
                    || (0x10000...0x10FFFF).contains(v)
            else {
                return "reference &\(name); is not allowed in XML"
            }
        }
        rest = after[after.index(after: semi)...]
    }
    return nil
}

/// The first `limit` problems, one a line.
func lines(_ problems: [String], limit: Int = 40) -> String {
    problems.prefix(limit).joined(separator: "\n")
        + (problems.count > limit ? "\n… \(problems.count - limit) more" : "")
}

/// Whether `haystack` holds the UTF-8 bytes of `needle` (memchr and memcmp: fast even in debug builds).
func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let n = Array(needle.utf8)
    guard !n.isEmpty else { return true }
    return haystack.withUnsafeBytes { h -> Bool in
        n.withUnsafeBytes { nb -> Bool in
            guard let base = h.baseAddress else { return false }
            var offset = 0
            while h.count - offset >= nb.count {
                guard let hit = memchr(base + offset, Int32(n[0]), h.count - offset - nb.count + 1) else {
                    return false
                }
                if memcmp(hit, nb.baseAddress!, nb.count) == 0 { return true }
                offset = (UnsafeRawPointer(hit) - base) + 1
            }
            return false
        }
    }
}

/// 404.html's one inline script (`FileBaseScript`): Roost's own text, the same on every site,
/// which its policy allows by its hash; any other inline script is a problem.
func isFileBaseScript(_ tag: TestSupport.Tag, in path: String) -> Bool {
    path == "404.html" && tag.name == "script" && tag.attribute("src") == nil && tag.rawText == FileBaseScript.text
}
