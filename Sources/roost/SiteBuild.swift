import Foundation
import Dispatch
import Model
import Mustache
import Output
import Site
import Store
import Support
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The whole pipeline of `build`: store → snapshot → plan → render → output.
/// Everything that can fail on the input is checked before the output folder is touched.
struct SiteBuild {
    let options: BuildOptions

    init(_ options: BuildOptions) {
        self.options = options
    }

    func run() throws -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now
        var phases = PhaseTimer()
        let inputs = try BuildInputs(options, version: Roost.version)
        phases.end("stamp inputs")
        // With an output folder already there, take it (and its lock) now: if the last build
        // was made from the same inputs and its files are intact, there is nothing to do.
        // Without one, it is created only once the store has been read without errors.
        var openedWriter: SiteWriter?
        if isDirectory(options.output) {
            let writer = try SiteWriter(outputDirectory: options.output)
            if inputs.match(previous: writer.previousInputs), writer.previousOutputIsIntact() {
                writer.abandon()
                phases.end("check output")
                phases.report()
                if !options.quiet {
                    let seconds = (clock.now - start) / .seconds(1)
                    Console.out("\(options.output): nothing changed since the last build (store files, templates "
                        + "and options as they were); done in \(String(format3: seconds)) s")
                }
                return ExitStatus.success
            }
            openedWriter = writer
        }
        let (snapshot, _) = try Snapshot.read(at: options.store, phases: { phases.end($0) })
        guard report(snapshot.diagnostics) else { return ExitStatus.failure }

        let templates = try TemplateLibrary(directory: options.templates)
        let renderer = try SiteRenderer(snapshot: snapshot, config: options.config, templates: templates,
                                        templateFolder: options.templates)
        let assets = try StaticAssets(folder: options.templates + "/static")
        phases.end("captions")  // (cards are rendered with the first page that shows them)

        let writer = try openedWriter ?? SiteWriter(outputDirectory: options.output)
        // Pages whose fingerprint matches the last build's are kept without rendering them.
        var pages = Array(zip(renderer.plan.pages, renderer.pageFingerprints(salt: inputs.templates)))
        var assetFiles = assets.files
        if let shard = options.shard {
            pages = pages.filter { shard.contains($0.0.path) }
            assetFiles = assetFiles.filter { shard.contains("static/" + $0.path) }
        }
        let progress = Progress(total: pages.count, enabled: !options.quiet)
        phases.end("fingerprints")
        do {
            try render(pages, with: renderer, into: writer, progress: progress)
            for file in assetFiles {
                _ = try writer.write("static/" + file.path, file.bytes)
            }
        } catch {
            writer.abandon()
            progress.finish()
            throw error
        }
        phases.end("render and stage")
        let summary = try writer.commit(inputs: inputs.token)
        phases.end("commit")
        progress.finish()
        phases.report()
        if !options.quiet {
            let seconds = (clock.now - start) / .seconds(1)
            let part = options.shard.map { " (shard \($0.index)/\($0.count))" } ?? ""
            Console.out("\(options.output)\(part): \(pages.count) pages and \(assetFiles.count) static files; "
                + "\(summary.written) written, \(summary.unchanged) unchanged, \(summary.removed) removed "
                + "in \(String(format3: seconds)) s")
        }
        return ExitStatus.success
    }

    /// Prints problems to standard error; false when the build must stop
    /// (errors, or warnings with `--strict`).
    private func report(_ diagnostics: [Diagnostic]) -> Bool {
        let errors = diagnostics.filter { $0.severity == .error }
        let warnings = diagnostics.filter { $0.severity == .warning }
        let fatal = errors + (options.strict ? warnings : [])
        if !fatal.isEmpty {
            for d in fatal { Console.error("error: \(d)") }
            let strictNote = options.strict && !warnings.isEmpty ? " (--strict: warnings count as errors)" : ""
            Console.error("roost build: \(fatal.count) problem\(fatal.count == 1 ? "" : "s") in \(options.store)\(strictNote); nothing was written")
            return false
        }
        if !warnings.isEmpty, !options.quiet {
            for d in warnings.prefix(10) { Console.error("warning: \(d)") }
            if warnings.count > 10 { Console.error("warning: … and \(warnings.count - 10) more; 'roost check' lists them all") }
        }
        return true
    }

    /// Renders and hands over every page (with its fingerprint), on all cores.
    private func render(_ pages: [(Page, UInt64)], with renderer: SiteRenderer, into writer: SiteWriter,
                        progress: Progress) throws {
        let failure = Mutex<(any Error)?>(nil)
        let chunk = 64
        let chunks = (pages.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            for i in (c * chunk)..<min(pages.count, (c + 1) * chunk) {
                if failure.withLock({ $0 != nil }) { return }
                do {
                    let (page, fingerprint) = pages[i]
                    if try writer.keep(page.path, fingerprint: fingerprint) {
                        progress.advance()
                        continue
                    }
                    _ = try writer.write(page.path, try renderer.render(page), fingerprint: fingerprint)
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    return
                }
                progress.advance()
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

private func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

extension String {
    /// `1.234`.
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        self = "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// Everything in the templates folder, and Roost's version: what page fingerprints cannot see
/// in the model. Any change to a template or asset makes every page render again.
enum TemplateFingerprint {
    static func of(folder: String, version: String) throws -> Int {
        var hasher = StableHasher()
        hasher.combine(version)
        let manager = FileManager.default
        for path in (manager.subpaths(atPath: folder) ?? []).sorted() {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            hasher.combine(path)
            hasher.combine(bytes: [UInt8](manager.contents(atPath: folder + "/" + path) ?? Data()))
        }
        return hasher.finalize()
    }
}
