import JSON
import Store

extension TemporaryFolder {
    /// Writes each of `documents` (made by `user`, `tweet`, `like`, `favorite`, `doc`) as the
    /// file a directory store has for it under `store` (`users/u1.json`), as `roost import`
    /// writes them, whatever else the folder holds (`""`: this folder is the store); returns the
    /// files' paths.
    @discardableResult
    package func write(_ documents: [Document], in store: String = "store") throws -> [String] {
        try documents.map { document in
            let json = DirectoryStoreWriter.jsonObject(document.fields)
            return try write(
                (store.isEmpty ? "" : store + "/") + document.path.segments.joined(separator: "/") + ".json",
                bytes: JSONWriter.write(json))
        }
    }
}
