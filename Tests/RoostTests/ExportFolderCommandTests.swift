import Foundation
import JSON
import TestSupport
import Testing

/// Export folders through the commands (SPEC 12): `check`, `build` and `import` take one like
/// any store, and a damaged one is an error that names the file and byte, exit 1, the site
/// left as it was. What the reader does is tested in-process (Tests/FirestoreExportTests).
@Suite("roost with export folders")
struct ExportFolderCommandTests {
    static let fixtures = packageRoot + "/Tests/FirestoreExportTests/Fixtures"

    @Test func checkAndBuildReadAnExportFolder() throws {
        let work = try TemporaryFolder()
        let check = try RoostProcess.run(["check", "--store", Self.fixtures + "/sample"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("sample: Firestore export folder; 240 documents, 10 users, 60 tweets"))
        let firebase = try RoostProcess.run(["check", "--store", Self.fixtures + "/firebase"])
        #expect(firebase.status == 0 && firebase.stdout.contains("Firestore export folder; 15 documents"))
        let build = try RoostProcess.run(["build", "--store", Self.fixtures + "/sample", "--output", work.path("site")])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path("site/index.html")))
    }

    /// `import DIR.export --to DIR`: the documents of `content/`, file by file.
    @Test func importWritesTheExportAsADirectoryStore() throws {
        let work = try TemporaryFolder()
        let result = try RoostProcess.run(["import", Self.fixtures + "/sample", "--to", work.path("store")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasSuffix(
                "sample (Firestore export folder): 240 documents written to \(work.path("store"))\n"))
        let written = work.files("store")
        let content = TemporaryFolder.files(at: packageRoot + "/content")
        #expect(Set(written.keys) == Set(content.keys))
        for (path, bytes) in content {
            let mine = try JSONParser.parse([UInt8](try #require(written[path])))
            #expect(Self.sorted(mine) == Self.sorted(try JSONParser.parse([UInt8](bytes))), "\(path)")
        }
    }

    /// JSON with every object's keys in order: an export does not keep the field order.
    static func sorted(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let pairs): .object(pairs.map { ($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
        case .array(let values): .array(values.map(sorted))
        default: json
        }
    }

    @Test func aDamagedExportIsAnErrorExitOneAndTheSiteIsUntouched() throws {
        let work = try TemporaryFolder()
        try work.copy(Self.fixtures + "/sample", to: "sample")
        let site = work.path("site")
        #expect(try RoostProcess.run(["build", "--store", work.path("sample"), "--output", site]).status == 0)
        let before = work.files("site")
        let output = work.path("sample/all_namespaces/all_kinds/output-0")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        bytes[100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        for command in [["check"], ["build", "--output", site]] {
            let result = try RoostProcess.run(command + ["--store", work.path("sample")])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(output): damaged export at byte "), "\(result.stderr)")
            #expect(result.stderr.contains("checksum mismatch"), "\(result.stderr)")
        }
        #expect(work.files("site") == before)
        let imported = try RoostProcess.run(["import", work.path("sample"), "--to", work.path("store")])
        #expect(imported.status == 1 && !FileManager.default.fileExists(atPath: work.path("store")))
    }

    @Test func aFolderWithoutItsMetadataIsNotAStoreAndSaysWhatOneHolds() throws {
        let work = try TemporaryFolder()
        try work.copy(Self.fixtures + "/sample/all_namespaces", to: "export/all_namespaces")
        let result = try RoostProcess.run(["check", "--store", work.path("export")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a store"), "\(result.stderr)")
        #expect(result.stderr.contains("an export folder holds NAME.overall_export_metadata"), "\(result.stderr)")
    }
}

extension TemporaryFolder {
    /// Every file below `root`, with its bytes, by path inside it.
    static func files(at root: String) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let file = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            found[file] = FileManager.default.contents(atPath: root + "/" + file)
        }
        return found
    }
}
