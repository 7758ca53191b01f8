import Foundation
import Preview
import Support

/// Several stores side by side: `/{name}/…` is that store's site; `/` lists them.
struct StoreIndex: SiteSource {
    let sites: [(name: String, site: LiveSite)]

    func file(at path: String) -> [UInt8]? {
        if path == "index.html" { return Array(indexPage.utf8) }
        guard let slash = path.firstIndex(of: "/") else { return nil }
        let name = String(path[..<slash])
        return sites.first { $0.name == name }?.site.file(at: String(path[path.index(after: slash)...]))
    }

    private var indexPage: String {
        let items = sites.map { name, site in
            "<li><a href=\"\(escape(name))/\">\(escape(name))</a> <small>\(escape(site.storePath))</small></li>"
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Roost preview: \(sites.count) stores</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body><main><h1>Stores</h1><ul>
            \(items)
            </ul></main></body></html>
            """
    }

    /// Text in the page: as every page escapes it (`'` too, control characters as U+FFFD).
    private func escape(_ text: String) -> String { MarkupEscape.escaped(text) }

    /// Prefixes for several stores: each store folder's name, made unique and URL-safe.
    static func names(of stores: [String]) -> [String] {
        var used: Set<String> = []
        return stores.map { store in
            let base = URL(fileURLWithPath: store).deletingPathExtension().lastPathComponent
            var name = String(base.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
            if name.isEmpty || name == "__roost" { name = "store" }
            var unique = name
            var n = 2
            while !used.insert(unique).inserted {
                unique = "\(name)-\(n)"
                n += 1
            }
            return unique
        }
    }
}

extension LiveSite: SiteSource {}
