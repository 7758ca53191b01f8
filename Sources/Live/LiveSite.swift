import Build
import Firestore
import Foundation
import Model
import Preview
import Site
import Store
import Support
import Synchronization
import Watch

/// One store kept live for `roost serve`: documents are decoded once and again only when
/// their file changes; pages are rendered when requested, from the newest good state.
/// What is served is always what a full build of that state would write.
package final class LiveSite: Sendable {
    package let storePath: String
    /// The theme folder; nil: the built-in theme (`Theme.folder(given:in:)` decided at `init`).
    package let templatesPath: String?
    package let config: SiteConfig
    /// The cache of `config.media == .mirror` (shared with builds).
    package let media: MediaOptions
    private let environment: [String: String]
    /// The theme folder as the watcher names its root, to tell its changes apart.
    private let templatesRoot: String?

    /// The newest state that rendered without errors: what is served. `roost serve`'s
    /// publisher: where `roost build` writes pages whose fingerprint changed, this keeps the
    /// renderer (pages are rendered when asked for) and tells which pages changed.
    private struct Rendering: Sendable {
        let renderer: SiteRenderer
        let pages: [String: Page]
        let assets: [String: [UInt8]]
        let fingerprints: PageFingerprints
        /// The copies of remote images (`--media mirror`), served as `media/…` from the cache.
        let mirrored: MirroredMedia?

        init(
            renderer: SiteRenderer, pages: [String: Page], assets: [String: [UInt8]], fingerprints: PageFingerprints,
            mirrored: MirroredMedia?
        ) {
            self.renderer = renderer
            self.pages = pages
            self.assets = assets
            self.fingerprints = fingerprints
            self.mirrored = mirrored
        }

        /// Every page of `renderer`'s plan, fingerprinted.
        init(renderer: SiteRenderer, assets: [String: [UInt8]], mirrored: MirroredMedia?) {
            self.init(
                renderer: renderer, pages: Dictionary(uniqueKeysWithValues: renderer.plan.pages.map { ($0.path, $0) }),
                assets: assets, fingerprints: renderer.pageFingerprintsByPath(), mirrored: mirrored)
        }

        /// The paths of pages whose fingerprint differs from `previous`'s, or that are new or
        /// gone, sorted.
        func changedPages(since previous: Rendering) -> [String] {
            let old = previous.fingerprints.byPath
            let new = fingerprints.byPath
            var changed = new.compactMap { old[$0.key] == $0.value ? nil : $0.key }
            changed += old.keys.filter { new[$0] == nil }
            return changed.sorted()
        }
    }

    private struct State {
        /// Where the documents are read from (opened by `loadAll`).
        var source: (any DocumentSource)?
        var decoded: [DocumentKey: DecodedDocument] = [:]
        /// Store files that cannot be read right now (invalid JSON mid-edit), with their error.
        var unreadable: [String: String] = [:]
        var theme: Theme?
        var themeError: String?
        var assets: [String: [UInt8]] = [:]
        var rendering: Rendering?
        /// The rendering shows every document as decoded now (false after a failed update).
        var renderingIsCurrent = false
        /// Why the last good state is still served, as the last update said.
        var shownError: String?
    }

    private let state = Mutex(State())

    /// What one update did, for the log and the browser.
    package struct Update: Sendable {
        /// Paths of pages whose bytes may differ now (`["*"]`: all of them).
        package var changedPages: [String]
        /// Why the last good state is still served, if it is.
        package var error: String?
        /// `tweets/t42 modified → 31 pages updated (12 ms)`.
        package var summary: String
        /// A `--viewer` that names no one user of the store, when that is the error.
        package var viewerError: SiteError? = nil
        /// What kind of trouble `error` is, for the overlay's title (nil: a build error).
        package var errorTitle: String? = nil
    }

    /// The overlay's title while a followed database cannot be reached.
    package static let staleTitle = "Not up to date"

    /// - Parameters:
    ///   - templates: the theme folder given, or nil (see `Theme.folder(given:in:)`).
    ///   - projectFolder: the folder of the site's `roost.json` (empty: the current folder).
    ///   - environment: where a database's endpoint is looked for (`StoreAddress.source`).
    package init(
        store: String, templates: String?, config: SiteConfig, media: MediaOptions = MediaOptions(),
        projectFolder: String = "", environment: [String: String] = ProcessEnvironment.current
    ) {
        self.storePath = store
        self.environment = environment
        self.media = media
        self.templatesPath = Theme.folder(given: templates, in: projectFolder)
        self.config = config
        templatesRoot = templatesPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    // MARK: Serving

    /// The bytes of a page or static file (`u/mina/index.html`), or nil.
    package func file(at path: String) -> [UInt8]? {
        let (rendering, page) = state.withLock { state in (state.rendering, state.rendering?.pages[path]) }
        guard let rendering else {
            // Nothing rendered yet (the store was broken from the start): every page is a
            // stand-in that the server overlays with the error, until the store is valid.
            return path.hasSuffix(".html") && !Self.isFileFolder(path) ? Array(Self.waitingPage.utf8) : nil
        }
        if let page { return try? rendering.renderer.render(page) }
        return rendering.assets[path] ?? rendering.mirrored?.file(at: path)
    }

    /// `style.css/index.html`, `feed.xml/index.html`: what the server asks for to see whether
    /// `/style.css` is a folder; with a file's name, no page (and no redirect to `style.css/`).
    static func isFileFolder(_ path: String) -> Bool {
        guard path.hasSuffix("/index.html") else { return false }
        let folder = path.dropLast("/index.html".count)
        let name = folder.split(separator: "/").last ?? folder[...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let suffix = name[name.index(after: dot)...]
        return (1...5).contains(suffix.count) && suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            && suffix.lowercased() != "html"
    }

    /// The page served for any page's address while no state of the store has rendered.
    static let waitingPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Roost preview: waiting for a valid store</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body><main><h1>Waiting for a valid store</h1>
        <p>The store cannot be read yet. This page shows the site as soon as it can.</p></main></body></html>
        """

    // MARK: Updating

    /// Reads everything: the first build, or after a change too big to follow file by file.
    package func loadAll() -> Update {
        let start = ContinuousClock.now
        do {
            let source = try StoreAddress.source(for: storePath, environment: environment)
            state.withLock { $0.source = source }
            try source.checkShape()
            let store = try source.readStore()
            let decoded = store.documents.parallelMap(DecodedDocument.init)
            state.withLock { state in
                state.decoded = Dictionary(
                    zip(store.documents.map { DocumentKey($0.path) }, decoded), uniquingKeysWith: { $1 })
                state.unreadable = [:]
            }
        } catch {
            state.withLock { $0.unreadable = [storePath: "\(error)"] }
        }
        reloadTemplates()
        return refresh(templatesChanged: true, contentEdits: nil, start: start, what: "\(storePath) loaded")
    }

    /// Follows the store's changes (`DocumentSource.follow`), each batch for `apply`.
    package func follow(
        debounce: Duration, _ onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws -> any ChangeFollowing {
        let source = try state.withLock { $0.source } ?? StoreAddress.source(for: storePath, environment: environment)
        return try source.follow(debounce: debounce, onChange)
    }

    /// True when a change the theme's watcher saw is under this site's theme folder.
    private func concerns(themeChange change: FileWatcher.Change) -> Bool {
        change.root.standardizedFileURL.path == templatesRoot
    }

    /// Applies a batch of the store's changes (from `follow`) and of the theme's files (those
    /// under other folders are left out).
    package func apply(_ changes: [SourceChange], theme: Set<FileWatcher.Change> = []) -> Update {
        let start = ContinuousClock.now
        let themeChanges = theme.filter { concerns(themeChange: $0) }.sorted { $0.path < $1.path }
        let templatesChanged = !themeChanges.isEmpty
        var described = themeChanges.map { "templates/\($0.path) \($0.kind)" }
        var needsFullRead = false
        // Tweets whose new content changes nothing derived: the fast path, if all changes are such.
        var contentEdits: [Tweet]? = []
        // Documents a database sent (the listen stream's step), described by what they are.
        var received: [DocumentEdit] = []
        var interruption: String?
        var resumed = false
        let source = state.withLock { $0.source }
        for change in changes {
            switch change.target {
            case .store:
                needsFullRead = true
                described.append("\(storePath) \(change.kind)")
            case .folder(let folder):
                // A folder created, or deleted while documents were under it (not an editor's file).
                if change.kind != .deleted || holdsDocuments(under: folder) {
                    needsFullRead = true
                    described.append(change.description)
                }
            case .document(let path, let entry):
                described.append(change.description)
                guard let source else {
                    needsFullRead = true
                    continue
                }
                if !apply(entry, of: path, from: source, deleted: change.kind == .deleted, edits: &contentEdits) {
                    contentEdits = nil
                }
            case .received(let path, let document):
                let edit = put(document.map(DecodedDocument.init), at: path, edits: &contentEdits)
                if let edit { received.append(edit) }
            case .everything(let documents):
                received += replaceAll(with: documents)
                contentEdits = nil
            case .interrupted(let why):
                interruption = why
            case .resumed:
                resumed = true
            }
        }
        if !received.isEmpty { described.append(DocumentEdit.summary(of: received, handle: handle(ofUser:))) }
        if resumed { described.insert("\(storePath) followed again", at: 0) }
        if let interruption, received.isEmpty, !needsFullRead {
            // Nothing new can be shown: the last state stays, marked as older than the store.
            let message = "\(storePath): \(interruption); the pages show the data as it was when the stream stopped"
            return Update(
                changedPages: [], error: message, summary: "\(storePath) not followed: \(interruption)",
                errorTitle: Self.staleTitle)
        }
        let what = described.count <= 3 ? described.joined(separator: ", ") : "\(described.count) files changed"
        // A store that could not be read as a whole is read as a whole again.
        if state.withLock({ $0.unreadable[storePath] != nil }) { needsFullRead = true }
        if needsFullRead {
            var update = loadAll()
            update.summary = what + " → " + update.summary
            return update
        }
        if received.isEmpty, changes.allSatisfy(\.isDatabaseStep), !templatesChanged {
            // A step that changed no document (the database resent what it had): nothing to do.
            let error = state.withLock { $0.shownError }
            return Update(changedPages: [], error: error, summary: resumed ? "\(what): nothing changed" : "")
        }
        if templatesChanged { reloadTemplates() }
        return refresh(
            templatesChanged: templatesChanged, contentEdits: templatesChanged ? nil : contentEdits,
            start: start, what: what)
    }

    /// Reads the document of `entry` again (a file deleted, or gone again by the time the
    /// batch is read, is a deleted document); a tweet whose new content alone changed goes in
    /// `edits`. False when it is not such a tweet, or cannot be read now.
    private func apply(
        _ entry: String, of path: DocumentPath, from source: any DocumentSource, deleted: Bool, edits: inout [Tweet]?
    ) -> Bool {
        do {
            let new = try (deleted ? nil : source.documents(inEntry: entry))?.first.map(DecodedDocument.init)
            state.withLock { $0.unreadable[entry] = nil }
            let edit = put(new, at: path, edits: &edits)
            return edit == nil || edits != nil
        } catch {
            state.withLock { $0.unreadable[entry] = "\(error)" }
            return false
        }
    }

    /// Keeps `new` as the document at `path` (nil: deleted); a tweet whose new content alone
    /// changed goes in `edits`, any other change sets it to nil. Returns what changed, nil
    /// when the document is as it was.
    private func put(_ new: DecodedDocument?, at path: DocumentPath, edits: inout [Tweet]?) -> DocumentEdit? {
        let old = state.withLock { state in
            defer { state.decoded[DocumentKey(path)] = new }
            return state.decoded[DocumentKey(path)]
        }
        if old == new { return nil }
        if let tweet = new?.tweet, old?.tweet != nil, old?.diagnostics == new?.diagnostics {
            edits?.append(tweet)
        } else {
            edits = nil
        }
        return DocumentEdit(path: path, old: old, new: new)
    }

    /// Every document replaced by `documents` (a database's first consistent state); returns
    /// what changed.
    private func replaceAll(with documents: [Document]) -> [DocumentEdit] {
        let decoded = documents.parallelMap(DecodedDocument.init)
        let new = Dictionary(zip(documents.map { DocumentKey($0.path) }, decoded), uniquingKeysWith: { $1 })
        let old = state.withLock { state in
            defer {
                state.decoded = new
                state.unreadable = [:]
            }
            return state.decoded
        }
        var edits: [DocumentEdit] = []
        for (key, document) in new where old[key] != document {
            edits.append(DocumentEdit(path: key.path, old: old[key], new: document))
        }
        for (key, document) in old where new[key] == nil {
            edits.append(DocumentEdit(path: key.path, old: document, new: nil))
        }
        return edits.sorted { $0.path < $1.path }
    }

    /// The handle of the user `uid`, to name them in what changed.
    private func handle(ofUser uid: String) -> String? {
        state.withLock { $0.decoded[DocumentKey(DocumentPath(["users", uid]))]?.user?.username }
    }

    /// Whether documents were read from under `folder` (relative to the store). Segments, not
    /// strings built from them: this runs for every editor's temporary file deleted.
    private func holdsDocuments(under folder: String) -> Bool {
        let prefix = folder.split(separator: "/").map(String.init)
        return state.withLock { state in
            state.decoded.keys.contains {
                $0.path.segments.count > prefix.count && $0.path.segments.starts(with: prefix)
            }
        }
    }

    private func reloadTemplates() {
        do {
            let theme = try templatesPath.map { try Theme(folder: $0) } ?? Theme.builtIn
            state.withLock { state in
                state.theme = theme
                state.themeError = nil
                state.assets = Dictionary(
                    uniqueKeysWithValues: theme.staticFiles.map { (Theme.staticFolder + $0.path, $0.bytes) })
            }
        } catch {
            state.withLock { $0.themeError = "\(error)" }
        }
    }

    /// Derives the snapshot again and swaps in a new rendering if it has no errors.
    /// `contentEdits`: the batch only changed these tweets' content (see `Snapshot.replacingContent`).
    private func refresh(
        templatesChanged: Bool, contentEdits: [Tweet]?, start: ContinuousClock.Instant,
        what: String
    ) -> Update {
        let (unreadable, theme, themeError, assets, previous, previousIsCurrent) = state.withLock { state in
            (
                state.unreadable, state.theme, state.themeError, state.assets, state.rendering,
                state.renderingIsCurrent
            )
        }
        func failed(_ message: String, viewerError: SiteError? = nil) -> Update {
            let served = state.withLock { state in
                state.renderingIsCurrent = false
                state.shownError = message
                return state.rendering != nil
            }
            let serving = served ? "still serving the last good build" : "pages show it until the store is valid"
            return Update(
                changedPages: [], error: message, summary: "\(what) → error, \(serving):\n\(message)",
                viewerError: viewerError)
        }
        func finished(_ rendering: Rendering, _ changed: [String]) -> Update {
            var what = what
            if let warnings = rendering.mirrored?.warnings, let first = warnings.first {
                what +=
                    " (\(warnings.count) image\(warnings.count == 1 ? "" : "s") not mirrored: \(first)"
                    + (warnings.count > 1 ? ", …" : "") + ")"
            }
            state.withLock { state in
                state.rendering = rendering
                state.renderingIsCurrent = true
                state.shownError = nil
            }
            let milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1))
            let count = changed == ["*"] ? rendering.pages.count : changed.count
            let pagesText = "\(changed == ["*"] ? "all " : "")\(count) page\(count == 1 ? "" : "s")"
            return Update(
                changedPages: changed, error: nil, summary: "\(what) → \(pagesText) updated (\(milliseconds) ms)")
        }
        if let (file, error) = unreadable.min(by: { $0.key < $1.key }) {
            return failed(file == storePath ? error : "\(error)")
        }
        if let themeError { return failed(themeError) }
        guard let theme else { return failed("\(templatesPath ?? "built-in theme"): no templates") }
        do {
            // Fast path: only content changed, and the last rendering was of the state before this batch.
            if let contentEdits, let previous, previousIsCurrent,
                let (snapshot, changedTweets) = previous.renderer.snapshot.replacingContent(of: contentEdits)
            {
                let (rendering, changed) = try updated(
                    previous, snapshot: snapshot, changedTweets: changedTweets, assets: assets)
                return finished(rendering, changed)
            }
            let snapshot = Snapshot(decoded: state.withLock { Array($0.decoded.values) })
            let errors = snapshot.errors
            if !errors.isEmpty {
                let (lines, more) = SitePipeline.summary(of: errors)
                return failed((lines + (more > 0 ? ["… and \(more) more"] : [])).joined(separator: "\n"))
            }
            let pipeline = try SitePipeline(config: config, theme: theme, media: media)
            let mirrored = try pipeline.mirror(snapshot)
            let renderer = try pipeline.renderer(
                of: snapshot, images: mirrored?.images ?? SiteImages(),
                reusing: templatesChanged ? nil : previous?.renderer)
            let rendering = Rendering(renderer: renderer, assets: assets, mirrored: mirrored)
            let changed = templatesChanged || previous == nil ? ["*"] : rendering.changedPages(since: previous!)
            return finished(rendering, changed)
        } catch let error as SiteError where error.isAboutTheViewer {
            return failed("\(error)", viewerError: error)
        } catch {
            return failed("\(error)")
        }
    }

    /// The last rendering brought up to date with tweets whose content alone changed
    /// (`Snapshot.replacingContent`): only their captions rendered again, only the pages that
    /// show them fingerprinted again, unless new words cut the search index's shards elsewhere.
    private func updated(
        _ previous: Rendering, snapshot: Snapshot, changedTweets: [Int], assets: [String: [UInt8]]
    ) throws -> (Rendering, [String]) {
        // Only the edited captions can bring images the last state had no copy of.
        var mirrored = previous.mirrored
        if let old = mirrored {
            let references = MirroredMedia.captionReferences(of: changedTweets, in: snapshot)
            mirrored = old.merging(try MirroredMedia.mirror(references, options: media))
        }
        let renderer = try previous.renderer.updatingContent(
            of: changedTweets, in: snapshot, images: mirrored?.images)
        if renderer.plan.pages != previous.renderer.plan.pages {
            // New words cut the search index's shards elsewhere: new files, so the plan is new.
            let rendering = Rendering(renderer: renderer, assets: assets, mirrored: mirrored)
            return (rendering, rendering.changedPages(since: previous))
        }
        var fingerprints = previous.fingerprints
        let changed = renderer.updateFingerprints(&fingerprints, changed: changedTweets).sorted()
        return (
            Rendering(
                renderer: renderer, pages: previous.pages, assets: assets, fingerprints: fingerprints,
                mirrored: mirrored),
            changed
        )
    }
}
