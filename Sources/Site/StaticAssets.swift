import Foundation

/// The theme's `static/` folder: copied as is to `static/` in the output.
public struct StaticAssets: Sendable {
    public struct File: Sendable {
        /// Relative to the static folder, `/`-separated.
        public let path: String
        public let bytes: [UInt8]
    }

    public let files: [File]

    /// A theme without a static folder has no assets; an unreadable file is an error.
    public init(folder: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            files = []
            return
        }
        var files: [File] = []
        let root = URL(fileURLWithPath: folder)
        for path in (manager.subpaths(atPath: folder) ?? []).sorted() {
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let url = root.appendingPathComponent(path)
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values.isRegularFile == true, values.isSymbolicLink != true else { continue }
            guard let data = manager.contents(atPath: url.path) else {
                throw AssetError(path: folder + "/" + path)
            }
            files.append(File(path: path, bytes: Array(data)))
        }
        self.files = files
    }
}

public struct AssetError: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "\(path): cannot read this static file" }
}
