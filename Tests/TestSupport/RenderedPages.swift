import Model
import Mustache
import Site

/// Every page of a snapshot's site rendered in memory, in plan order, as a build renders
/// them: the one in-memory build the tests share (a build into a folder is `SiteBuild`).
package struct RenderedPages {
    package let renderer: SiteRenderer
    /// The pages' paths, in plan order.
    package let paths: [String]
    package let files: [String: [UInt8]]
    /// A path the plan gives two pages, if it does (the later one is in `files`).
    package let duplicate: String?

    /// - Parameter templates: the default theme's, in `config.language`, when nil.
    package init(
        of snapshot: Snapshot, config: SiteConfig = SiteConfig(), templates: TemplateLibrary? = nil,
        stylesheet: String? = nil, cardBudget: Int? = nil
    ) throws {
        renderer = try SiteRenderer(
            snapshot: snapshot, config: config, templates: templates ?? defaultTemplates(language: config.language),
            stylesheet: stylesheet, cardBudget: cardBudget)
        var files: [String: [UInt8]] = [:]
        var paths: [String] = []
        var duplicate: String?
        for page in renderer.plan.pages {
            if files[page.path] != nil { duplicate = duplicate ?? page.path }
            files[page.path] = try renderer.render(page)
            paths.append(page.path)
        }
        self.paths = paths
        self.files = files
        self.duplicate = duplicate
    }
}
