import Model
import Site
import Support

/// What `roost build` is asked to do (SPEC 5).
package struct BuildOptions: Sendable {
    /// A directory store or a single-file export.
    package var store: String
    /// The theme folder; nil when none is given: then `templates/` if the project's folder has
    /// it, else the built-in theme (`Theme.folder(given:in:)`).
    package var templates: String?
    /// The folder of the site's `roost.json` (`ProjectFile.folder(of:)`; empty: the current
    /// folder), where the default theme folder is looked for.
    package var projectFolder: String
    /// Where the site is written.
    package var output: String
    package var config: SiteConfig
    /// Warnings (dangling references) fail the build too.
    package var strict: Bool
    /// Write only this part of the site.
    package var shard: Shard?
    /// The cache of `config.media == .mirror`; its folder also holds the build cache.
    package var media: MediaOptions
    /// Read the store through the build cache (`--no-cache` turns it off): files unchanged
    /// since the last build are not read and decoded again. Off by default in the library,
    /// so a program embedding Roost decides where caches go; `roost build` turns it on.
    package var usesCache: Bool
    /// The build is the last thing its process does (`roost build`): what it made is kept
    /// until the process exits, which gives the memory back at once, rather than freed object
    /// by object while the commit waits. Off in the library, where builds follow one another.
    package var endsProcess = false

    package init(
        store: String = "content", templates: String? = nil, output: String = "public",
        config: SiteConfig = SiteConfig(), strict: Bool = false, shard: Shard? = nil,
        media: MediaOptions = MediaOptions(), usesCache: Bool = false, projectFolder: String = ""
    ) {
        self.projectFolder = projectFolder
        self.media = media
        self.usesCache = usesCache
        self.store = store
        self.templates = templates
        self.output = output
        self.config = config
        self.strict = strict
        self.shard = shard
    }
}

/// `--shard K/N`: part K (1-based) of N of the site's files, split by a stable hash of each
/// file's path, so every machine of a job runner agrees on the split without talking.
package struct Shard: Sendable, Equatable {
    package let index: Int
    package let count: Int

    /// nil unless 1 ≤ index ≤ count.
    package init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`, as on the command line.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    package var description: String { "\(index)/\(count)" }

    /// FNV-1a of the path: the same on every machine and in every build.
    package func contains(_ path: String) -> Bool {
        Int(StableHash.fnv1a(path) % UInt64(count)) == index - 1
    }
}
