import Store
import Testing

@Suite("DocumentKind: what a document is, by where it lives")
struct DocumentKindTests {
    @Test func eachKindByItsPathAndItsFile() throws {
        let kinds: [(String, DocumentKind?)] = [
            ("users/u1", .user), ("tweets/t1", .tweet), ("users/u1/user-likes/t1", .like),
            ("favorites/u1/favorites/p1", .favorite), ("favorites/u1", nil), ("users/u1/favorites/p1", nil),
            ("tweets/t1/user-likes/u1", nil), ("places/p1", nil), ("users/u1/user-likes/t1/more/m1", nil),
        ]
        for (path, kind) in kinds {
            #expect(DocumentKind(try #require(DocumentPath(string: path))) == kind, "\(path)")
            #expect(DocumentKind(file: path + ".json") == kind, "\(path).json")
        }
        #expect(DocumentKind(file: "tweets") == nil)
        #expect(DocumentKind(file: "") == nil)
    }
}
