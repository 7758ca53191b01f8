import FirestoreListen
import Testing

@Test func targetKeepsItsResumeToken() {
    var target = ListenTarget(id: 7, query: .collection(parent: "users/u1", id: "user-likes"))
    target.resumeToken = [1, 2]
    #expect(target.resumeToken == [1, 2])
}
