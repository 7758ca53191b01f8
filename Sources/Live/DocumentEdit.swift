import Model
import Store

/// One document that changed in a step of the database's stream, as decoded before and after:
/// what `roost serve` says of the step (`1 like added: tweet t42 by @mina`).
struct DocumentEdit: Sendable {
    var path: DocumentPath
    var old: DecodedDocument?
    var new: DecodedDocument?

    /// `1 like added: tweet t42 by @mina, 1 tweet edited: t43 by @jun`: per kind and change,
    /// the count and (up to three) what it is; `handle` names a user by uid.
    static func summary(of edits: [DocumentEdit], handle: (String) -> String?) -> String {
        // A like's own counter update (the app's batch sets both) is part of the like.
        let likedTweets = Set(edits.lazy.map(\.path).filter { DocumentKind($0) == .like }.map(\.id))
        var groups: [(noun: String, verb: String, items: [String])] = []
        for edit in edits {
            let (noun, verb, item) = edit.described(handle: handle)
            if verb == "changed", DocumentKind(edit.path) == .tweet, likedTweets.contains(edit.path.id) {
                continue
            }
            if let k = groups.firstIndex(where: { $0.noun == noun && $0.verb == verb }) {
                groups[k].items.append(item)
            } else {
                groups.append((noun, verb, [item]))
            }
        }
        return groups.map { group in
            let count = group.items.count
            let shown = group.items.prefix(3).joined(separator: "; ") + (count > 3 ? "; …" : "")
            return "\(count) \(group.noun)\(count == 1 ? "" : "s") \(group.verb): \(shown)"
        }.joined(separator: ", ")
    }

    /// The kind (`like`), the change (`added`) and the item (`tweet t42 by @mina`).
    private func described(handle: (String) -> String?) -> (noun: String, verb: String, item: String) {
        let verb = old == nil ? "added" : new == nil ? "removed" : "changed"
        let segments = path.segments
        func user(_ uid: String) -> String { handle(uid).map { "@" + $0 } ?? "user \(uid)" }
        switch DocumentKind(path) {
        case .user:
            if let old = old?.user, let new = new?.user, old.username != new.username {
                return ("user", "renamed", "@\(old.username) → @\(new.username)")
            }
            return ("user", verb, (new?.user ?? old?.user).map { "@" + $0.username } ?? segments[1])
        case .tweet:
            let tweet = new?.tweet ?? old?.tweet
            let kind = tweet?.replyTo != nil ? "reply" : "tweet"
            if let old = old?.tweet, let new = new?.tweet, old.caption != new.caption {
                return (kind, "edited", "\(segments[1]) by \(user(new.authorUID))")
            }
            return (kind, verb, tweet.map { "\(segments[1]) by \(user($0.authorUID))" } ?? segments[1])
        case .like:
            return ("like", verb, "tweet \(segments[3]) by \(user(segments[1]))")
        case .favorite:
            let name = (new?.favorite ?? old?.favorite).map { " (\($0.name))" } ?? ""
            return ("favorite", verb, "\(segments[3])\(name) of \(user(segments[1]))")
        case nil:
            return ("document", verb, path.description)
        }
    }
}
