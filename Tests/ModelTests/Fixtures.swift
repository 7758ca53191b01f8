import Model
import Store
import TestSupport

extension Snapshot {
    func ids(_ indices: [Int]) -> [String] { indices.map { tweets[$0].id } }
    func activity(_ uid: String) -> UserActivity { userActivity[user(uid: uid)!] }
    func relations(_ id: String) -> TweetRelations { tweetRelations[tweet(id: id)!] }
    func kinds() -> [Diagnostic.Kind] { diagnostics.map(\.kind) }
}
