import Foundation

/// The shared test data that lives beside the repository, not in it (the Mustache
/// specification's test files): found through `ROOST_SHARED` (a relative path is taken from
/// the package root), by default `../shared` beside the package root.
///
/// A fresh clone has no such folder: the tests that need it are then skipped, and
/// `noticeIfMissing` says so as a warning in the test output. With `ROOST_REQUIRE_SHARED=1`
/// (what `.ci/run` sets) they run anyway and fail when the folder is missing.
package enum SharedData {
    /// The shared folder, absolute.
    package static let folder: String = {
        let given = ProcessInfo.processInfo.environment["ROOST_SHARED"] ?? ""
        let path = given.isEmpty ? "../shared" : given
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: packageRoot, isDirectory: true))
        return url.standardizedFileURL.path
    }()

    /// True under `ROOST_REQUIRE_SHARED=1`: the tests must run, and fail without the data.
    package static let isRequired = ProcessInfo.processInfo.environment["ROOST_REQUIRE_SHARED"] == "1"

    /// `relative` inside the shared folder.
    package static func path(_ relative: String) -> String { folder + "/" + relative }

    /// True when `relative` is a folder inside the shared folder.
    package static func has(_ relative: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path(relative), isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Whether tests that need `relative` run: when it is there, or when it is required.
    package static func shouldRun(_ relative: String) -> Bool { has(relative) || isRequired }

    /// Why they do not run, for `.enabled(if:_:)` and the warning.
    package static func skipReason(_ relative: String) -> String {
        "SKIPPED: \(path(relative)) not found. Set ROOST_SHARED to the folder that holds \(relative)/ "
            + "(ROOST_REQUIRE_SHARED=1 makes its absence a failure, as in .ci/run)."
    }
}
