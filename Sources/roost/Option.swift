/// One command-line option, declared once: parsing, its default and its line in `--help`
/// all come from this declaration.
struct Option: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `--name VALUE` (the last one given wins).
        case value(placeholder: String)
        /// `--name VALUE`, any number of times.
        case repeated(placeholder: String)
        /// `--name`, no value.
        case flag
    }

    let name: String
    let kind: Kind
    /// What the value is used for; may run over several lines (`\n`).
    let help: String
    /// Used when the option is not given (shown in `--help`).
    let defaultValue: String?
    /// The key of `roost.json` that sets it when the command line does not (SPEC 10).
    var configKey: String? = nil

    static func value(
        _ name: String, _ placeholder: String, default defaultValue: String? = nil, config: String? = nil,
        _ help: String
    ) -> Option {
        Option(
            name: name, kind: .value(placeholder: placeholder), help: help, defaultValue: defaultValue,
            configKey: config)
    }

    static func repeated(
        _ name: String, _ placeholder: String, default defaultValue: String? = nil, config: String? = nil,
        _ help: String
    ) -> Option {
        Option(
            name: name, kind: .repeated(placeholder: placeholder), help: help, defaultValue: defaultValue,
            configKey: config)
    }

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, kind: .flag, help: help, defaultValue: nil)
    }

    var takesValue: Bool { kind != .flag }

    /// `--store PATH`.
    var synopsis: String {
        switch kind {
        case .value(let placeholder), .repeated(let placeholder): "--\(name) \(placeholder)"
        case .flag: "--\(name)"
        }
    }
}

/// The options several commands share, declared once.
enum CommonOptions {
    static let store = Option.value(
        "store", "PATH", default: "content", config: "store", "a directory store or a single-file export")
    static let templates = Option.value(
        "templates", "DIR", config: "templates",
        "the theme folder (default: templates/ when the current folder\nhas one, else the theme built into roost)")
    static let output = Option.value("output", "DIR", default: "public", config: "output", "where the site goes")
    static let baseURL = Option.value(
        "base-url", "URL", default: "/", config: "baseURL",
        "the URL path or absolute http(s) URL the site is served from")
    static let pageSize = Option.value("page-size", "N", default: "20", config: "pageSize", "tweets per page")
    static let viewer = Option.value(
        "viewer", "HANDLE", config: "viewer", "render the site as this user sees it: their likes filled")
    static let title = Option.value("title", "TEXT", default: "Roost", config: "title", "the site's name")
    static let description = Option.value(
        "description", "TEXT", config: "description", "what the site is about (the home page's description)")
    static let language = Option.value(
        "language", "TAG", default: "en", config: "language",
        "the language of the pages and of the theme's words (a table in the\ntheme's i18n/: en, ko)")
    static let config = Option.value(
        "config", "FILE", "the settings file (default: roost.json in the current folder, if there is one)")
    static let media = Option.value(
        "media", "MODE", default: "link", config: "media",
        """
        remote images (profile pictures, images in captions and bios):
        link (point at them), mirror (download each once into media/
        and point at the copy: the site makes no request to another
        host) or none (the placeholder everywhere)
        """)
    static let cache = Option.value(
        "cache", "DIR", default: ".roost-cache", config: "cache",
        "the build cache (decoded store files, rendered captions) and\n--media mirror's downloads (shared by build and serve)"
    )
    static let offline = Option.flag("offline", "--media mirror: use the cache alone, open no connection")
    static let refreshMedia = Option.flag(
        "refresh-media", "--media mirror: ask again for every cached image (ETag and\nLast-Modified)")
    static let mediaAllow = Option.repeated(
        "media-allow", "NETWORK", config: "mediaAllow",
        """
        --media mirror: a network (CIDR: 127.0.0.1/32, 192.168.1.0/24, fd00::/8)
        mirroring may connect to although it is loopback, private, link-local,
        shared or reserved, all of which are refused otherwise, checked after
        DNS and on every redirect (a local picture server, on purpose)
        """)
    static let strict = Option.flag("strict", "fail on warnings (dangling references), not only on errors")
    static let force = Option.flag("force", "replace the contents of a non-empty destination")
}

extension Array where Element == Option {
    /// The `options:` table of a command's help: each synopsis, then its help (and default),
    /// continuation lines aligned.
    var helpTable: String {
        let width = (map(\.synopsis.count).max() ?? 0) + 2
        return map { option in
            var lines = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let value = option.defaultValue { lines[lines.count - 1] += " (default: \(value))" }
            if case .repeated = option.kind { lines[lines.count - 1] += "; repeatable" }
            let indent = String(repeating: " ", count: width + 2)
            return "  " + option.synopsis.padding(width) + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }
}
