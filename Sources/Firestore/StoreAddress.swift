import FirestoreExport
import Store

/// Opens a store as it was named (`--store`, `store` in roost.json): `firestore://…` is the
/// database (SPEC 11); a folder holding an export's metadata (or that metadata file) an export
/// folder (SPEC 12); anything else a path, a folder or an export file (SPEC 2).
package enum StoreAddress {
    /// The source of the store `location` names, in `environment` (the process's, normally).
    package static func source(
        for location: String, environment: [String: String] = ProcessEnvironment.current
    ) throws(StoreError) -> any DocumentSource {
        guard FirestoreAddress.isDatabase(location) else {
            if ExportFolderSource.recognises(location) { return ExportFolderSource(folder: location) }
            return try DocumentStore.source(at: location)
        }
        do {
            let address = try FirestoreAddress.parse(location)
            let endpoint = try FirestoreEndpoint.resolve(address, environment: environment)
            // The variable overrides the plan `serve` follows by, so that `scripts/bench live` can
            // measure both against the same emulator.
            let plan = environment[ListenPlan.variable].flatMap(ListenPlan.init(rawValue:))
            return FirestoreSource(FirestoreClient(endpoint), listenPlan: plan)
        } catch {
            throw .unavailable(error)
        }
    }

    /// True when `location` names a database rather than a path.
    package static func isDatabase(_ location: String) -> Bool { FirestoreAddress.isDatabase(location) }
}
