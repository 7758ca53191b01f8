import Live
import Site

#if canImport(Glibc)
import Glibc
#endif

/// `roost serve`: build, serve on 127.0.0.1, watch, rebuild what changed, reload open pages.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "preview the site live: rebuilt and reloaded as the store or templates change"
    static let usage = "serve [--store PATH ...] [options]"
    static let about = """
        Serves the site at http://127.0.0.1:8000/ and watches the store and the
        templates. On a change only the documents that changed are read again, and
        open pages that show them reload by themselves. A store that becomes invalid
        (a half-saved file) does not stop the server: pages show the error until the
        store is valid again. Nothing is written to disk.

        Several --store options serve each store under its own prefix, with an index
        page listing them: compare data states side by side.

        Only requests addressed to the preview are answered: their Host must be
        localhost, 127.0.0.1, [::1] or the address it listens on (with --host
        0.0.0.0, any of the machine's addresses and its name), or a name given
        with --allow-host, on any port (an SSH tunnel changes it). Anything else
        gets 403, so that no web page elsewhere can rebind its own name to this
        machine and read the preview; the live-reload stream also refuses pages
        of another site (their Origin).
        """

    static let options =
        SiteOptions.sources.repeating(Options.store) + [Options.templates, Options.port, Options.host]
        + SiteOptions.pages + SiteOptions.media + [Options.allowHost]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        let config = try arguments.siteConfig()
        let preview = LivePreview(
            stores: arguments.all(Options.store), templates: try arguments.value(Options.templates),
            config: config, media: try arguments.mediaOptions(), host: try arguments.required(Options.host),
            port: UInt16(try arguments.integer(Options.port)), allowedHosts: arguments.all(Options.allowHost),
            projectFolder: arguments.projectFolder,
            // An update that failed (the last good state still served) is an error: standard error.
            log: { line, isError in isError ? Console.error(line) : Console.out(line) })
        let interrupted = try Interrupt()
        try preview.start()
        // Only now: a change made as soon as this line appears is seen (tests rely on it).
        Console.out("serving \(preview.url.absoluteString) — Ctrl-C to stop")
        interrupted.wait()
        preview.stop()
        return ExitStatus.success
    }
}
