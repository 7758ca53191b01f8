import FirestoreListen
import Protobuf
import Testing

private let database = "projects/p/databases/d"
private let root = database + "/documents"

/// Field numbers checked by hand against firestore.proto and query.proto, so that these tests
/// do not share the encoder's constants.
@Test func addingACollectionIsTheseBytes() {
    let bytes = ListenRequest.adding(ListenTarget(id: 1, query: .collection(parent: "", id: "t")), database: database)
    // ListenRequest{database=1, add_target=2: Target{query=2: QueryTarget{parent=1,
    // structured_query=2: {from=2: {collection_id=2: "t"}}}, target_id=5: 1}}
    let expected: [UInt8] =
        [0x0A, 0x16] + Array(database.utf8) + [0x12, 0x2D, 0x12, 0x29, 0x0A, 0x20] + Array(root.utf8)
        + [0x12, 0x05, 0x12, 0x03, 0x12, 0x01, 0x74, 0x28, 0x01]
    #expect(bytes == expected)
}

@Test func addingACollectionUnderADocumentNamesItsParent() {
    let target = ListenTarget(id: 7, query: .collection(parent: "users/u1", id: "user-likes"), resumeToken: [9, 8])
    var expected = ProtobufWriter()
    expected.string(1, database)
    expected.message(2) { t in
        t.message(2) { q in
            q.string(1, root + "/users/u1")
            q.message(2) { s in s.message(2) { $0.string(2, "user-likes") } }
        }
        t.lengthDelimited(4, [9, 8])
        t.varint(5, 7)
    }
    #expect(ListenRequest.adding(target, database: database) == expected.bytes)
}

@Test func addingAFieldEqualsQueryHasAnEqualFilter() {
    let target = ListenTarget(id: 2, query: .fieldEquals(parent: "", id: "tweets", field: "uid", value: "u1"))
    var expected = ProtobufWriter()
    expected.string(1, database)
    expected.message(2) { t in
        t.message(2) { q in
            q.string(1, root)
            q.message(2) { s in
                s.message(2) { $0.string(2, "tweets") }
                s.message(3) { filter in
                    filter.message(2) { f in
                        f.message(1) { $0.string(2, "uid") }
                        f.varint(2, 5)  // EQUAL
                        f.message(3) { $0.string(17, "u1") }
                    }
                }
            }
        }
        t.varint(5, 2)
    }
    #expect(ListenRequest.adding(target, database: database) == expected.bytes)
}

@Test func addingACollectionGroupSearchesAllDescendantsFromTheRoot() {
    let target = ListenTarget(id: 3, query: .collectionGroup(id: "user-likes"))
    var expected = ProtobufWriter()
    expected.string(1, database)
    expected.message(2) { t in
        t.message(2) { q in
            q.string(1, root)
            q.message(2) { s in
                s.message(2) { c in
                    c.string(2, "user-likes")
                    c.bool(3, true)
                }
            }
        }
        t.varint(5, 3)
    }
    #expect(ListenRequest.adding(target, database: database) == expected.bytes)
}

@Test func removingNamesTheTarget() {
    #expect(
        ListenRequest.removing(targetID: 7, database: database) == [0x0A, 0x16] + Array(database.utf8) + [0x18, 0x07])
    // A negative int32 goes out sign-extended, ten bytes.
    let negative = ListenRequest.removing(targetID: -1, database: database)
    #expect(negative.suffix(11) == [0x18] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
}
