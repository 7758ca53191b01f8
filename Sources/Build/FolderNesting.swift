import Foundation

/// Whether one path is inside another, as the file system sees them: symbolic links and
/// `..` resolved, for a path that does not exist yet through its nearest existing folder.
package enum FolderNesting {
    /// True when `path` is `folder` or lies below it.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        guard let inner = resolved(path), let outer = resolved(folder) else { return false }
        return inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }

    /// The real path of `path`: its nearest existing ancestor's, with the rest appended.
    private static func resolved(_ path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: url.path) {
            guard url.path != "/" else { return nil }
            rest.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        var real = url.resolvingSymlinksInPath().path
        for part in rest { real = (real == "/" ? "" : real) + "/" + part }
        return real
    }
}
