import Build
import Foundation
import Live
import Site
import TestSupport
import Testing

/// `roost build` and `roost serve` run one pipeline (`SitePipeline`) and differ only in where
/// the pages go: the same store built into a folder and served from memory gives the same
/// files, byte for byte, and no file is in one and not the other.
@Suite("One pipeline: a store built into a folder and served from memory gives the same site")
struct OnePipelineTests {
    static let configs: [SiteConfig] = [
        SiteConfig(),
        SiteConfig(pageSize: 3, viewer: "jiwoo_dev", language: "ko"),
        SiteConfig(baseURL: "https://example.com/archive/", title: "An archive", media: .none),
    ]

    @Test(arguments: configs)
    func everyFileIsTheSameBothWays(config: SiteConfig) throws {
        let work = try TemporaryFolder()
        try work.copy(packageRoot + "/content", to: "store")
        try SiteBuild(
            BuildOptions(store: work.path("store"), templates: nil, output: work.path("site"), config: config)
        ).run()
        let built = work.files("site").filter { !$0.key.hasPrefix(".roost-") }

        let live = LiveSite(store: work.path("store"), templates: nil, config: config)
        let update = live.loadAll()
        #expect(update.error == nil, "\(update.summary)")
        #expect(update.changedPages == ["*"])
        #expect(built.count > 100)
        for (path, bytes) in built {
            #expect(live.file(at: path).map { Data($0) } == bytes, "\(path) differs from the build")
        }
        #expect(live.file(at: "no/such/page/index.html") == nil)
    }
}
