import Model
import Store

/// Builds documents for a test store: `doc("tweets/t1", ["caption": .string("hi")])`.
func doc(_ path: String, _ fields: [(String, Value)] = []) -> Document {
    Document(path: DocumentPath(string: path)!, fields: Fields(fields.map { (key: $0.0, value: $0.1) }), source: path + ".json")
}

func user(_ uid: String, _ username: String, fullname: String? = nil) -> Document {
    var fields: [(String, Value)] = [("username", .string(username)), ("email", .string("\(uid)@example.com"))]
    if let fullname { fields.append(("fullname", .string(fullname))) }
    return doc("users/\(uid)", fields)
}

func tweet(_ id: String, by uid: String, at time: String, _ caption: String = "hello",
           replyTo: String? = nil, likes: Int64? = nil) -> Document {
    var fields: [(String, Value)] = [("caption", .string(caption)), ("timestamp", .string(time)), ("uid", .string(uid))]
    if let replyTo { fields.append(("replyTo", .string(replyTo))) }
    if let likes { fields.append(("likes", .integer(likes))) }
    return doc("tweets/\(id)", fields)
}

func like(_ uid: String, _ tweetID: String, at time: String? = nil) -> Document {
    doc("users/\(uid)/user-likes/\(tweetID)", time.map { [("timestamp", .string($0))] } ?? [])
}

extension Snapshot {
    func ids(_ indices: [Int]) -> [String] { indices.map { tweets[$0].id } }
    func activity(_ uid: String) -> UserActivity { userActivity[user(uid: uid)!] }
    func relations(_ id: String) -> TweetRelations { tweetRelations[tweet(id: id)!] }
    func kinds() -> [Diagnostic.Kind] { diagnostics.map(\.kind) }
}
