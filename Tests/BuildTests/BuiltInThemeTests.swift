import Build
import DefaultSite
import Foundation
import TestSupport
import Testing

/// The regular files below `folder` (no dot-names, as the embedding skips them), by path.
private func filesOnDisk(_ folder: String) -> [String: [UInt8]] {
    var found: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
            FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else { continue }
        found[relative] = FileManager.default.contents(atPath: folder + "/" + relative).map { [UInt8]($0) }
    }
    return found
}

private let stale = "the binary's copy differs from the folder: was the package built since it changed?"

@Suite("The theme and sample store inside the binary")
struct BuiltInThemeTests {
    @Test func theBuiltInThemeIsTheRepositorysTemplates() throws {
        let builtIn = try Theme.builtIn
        let folder = try Theme(folder: packageRoot + "/templates")
        #expect(builtIn.origin == "built-in theme")
        #expect(builtIn.files.map(\.path) == folder.files.map(\.path), "\(stale)")
        #expect(builtIn.fingerprint == folder.fingerprint, "\(stale)")
        #expect(builtIn.staticFiles.map(\.path).contains("style.css"))
        let embedded = Dictionary(uniqueKeysWithValues: DefaultSite.theme.map { ($0.path, $0.bytes) })
        #expect(embedded == filesOnDisk(packageRoot + "/templates"), "\(stale)")
    }

    @Test func theSampleStoreIsTheRepositorysContent() {
        let embedded = Dictionary(uniqueKeysWithValues: DefaultSite.store.map { ($0.path, $0.bytes) })
        let onDisk = filesOnDisk(packageRoot + "/content")
        #expect(embedded.count > 100 && embedded.keys.contains { $0.hasPrefix("tweets/") })
        #expect(embedded == onDisk, "\(stale)")
        #expect(DefaultSite.store.map(\.path) == DefaultSite.store.map(\.path).sorted(), "in path order")
    }

    @Test func aFolderGivenIsTheFolderRead() throws {
        #expect(Theme.folder(given: "elsewhere/theme") == "elsewhere/theme")
        #expect(throws: (any Error).self) { try Theme.load(folder: "/no/such/theme") }
        #expect(try Theme.load(folder: packageRoot + "/templates").origin == packageRoot + "/templates")
    }
}
