import Firestore
import Foundation
import Store
import Synthetic

/// `roost generate`: a synthetic store of a given size, for tests and benchmarks: a directory
/// store, or one node-firestore-import-export file when `--to` ends in `.json`.
enum GenerateCommand: Command {
    static let name = "generate"
    static let summary = "write a synthetic store of a given size, deterministic from a seed"
    static let usage =
        "generate --users N --tweets N --seed N --to DIR|FILE.json|firestore://PROJECT [--picture-base URL] [--force]"
    static let about = """
        Writes a store (users, tweets, likes, favorite places) shaped like a Firestore
        export: Markdown captions with mentions, #tags, emoji and Korean, replies,
        timestamps over 2022-2023 in several forms, stored like counters that are
        sometimes wrong, coordinates as numbers or numeric strings. The same arguments
        give byte-identical stores on any machine. Prints a summary.

        --to DIR writes a directory store: one file per document (1,000,000 tweets
        make ~4.4 million files, which takes minutes on most disks). --to FILE.json
        (a name ending in .json) writes the same documents as ONE file in the
        node-firestore-import-export format, {"__collections__": {...}}, which
        `roost build --store FILE.json` and `roost import FILE.json` read; it is
        written under a temporary name beside FILE.json and renamed at the end, so
        a failed run leaves no partial file.

        --to firestore://PROJECT writes the same documents into the database: the
        emulator that FIRESTORE_EMULATOR_HOST names (Cloud Firestore itself only with
        --production); --force first deletes its users, user-likes, tweets and
        favorites.

        --picture-base URL gives user n (from 0) the profile picture URL/n.png
        instead of a Firebase Storage URL, e.g. to mirror the pictures from a
        local server in a benchmark; the rest of the store is the same.
        """
    static let options = [
        Options.users, Options.tweets, Options.seed, Options.likesPerTweet,
        Options.to.showing("DIR|FILE.json|firestore://PROJECT").helping(
            """
            where to write (required): a folder, refused if it is
            not empty; a file, whose folder must exist, refused
            if it exists; or a database
            """),
        Options.pictureBase,
        Options.force.helping(
            """
            delete the contents of a non-empty DIR first, or
            replace an existing FILE.json, or a database's four
            collection groups
            """),
        Options.production,
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        let destination = try arguments.required(Options.to, missing: "missing '--to DIR' (or '--to FILE.json')")
        let userCount = try arguments.integer(Options.users)
        let tweetCount = try arguments.integer(Options.tweets)
        let seedValue = try arguments.integer(Options.seed)
        let likes = try arguments.number(Options.likesPerTweet)
        let base = try arguments.value(Options.pictureBase)
        if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) || base.contains(where: \.isWhitespace)
        {
            throw Options.pictureBase.invalid(base, expected: "an http(s) URL")
        }
        let options = SyntheticStore.Options(
            users: userCount, tweets: tweetCount, seed: UInt64(seedValue),
            likesPerTweet: likes, pictureBase: base)
        guard StoreAddress.isDatabase(destination) else {
            let summary = try SyntheticStore.generate(options, to: destination, force: arguments.flag(Options.force))
            Console.out(summary.description)
            return ExitStatus.success
        }
        let target = try DatabaseImport(to: destination, production: arguments.flag(Options.production))
        // Generated as one file in a folder of its own, then written into the database.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roost-generate-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/store.json"
        let summary = try SyntheticStore.generate(options, to: file, force: false)
        let store = try ExportFileSource(file: file).readStore()
        let outcome = try target.write(store, force: arguments.flag(Options.force))
        Console.out(summary.description)
        Console.out(ImportCommand.summary(of: outcome, from: "generated", to: target.database))
        return ExitStatus.success
    }
}
