import Dispatch
import Foundation
import Preview
import Site

/// `roost serve`: build, serve on 127.0.0.1, watch, rebuild what changed, reload open pages.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "preview the site live: rebuilt and reloaded as the store or templates change"
    static let options: Set<String> = ["store", "templates", "port", "host", "page-size", "viewer"]
    static let flags: Set<String> = []
    static let help = """
    usage: roost serve [--store PATH ...] [options]

    Serves the site at http://127.0.0.1:8000/ and watches the store and the
    templates. On a change only the documents that changed are read again, and
    open pages that show them reload by themselves. A store that becomes invalid
    (a half-saved file) does not stop the server: pages show the error until the
    store is valid again. Nothing is written to disk.

    Several --store options serve each store under its own prefix, with an index
    page listing them: compare data states side by side.

    options:
      --store PATH       a directory store or a single-file export (default: content); repeatable
      --templates DIR    the theme (default: templates)
      --port N           the port (default: 8000)
      --host ADDRESS     the address to listen on (default: 127.0.0.1)
      --page-size N      tweets per page (default: 20)
      --viewer HANDLE    render the site as this user sees it
    """

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        let stores = arguments.all("store").isEmpty ? ["content"] : arguments.all("store")
        let templates = arguments.value("templates", default: "templates")
        let port = try arguments.integer("port", default: 8000, range: 0...65535)
        let pageSize = try arguments.integer("page-size", default: 20, range: 1...10_000)
        let names = StoreNames.make(stores)

        let sites = zip(stores, names).map { store, name in
            LiveSite(store: store, templates: templates,
                     config: SiteConfig(baseURL: stores.count == 1 ? "/" : "/\(name)/", pageSize: pageSize,
                                        viewer: arguments.value("viewer")))
        }
        var firstError: String?
        for site in sites {
            let update = site.loadAll()
            Console.out(update.summary)
            firstError = firstError ?? update.error
        }
        let source: any SiteSource = sites.count == 1 ? sites[0] : StoreIndex(sites: Array(zip(names, sites)))
        let server = PreviewServer(source: source, host: arguments.value("host", default: "127.0.0.1"), port: UInt16(port))
        try server.start()
        server.setError(firstError)

        let roots = (stores + [templates]).map { URL(fileURLWithPath: $0).standardizedFileURL }
        let templatesRoot = URL(fileURLWithPath: templates).standardizedFileURL.path
        let watcher = try FileWatcher(roots: roots, debounce: .milliseconds(15)) { changes in
            var changed: [String] = []
            var errors: [String] = []
            for (name, site) in zip(names, sites) {
                let store = URL(fileURLWithPath: site.storePath).standardizedFileURL.path
                let mine = Set(changes.compactMap { change -> LiveSite.Change? in
                    let root = change.root.standardizedFileURL.path
                    let kind: LiveSite.Change.Kind = switch change.kind {
                    case .created: .created
                    case .modified: .modified
                    case .deleted: .deleted
                    }
                    if root == templatesRoot { return LiveSite.Change(.templates, change.path, kind) }
                    return root == store ? LiveSite.Change(.store, change.path, kind) : nil
                })
                guard !mine.isEmpty else { continue }
                let update = site.apply(mine)
                Console.out(sites.count == 1 ? update.summary : "[\(name)] \(update.summary)")
                if let error = update.error { errors.append(error) }
                let prefix = sites.count == 1 ? "" : name + "/"
                changed += update.changedPages.map { $0 == "*" ? "*" : prefix + $0 }
            }
            server.setError(errors.first)
            if !changed.isEmpty { server.publish(changedPaths: changed.contains("*") ? ["*"] : changed) }
        }
        // Only now: a change made as soon as this line appears is seen (tests rely on it).
        Console.out("serving \(server.url.absoluteString) — Ctrl-C to stop")
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
        interrupt.setEventHandler {
            watcher.stop()
            server.stop()
            exit(ExitStatus.success)
        }
        interrupt.resume()
        dispatchMain()
    }
}

/// Prefixes for several stores: each store folder's name, made unique and URL-safe.
enum StoreNames {
    static func make(_ stores: [String]) -> [String] {
        var used: Set<String> = []
        return stores.map { store in
            let base = URL(fileURLWithPath: store).deletingPathExtension().lastPathComponent
            var name = String(base.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
            if name.isEmpty || name == "__roost" { name = "store" }
            var unique = name, n = 2
            while !used.insert(unique).inserted { unique = "\(name)-\(n)"; n += 1 }
            return unique
        }
    }
}

extension LiveSite: SiteSource {}

/// Several stores side by side: `/{name}/…` is that store's site; `/` lists them.
struct StoreIndex: SiteSource {
    let sites: [(String, LiveSite)]

    func file(at path: String) -> [UInt8]? {
        if path == "index.html" { return Array(indexPage.utf8) }
        guard let slash = path.firstIndex(of: "/") else { return nil }
        let name = String(path[..<slash])
        return sites.first { $0.0 == name }?.1.file(at: String(path[path.index(after: slash)...]))
    }

    private var indexPage: String {
        let items = sites.map { name, site in
            "<li><a href=\"\(name)/\">\(escape(name))</a> <small>\(escape(site.storePath))</small></li>"
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

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
