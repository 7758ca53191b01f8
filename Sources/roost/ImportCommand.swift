import Build
import Firestore
import Model
import Store

/// `roost import STORE --to DIR|firestore://…`: an export into a directory store, or any
/// store into a database (SPEC 11).
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "turn an export into a directory store, or write a store into a database"
    static let usage = "import STORE --to DIR|firestore://PROJECT[/DATABASE] [--force] [--production]"
    static let about = """
        Reads a store and writes it elsewhere. --to DIR: a single-file store written by
        an export tool (node-firestore-import-export, firestore-export-import, or the
        Firestore REST API: documents.list, runQuery or a plain array of documents), an
        export folder (what 'gcloud firestore export' and 'firebase emulators:export'
        write) or a database (firestore://PROJECT) becomes a directory store, one JSON file per
        document, that 'roost build --store DIR' reads. --to firestore://PROJECT: any
        store (a folder, an export file, another database) is written into the database,
        in commits of 500 documents: the emulator when FIRESTORE_EMULATOR_HOST is set;
        Cloud Firestore itself only with --production.
        """
    static let options = [
        Options.to.showing("DIR|firestore://PROJECT").helping(
            """
            where to write (required): a folder, refused if it is
            not empty; or a database
            """),
        Options.force.helping(
            """
            delete the contents of a non-empty DIR first; for a
            database, its users, user-likes, tweets and favorites
            """),
        Options.production,
    ]
    static let operands = Option.Completion.files(suffix: nil)

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(1, missing: "missing STORE")
        let destination = try arguments.required(Options.to)
        let sourceName = arguments.positionals[0]
        let force = arguments.flag(Options.force)
        guard StoreAddress.isDatabase(destination) else {
            // --force empties the folder first: an export inside it would be deleted with it.
            if force, FolderNesting.isInside(sourceName, destination) {
                throw UsageError(
                    "'\(sourceName)' is inside '\(destination)', which --force empties first; write the directory store to another folder"
                )
            }
            let store = try StoreAddress.source(for: sourceName).readStore()
            guard store.format != .directory else {
                throw UsageError("'\(sourceName)' is already a directory store")
            }
            warnUnlessRoost(store)
            try DirectoryStoreWriter.write(
                store.documents, to: destination, force: force, missingParents: store.missingParents)
            Console.out(
                "\(sourceName) (\(store.format.description)): \(store.documents.count) documents written to \(destination)"
            )
            return ExitStatus.success
        }
        // The database is checked (and a production write refused) before the store is read.
        let target = try DatabaseImport(to: destination, production: arguments.flag(Options.production))
        let store = try StoreAddress.source(for: sourceName).readStore()
        warnUnlessRoost(store)
        let outcome = try target.write(store, force: force)
        Console.out(summary(of: outcome, from: "\(sourceName) (\(store.format.description))", to: target.database))
        return ExitStatus.success
    }

    static func summary(of outcome: DatabaseImport.Outcome, from source: String, to database: String) -> String {
        let deleted = outcome.deleted > 0 ? " (\(outcome.deleted) documents deleted first)" : ""
        return "\(source): \(outcome.written) documents written to \(database)\(deleted)"
    }

    /// SPEC 13: what was read is written, with a warning when none of it is Roost's.
    static func warnUnlessRoost(_ store: DocumentStore) {
        if let problem = store.roostCollectionsProblem { Console.error("warning: \(problem)") }
    }
}
