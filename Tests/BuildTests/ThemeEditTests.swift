import Build
import Foundation
import TestSupport
import Testing

/// An edit to the theme re-renders only the pages it can change (a tweet page does not include
/// `tag.mustache`), and the rebuilt site is still the one a clean build makes, byte for byte.
@Suite("SiteBuild: a theme edit re-renders only the pages it can change")
struct ThemeEditTests {
    /// What a rebuild after an edit did.
    struct Rebuild {
        let report: BuildReport
        /// Before the edit, every file of the site.
        let before: [String: Data]
        /// The files whose bytes the rebuild changed (or added, or removed).
        let changed: [String]

        /// The pages of the site before the edit whose paths start with `prefix` and end in `.html`.
        func pages(under prefix: String) -> [String] {
            before.keys.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".html") }.sorted()
        }
    }

    /// Builds a copy of the sample site, appends `text` to the theme's `file`, rebuilds, and
    /// expects the result to equal a clean build.
    func rebuild(
        appending text: String, to file: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Rebuild {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let before = work.files("site")
        let path = work.path("templates/" + file)
        try (String(contentsOfFile: path, encoding: .utf8) + text).write(
            toFile: path, atomically: true, encoding: .utf8)
        let report = try build(work, "site")
        let after = work.files("site")
        try build(work, "clean")
        #expect(differing(work, "site", "clean").isEmpty, "after editing \(file)", sourceLocation: sourceLocation)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return Rebuild(report: report, before: before, changed: changed)
    }

    @Test func aPageTemplateReRendersOnlyItsPages() throws {
        let edit = try rebuild(appending: "<!-- edited -->\n", to: "tweet.mustache")
        let tweetPages = edit.pages(under: "t/")
        #expect(tweetPages.count > 10)
        #expect(edit.changed == tweetPages)
        #expect(edit.report.pagesRendered == tweetPages.count, "of \(edit.report.pages) pages")
        #expect(edit.report.summary?.written == tweetPages.count)
    }

    /// `partials/tabs` is in the profiles' tabs and the favorites pages, nowhere else.
    @Test func aPartialReRendersThePagesOfEveryKindThatIncludesIt() throws {
        let edit = try rebuild(appending: "<!-- edited -->\n", to: "partials/tabs.mustache")
        let userPages = edit.pages(under: "u/")
        #expect(userPages.contains { $0.contains("/favorites/") } && userPages.contains { $0.contains("/likes/") })
        #expect(edit.changed == userPages)
        #expect(edit.report.pagesRendered == userPages.count, "of \(edit.report.pages) pages")
    }

    /// The layout is in every HTML page, and in nothing else (feeds, sitemap, search data).
    @Test func theLayoutReRendersEveryHTMLPageOnly() throws {
        let edit = try rebuild(appending: "<!-- edited -->\n", to: "layout.mustache")
        let htmlPages = edit.pages(under: "")
        #expect(edit.changed == htmlPages)
        #expect(edit.report.pagesRendered == htmlPages.count)
        #expect(edit.report.pagesRendered < edit.report.pages)
    }

    /// Only 404.html carries the stylesheet (inline); the others link it by path.
    @Test func theStylesheetReRendersOnlyTheNotFoundPage() throws {
        let edit = try rebuild(appending: "\n/* edited */\n", to: "static/style.css")
        #expect(edit.changed == ["404.html", "static/style.css"])
        #expect(edit.report.pagesRendered == 1)
    }

    @Test func aStaticFileReRendersNoPage() throws {
        let edit = try rebuild(appending: "\n// edited\n", to: "static/time.js")
        #expect(edit.changed == ["static/time.js"])
        #expect(edit.report.pagesRendered == 0)
    }

    /// The site is in English: the Korean table is not used.
    @Test func anotherLanguagesTextsReRenderNoPage() throws {
        let edit = try rebuild(appending: "\n", to: "i18n/ko.json")
        #expect(edit.changed.isEmpty)
        #expect(edit.report.pagesRendered == 0)
    }

    /// Every template and the texts, edited one at a time: the rebuild equals a clean build
    /// (checked in `rebuild`), so no page that includes it was kept.
    @Test(arguments: try themeFiles(suffix: ".mustache"))
    func everyTemplateEditEqualsACleanBuild(_ file: String) throws {
        let edit = try rebuild(appending: "edited\n", to: file)
        #expect(!edit.changed.isEmpty, "the edit shows somewhere")
        #expect(edit.report.pagesRendered >= edit.changed.count)
    }

    @Test func anEditedTextEqualsACleanBuild() throws {
        let work = try sampleSiteCopy()
        try build(work, "site")
        let table = work.path("templates/i18n/en.json")
        let text = try String(contentsOfFile: table, encoding: .utf8)
        for key in ["\"date\": \"", "\"unknownUser\": \"", "\"nav.home\": \""] {
            #expect(text.contains(key), "\(key)")
        }
        // A date in the search data, a name in the feeds, a word of the layout.
        try text.replacingOccurrences(of: "\"date\": \"", with: "\"date\": \"on ")
            .replacingOccurrences(of: "\"unknownUser\": \"", with: "\"unknownUser\": \"a ")
            .replacingOccurrences(of: "\"nav.home\": \"", with: "\"nav.home\": \"The ")
            .write(toFile: table, atomically: true, encoding: .utf8)
        try build(work, "site")
        try build(work, "clean")
        #expect(differing(work, "site", "clean").isEmpty)
    }
}

/// The sample theme's files ending in `suffix`, relative to it.
private func themeFiles(suffix: String) throws -> [String] {
    let root = packageRoot + "/templates"
    return (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
}
