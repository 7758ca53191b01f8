import Model
import Store

/// Reading `--store` into a snapshot, shared by the commands that take it.
enum StoreLoader {
    static let defaultStore = "content"

    static func load(_ path: String) throws(StoreError) -> (DocumentStore, Snapshot) {
        let store = try DocumentStore.read(at: path)
        return (store, Snapshot(documents: store.documents))
    }
}
