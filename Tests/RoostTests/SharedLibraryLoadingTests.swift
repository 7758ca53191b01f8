import Foundation
import TestSupport
import Testing

/// libcurl, libcrypto and libmicrohttpd are opened when a command first calls them, not when
/// `roost` starts: a build of a folder store loads none of them (nor the thirty libraries
/// they need), a command that reaches the network loads libcurl then. The dynamic loader's
/// own log (`LD_DEBUG=files`) says which it opened.
@Suite("libraries opened on first use")
struct SharedLibraryLoadingTests {
    static let lazy = ["libcurl.so", "libcrypto.so", "libmicrohttpd.so"]

    /// The libraries the loader's log says it opened.
    static func opened(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
    }

    @Test func aFolderBuildLoadsNoneOfThem() throws {
        let out = try TemporaryFolder()
        let build = try RoostProcess.run(
            ["build", "--quiet", "--output", out.path("site")], environment: ["LD_DEBUG": "files"])
        #expect(build.status == 0, "\(build.stderr.suffix(2000))")
        let opened = Self.opened(build.stderr)
        #expect(opened.contains { $0.hasPrefix("libcmark.so") }, "the log lists what was loaded: \(opened)")
        for library in Self.lazy {
            #expect(!opened.contains { $0.hasPrefix(library) }, "\(library) loaded: \(opened)")
        }
    }

    /// A database store reaches the network through libcurl, opened then: nothing listens on
    /// the port, so the build fails as it did when libcurl was loaded at start-up.
    @Test func aDatabaseStoreLoadsLibcurlWhenItConnects() throws {
        let out = try TemporaryFolder()
        let build = try RoostProcess.run(
            ["build", "--quiet", "--store", "firestore://demo-lazy", "--output", out.path("site")],
            environment: ["LD_DEBUG": "files", "FIRESTORE_EMULATOR_HOST": "127.0.0.1:9"])
        #expect(build.status == 1, "\(build.stderr.suffix(2000))")
        #expect(Self.opened(build.stderr).contains("libcurl.so.4"), "\(build.stderr.suffix(2000))")
        #expect(build.stderr.contains("127.0.0.1:9"), "the error names the address: \(build.stderr.suffix(500))")
        #expect(!FileManager.default.fileExists(atPath: out.path("site")))
    }
}
