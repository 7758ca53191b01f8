import Build
import Foundation
import Preview
import Site
import Store
import Synchronization
import Watch

/// `roost serve`: one or more stores kept live (`LiveSite`), served over HTTP
/// (`PreviewServer`), updated as each store's source reports its changes
/// (`DocumentSource.follow`) and the watcher the theme's, and open pages told which of them
/// changed. Several stores are served side by side, each under
/// its own prefix, with an index page at `/`.
package final class LivePreview: Sendable {
    /// Each store's site, with its URL prefix (empty for a single store).
    package let sites: [(name: String, site: LiveSite)]
    /// The theme folder watched; nil: the built-in theme.
    private let templates: String?
    private let server: PreviewServer
    /// Each store's changes being followed, and the theme's watcher.
    private let following = Mutex<[any ChangeFollowing]>([])
    private let themeWatcher = Mutex<FileWatcher?>(nil)
    /// One update at a time (a store's and the theme's come on different threads): a slower
    /// one finishing last must not replace a newer state.
    private let updating = Mutex(())
    /// Why each site still serves an older state, if it does.
    /// Each store's error, under the overlay's title for it.
    private let errors: Mutex<[(title: String, message: String)?]>
    private let log: @Sendable (String, _ isError: Bool) -> Void

    /// - Parameters:
    ///   - config: the options of every site (each gets its own base URL).
    ///   - log: a line for each load and update (`tweets/t1 modified → 3 pages updated (12 ms)`),
    ///     and whether it tells of an error (the last good state still served).
    ///   - media: the cache of `config.media == .mirror`, shared with builds.
    ///   - allowedHosts: host names answered besides the preview's own (`--allow-host`).
    ///   - projectFolder: the folder of the site's `roost.json` (empty: the current folder), where
    ///     the default theme folder is looked for (`Theme.folder(given:in:)`).
    package init(
        stores: [String], templates: String?, config: SiteConfig, media: MediaOptions = MediaOptions(), host: String,
        port: UInt16, allowedHosts: [String] = [], projectFolder: String = "",
        log: @escaping @Sendable (String, _ isError: Bool) -> Void
    ) {
        let templates = Theme.folder(given: templates, in: projectFolder)
        let names = StoreIndex.names(of: stores)
        let single = stores.count == 1
        sites = zip(names, stores).map { name, store in
            var siteConfig = config
            siteConfig.baseURL = single ? "/" : "/\(name)/"
            let site = LiveSite(
                store: store, templates: templates, config: siteConfig, media: media, projectFolder: projectFolder)
            return (single ? "" : name, site)
        }
        self.templates = templates
        let source: any SiteSource = single ? sites[0].site : StoreIndex(sites: sites)
        server = PreviewServer(source: source, host: host, port: port, allowedHosts: allowedHosts)
        errors = Mutex([(title: String, message: String)?](repeating: nil, count: stores.count))
        self.log = log
    }

    /// The address pages are served at (after `start()`).
    package var url: URL { server.url }

    /// Reads every store and the theme, starts serving and watching. When this returns, a
    /// change to any file is seen.
    package func start() throws {
        for (k, entry) in sites.enumerated() {
            let update = entry.site.loadAll()
            // A viewer no user has is a mistake on the command line, not a state of the data.
            if let error = update.viewerError { throw error }
            record(update, of: k)
        }
        try server.start()
        showFirstError()
        for (k, entry) in sites.enumerated() {
            let followed = try entry.site.follow(debounce: .milliseconds(15)) { [self] changes in
                update([k]) { $0.apply(changes) }
            }
            following.withLock { $0.append(followed) }
        }
        if let templates {
            let root = URL(fileURLWithPath: templates).standardizedFileURL
            let watcher = try FileWatcher(roots: [root], debounce: .milliseconds(15)) { [self] changes in
                update(sites.indices) { $0.apply([], theme: changes) }
            }
            themeWatcher.withLock { $0 = watcher }
        }
    }

    package func stop() {
        following.withLock {
            for followed in $0 { followed.stop() }
            $0 = []
        }
        themeWatcher.withLock {
            $0?.stop()
            $0 = nil
        }
        server.stop()
    }

    /// Updates the sites `indices` with `apply`, and tells open pages what changed.
    private func update(_ indices: some Sequence<Int>, _ apply: (LiveSite) -> LiveSite.Update) {
        updating.withLock { _ in
            var changed: [String] = []
            for k in indices {
                let entry = sites[k]
                let update = apply(entry.site)
                record(update, of: k)
                let prefix = entry.name.isEmpty ? "" : entry.name + "/"
                changed += update.changedPages.map { $0 == "*" ? "*" : prefix + $0 }
            }
            showFirstError()
            if !changed.isEmpty { server.publish(changedPaths: changed.contains("*") ? ["*"] : changed) }
        }
    }

    private func record(_ update: LiveSite.Update, of k: Int) {
        let name = sites[k].name
        log(name.isEmpty ? update.summary : "[\(name)] \(update.summary)", update.error != nil)
        errors.withLock { $0[k] = update.error.map { (update.errorTitle ?? PreviewServer.buildErrorTitle, $0) } }
    }

    private func showFirstError() {
        let first = errors.withLock { $0.compactMap { $0 }.first }
        server.setError(first?.message, title: first?.title ?? PreviewServer.buildErrorTitle)
    }
}
