import Build
import Site
import Synthetic

/// Every option of every command, each declared once: its name, value type, default, range or
/// choices, `roost.json` key and help. Defaults the library also has are taken from it
/// (`SiteConfig`, `BuildOptions`, `MediaOptions`), not written again.
enum Options {
    private static let site = SiteConfig()
    private static let build = BuildOptions()

    // MARK: Keys of roost.json (in the order its errors list them)

    static let title = Option.value("title", "TEXT", default: site.title, config: "title", "the site's name")
    static let description = Option.value(
        "description", "TEXT", config: "description", "what the site is about (the home page's description)")
    static let baseURL = Option.value(
        "base-url", "URL", default: site.baseURL, config: "baseURL",
        "the URL path or absolute http(s) URL the site is served from")
    static let language = Option.value(
        "language", "TAG", default: site.language, config: "language", completes: .themeLanguages,
        "the language of the pages and of the theme's words (a table in the\ntheme's i18n/: en, ko)")
    static let pageSize = Option.value(
        "page-size", "N", .wholeNumber(1...10_000), default: String(site.pageSize), config: "pageSize",
        "tweets per page")
    static let viewer = Option.value(
        "viewer", "HANDLE", config: "viewer", "render the site as this user sees it: their likes filled")
    static let store = Option.value(
        "store", "PATH", .path, default: build.store, config: "store",
        "a directory store, an export file or folder, or a database,\nfirestore://PROJECT[/DATABASE]")
    static let templates = Option.value(
        "templates", "DIR", .path, config: "templates",
        "the theme folder (default: templates/ in roost.json's folder, see\n--config, when there is one, else the theme built into roost)"
    )
    static let output = Option.value(
        "output", "DIR", .path, default: build.output, config: "output", "where the site goes")
    static let media = Option.value(
        "media", "MODE", .choice(MediaMode.allCases.map(\.rawValue)), default: site.media.rawValue, config: "media",
        """
        remote images (profile pictures, images in captions and bios):
        link (point at them), mirror (download each once into media/
        and point at the copy: the site makes no request to another
        host) or none (the placeholder everywhere)
        """)
    static let cache = Option.value(
        "cache", "DIR", .path, default: build.media.cache, config: "cache",
        "the build cache (decoded store files, rendered captions) and\n--media mirror's downloads (shared by build and serve)"
    )
    static let mediaAllow = Option.value(
        "media-allow", "NETWORK", config: "mediaAllow", repeats: true,
        """
        --media mirror: a network (CIDR: 127.0.0.1/32, 192.168.1.0/24, fd00::/8)
        mirroring may connect to although it is loopback, private, link-local,
        shared or reserved, all of which are refused otherwise, checked after
        DNS and on every redirect (a local picture server, on purpose)
        """)
    static let allowHost = Option.value(
        "allow-host", "NAME", config: "allowHosts", repeats: true,
        "a host name the preview also answers (a proxy's, a LAN name);\n.example.test takes its subdomains too")

    // MARK: Build, serve and check

    static let config = Option.value(
        "config", "FILE", .path, completes: .files(suffix: ".json"),
        """
        the settings file (default: roost.json in the current folder, if
        there is one). Its paths are relative to its folder, and so are the
        defaults of those it does not set: content, templates/ (when there),
        public and .roost-cache. Paths on the command line are relative to
        the current folder.
        """)
    static let offline = Option.flag("offline", "--media mirror: use the cache alone, open no connection")
    static let refreshMedia = Option.flag(
        "refresh-media", "--media mirror: ask again for every cached image (ETag and\nLast-Modified)")
    static let strict = Option.flag("strict", "fail on warnings (dangling references), not only on errors")
    static let shard = Option.value(
        "shard", "K/N", .text,
        """
        write only part K of N of the site (a stable split by URL), so N
        machines can each build a part; copied together, the parts are
        the whole site
        """)
    static let quiet = Option.flag("quiet", "print nothing but errors")
    static let noCache = Option.flag(
        "no-cache",
        "read and decode every store file again, as a first build does;\nthe build cache is neither used nor written")
    static let json = Option.flag(
        "json", "print the report as JSON (a store that cannot be read too: one unreadable-store error)")
    static let port = Option.value("port", "N", .wholeNumber(0...65535), default: "8000", "the port")
    static let host = Option.value("host", "ADDRESS", default: "127.0.0.1", "the address to listen on")

    // MARK: Init, import and generate

    static let theme = Option.flag("theme", "also write the built-in theme to DIR/templates/, for editing")
    static let force = Option.flag("force", "replace the contents of a non-empty destination")
    static let production = Option.flag(
        "production", "allow writing into Cloud Firestore itself, not the emulator (SPEC 11)")
    static let to = Option.value("to", "DIR", .path, "the folder to write (required); refused if it is not empty")
    static let users = Option.value("users", "N", .wholeNumber(1...100_000_000), default: "200", "users")
    static let tweets = Option.value("tweets", "N", .wholeNumber(0...100_000_000), default: "2000", "tweets")
    static let seed = Option.value("seed", "N", .wholeNumber(0...Int.max), default: "1", "the seed")
    static let likesPerTweet = Option.value(
        "likes-per-tweet", "X", .number(0...1000), default: Option.decimal(SyntheticStore.Options.defaultLikesPerTweet),
        "likes per tweet on average")
    static let pictureBase = Option.value(
        "picture-base", "URL", .text,
        """
        an http(s) URL: user n's profile picture is URL/n.png
        """)

    /// Every declaration, once.
    static let all: [Option] = [
        title, description, baseURL, language, pageSize, viewer, store, templates, output, media, cache, mediaAllow,
        allowHost, config, offline, refreshMedia, strict, shard, quiet, noCache, json, port, host, theme, force,
        production, to,
        users, tweets, seed, likesPerTweet, pictureBase,
    ]

    /// The keys `roost.json` may hold: those of the options that have one.
    static let projectKeys: [ProjectFile.Key] = all.compactMap(\.configEntry)
}

/// The options `build`, `serve` and `check` share, declared once as groups each command lists
/// (`serve` lets `--store` repeat: `sources.repeating(Options.store)`).
enum SiteOptions {
    /// Where the store is, and the settings file.
    static let sources = [Options.config, Options.store]
    /// What pages say.
    static let pages = [Options.pageSize, Options.viewer, Options.title, Options.description, Options.language]
    /// What is done with remote images.
    static let media = [Options.media, Options.cache, Options.offline, Options.refreshMedia, Options.mediaAllow]
}
