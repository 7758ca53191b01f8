import Model
import Mustache
import Search
import Site
import Support

/// The steps from a store's snapshot to a site ready to publish, shared by `roost build`
/// (`SiteBuild`, which publishes into the output folder) and `roost serve` (`LiveSite`, which
/// keeps it in memory): the problems that stop it, the images mirrored, the search index and
/// captions, the renderer. Where the pages go is the publisher's business, not this.
package struct SitePipeline: Sendable {
    package let config: SiteConfig
    package let theme: Theme
    package let templates: TemplateLibrary
    /// Where and how `config.media == .mirror` keeps images.
    package let media: MediaOptions

    package init(config: SiteConfig, theme: Theme, media: MediaOptions) throws(SiteError) {
        self.config = config
        self.theme = theme
        templates = try theme.templates(language: config.language)
        self.media = media
    }

    /// The problems that stop a build (errors, and warnings too when `strict`), and the
    /// warnings it goes on with.
    package static func problems(in diagnostics: [Diagnostic], strict: Bool) -> (
        fatal: [Diagnostic], warnings: [Diagnostic]
    ) {
        let errors = diagnostics.filter { $0.severity == .error }
        let warnings = diagnostics.filter { $0.severity == .warning }
        return (errors + (strict ? warnings : []), warnings)
    }

    /// How many problems a summary shows before "… and N more".
    package static let problemsShown = 10

    /// The first `problemsShown` of `problems`, one a line, and how many more there are.
    package static func summary(of problems: [Diagnostic]) -> (lines: [String], more: Int) {
        (problems.prefix(problemsShown).map { "\($0)" }, max(0, problems.count - problemsShown))
    }

    /// With `--media mirror`, every remote image of `snapshot` mirrored through the cache
    /// (nil in the other modes, which never touch the network).
    package func mirror(_ snapshot: Snapshot, progress: ((Int, Int) -> Void)? = nil) throws(BuildError)
        -> MirroredMedia?
    {
        guard config.media == .mirror else { return nil }
        return try MirroredMedia.mirror(MirroredMedia.references(in: snapshot), options: media, progress: progress)
    }

    /// The renderer of `snapshot`: with `captionKeys` and `renders`, the search keys and
    /// rendered captions a build cache already has (the others are made now), or with
    /// `search`, the index itself (from a build cache's postings); with `kept`, the tweets'
    /// dates and caption langs a build cache has (`ContextParts`); with `reusing`, what an
    /// earlier renderer of the same theme made that still holds (`roost serve`).
    package func renderer(
        of snapshot: Snapshot, images: SiteImages, captionKeys: [[String]]? = nil, search known: SearchIndex? = nil,
        renders: CaptionRenders? = nil, kept: ContextParts? = nil, keptCards: KeptCards? = nil,
        reusing previous: SiteRenderer? = nil, phases: (BuildPhase) -> Void = { _ in }
    ) throws(SiteError) -> SiteRenderer {
        let search = known ?? captionKeys.map { SearchIndex(snapshot: snapshot, captionKeys: $0) }
        if search != nil { phases(.searchIndex) }
        let renderer = try SiteRenderer(
            snapshot: snapshot, config: config, templates: templates, templateFolder: theme.origin,
            stylesheet: theme.stylesheet, images: images, reusing: previous, search: search, renders: renders,
            kept: kept, keptCards: keptCards)
        phases(.captions)  // (cards are rendered with the first page that shows them)
        return renderer
    }
}
