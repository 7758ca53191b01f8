import Support

#if canImport(Glibc)
import Glibc
#endif

/// A folder is a directory store when it holds at least one of the collections Roost reads
/// (SPEC 2.1). Anything else named as a store — a collection folder, the theme, a project's
/// root — is a mistake to say, not an empty site to build.
package enum StoreShape {
    static let collections = ["users", "tweets", "favorites"]

    /// Throws `notAStore` when `path` is a folder that holds none of `users/`, `tweets/`,
    /// `favorites/` (a file is checked by its format when it is read).
    package static func check(_ path: String) throws(StoreError) {
        guard isFolder(path) else { return }
        let root = path
        if collections.contains(where: { isFolder(joinPath(root, $0)) }) { return }
        var names: [String] = []
        if let folder = FileDescriptor(open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
            names = (try? DirectoryListing.names(in: folder.raw, dotNames: false).get())?.sorted() ?? []
        }
        // Named one level too deep (`content/tweets`) or too high (the project's folder)?
        let parent = parentFolder(of: root)
        let below = names.map { joinPath(root, $0) }.first { folder in
            collections.contains { isFolder(joinPath(folder, $0)) }
        }
        let hint = collections.contains { isFolder(joinPath(parent, $0)) } ? parent : below
        throw .notAStore(path: root, holds: names, storeNearby: hint)
    }

    /// SPEC 13 for a store read whole (a file, a database): documents, but in none of
    /// Roost's collections. `collections` are the top collections of its documents.
    package static func roostProblem(store: String, collections: Set<String>) -> StoreError? {
        guard !collections.isEmpty, !collections.contains(where: Self.collections.contains) else { return nil }
        return .noRoostCollections(store: store, holds: collections.sorted())
    }

    private static func isFolder(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    private static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
