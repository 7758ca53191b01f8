import Synthetic

/// `roost generate`: a synthetic store of a given size, for tests and benchmarks: a directory
/// store, or one node-firestore-import-export file when `--to` ends in `.json`.
enum GenerateCommand: Command {
    static let name = "generate"
    static let summary = "write a synthetic store of a given size, deterministic from a seed"
    static let usage =
        "generate --users N --tweets N --seed N --to DIR|FILE.json [--picture-base URL] [--force]"
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

        --picture-base URL gives user n (from 0) the profile picture URL/n.png
        instead of a Firebase Storage URL, e.g. to mirror the pictures from a
        local server in a benchmark; the rest of the store is the same.
        """
    static let users = Option.value("users", "N", default: "200", "users")
    static let tweets = Option.value("tweets", "N", default: "2000", "tweets")
    static let seed = Option.value("seed", "N", default: "1", "the seed")
    static let likesPerTweet = Option.value("likes-per-tweet", "X", default: "3", "likes per tweet on average")
    static let to = Option.value(
        "to", "DIR|FILE.json",
        """
        where to write (required): a folder, refused if it is
        not empty; or a file, whose folder must exist, refused
        if it exists
        """)
    static let pictureBase = Option.value(
        "picture-base", "URL",
        """
        an http(s) URL: user n's profile picture is URL/n.png
        """)
    static let force = Option.flag(
        "force",
        """
        delete the contents of a non-empty DIR first, or
        replace an existing FILE.json
        """)
    static let options = [users, tweets, seed, likesPerTweet, to, pictureBase, force]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        let destination = try arguments.required(to, "missing '--to DIR' (or '--to FILE.json')")
        let userCount = try arguments.integer(users, range: 1...100_000_000)!
        let tweetCount = try arguments.integer(tweets, range: 0...100_000_000)!
        let seedValue = try arguments.integer(seed, range: 0...Int.max)!
        let likesText = arguments.value(likesPerTweet)!
        guard let likes = Double(likesText), likes >= 0, likes <= 1000 else {
            throw UsageError("option '--likes-per-tweet' takes a number from 0 to 1000, not '\(likesText)'")
        }
        let base = arguments.value(pictureBase)
        if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) || base.contains(where: \.isWhitespace)
        {
            throw UsageError("option '--picture-base' takes an http(s) URL, not '\(base)'")
        }
        let options = SyntheticStore.Options(
            users: userCount, tweets: tweetCount, seed: UInt64(seedValue),
            likesPerTweet: likes, pictureBase: base)
        let summary = try SyntheticStore.generate(options, to: destination, force: arguments.flag(force))
        Console.out(summary.description)
        return ExitStatus.success
    }
}
