import FirestoreExport
import Model
import Store

/// `roost import EXPORT --to DIR`: an export (a single file or an export folder) into a
/// directory store.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "turn an export (a single file or an export folder) into a directory store"
    static let usage = "import EXPORT --to DIR [--force]"
    static let about = """
        Reads a single-file store written by an export tool (node-firestore-import-export,
        firestore-export-import, or the Firestore REST API: documents.list, runQuery or
        a plain array of documents), or an export folder (what 'gcloud firestore export'
        and 'firebase emulators:export' write), and writes it as a directory store, one
        JSON file per document, that 'roost build --store DIR' reads.
        """
    static let options = [Options.to, Options.force]
    static let operands = Option.Completion.files(suffix: nil)

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing EXPORT")
        let destination = try arguments.required(Options.to)
        let source = arguments.positionals[0]
        let store = try ExportFolderSource.anySource(at: source).readStore()
        guard store.format != .directory else {
            throw UsageError("'\(source)' is already a directory store")
        }
        try DirectoryStoreWriter.write(
            store.documents, to: destination, force: arguments.flag(Options.force),
            missingParents: store.missingParents)
        Console.out(
            "\(source) (\(store.format.description)): \(store.documents.count) documents written to \(destination)")
        return ExitStatus.success
    }
}
