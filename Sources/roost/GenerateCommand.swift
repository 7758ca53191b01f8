import Synthetic

/// `roost generate`: a synthetic store of a given size, for tests and benchmarks: a directory
/// store, or one node-firestore-import-export file when `--to` ends in `.json`.
enum GenerateCommand: Command {
    static let name = "generate"
    static let summary = "write a synthetic store of a given size, deterministic from a seed"
    static let options: Set<String> = ["users", "tweets", "seed", "to", "likes-per-tweet"]
    static let flags: Set<String> = ["force"]
    static let help = """
    usage: roost generate --users N --tweets N --seed N --to DIR|FILE.json [--force]

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

    options:
      --users N             users (default 200)
      --tweets N            tweets (default 2000)
      --seed N              the seed (default 1)
      --likes-per-tweet X   likes per tweet on average (default 3)
      --to DIR|FILE.json    where to write (required): a folder, refused if it is
                            not empty; or a file, whose folder must exist, refused
                            if it exists
      --force               delete the contents of a non-empty DIR first, or
                            replace an existing FILE.json
    """

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        guard let destination = arguments.value("to") else { throw UsageError("missing '--to DIR' (or '--to FILE.json')") }
        let users = try arguments.integer("users", default: 200, range: 1...100_000_000)
        let tweets = try arguments.integer("tweets", default: 2000, range: 0...100_000_000)
        let seed = try arguments.integer("seed", default: 1, range: 0...Int.max)
        let likesText = arguments.value("likes-per-tweet", default: "3")
        guard let likes = Double(likesText), likes >= 0, likes <= 1000 else {
            throw UsageError("option '--likes-per-tweet' takes a number from 0 to 1000, not '\(likesText)'")
        }
        let options = SyntheticStore.Options(users: users, tweets: tweets, seed: UInt64(seed), likesPerTweet: likes)
        let summary = try SyntheticStore.generate(options, to: destination, force: arguments.flag("force"))
        Console.out(summary.description)
        return ExitStatus.success
    }
}
