import FirestoreListen
import Protobuf
import Store
import Testing

// MARK: TargetChange

@Test func targetChangeDecodesEveryField() throws {
    let bytes = Messages.bytes { r in
        r.message(2) { c in
            c.varint(1, 3)  // CURRENT
            c.message(3) { s in
                s.int64(1, 5)
                s.string(2, "gone")
                s.message(3) { $0.string(1, "type.googleapis.com/x") }  // details: skipped
            }
            c.lengthDelimited(4, [1, 2, 3])
            Messages.timestamp(&c, 6, 1_700_000_000, 42)
        }
    }
    let expected = TargetChange(
        kind: .current, cause: ListenStatus(code: 5, message: "gone"), resumeToken: [1, 2, 3],
        readTime: Timestamp(seconds: 1_700_000_000, nanoseconds: 42))
    #expect(try Messages.decode(bytes) == .targetChange(expected))
}

@Test func targetChangeKindsDecode() throws {
    let kinds: [TargetChange.Kind] = [.noChange, .add, .remove, .current, .reset]
    for kind in kinds {
        let bytes = Messages.bytes { r in r.message(2) { $0.varint(1, UInt64(kind.rawValue)) } }
        #expect(try Messages.decode(bytes) == .targetChange(TargetChange(kind: kind)))
    }
    // An empty TargetChange is a NO_CHANGE of every target (proto3 leaves zeros out).
    #expect(try Messages.decode([0x12, 0x00]) == .targetChange(TargetChange(kind: .noChange)))
}

@Test func unknownTargetChangeTypeIsAnError() {
    let bytes = Messages.bytes { r in r.message(2) { $0.varint(1, 9) } }
    #expect(throws: ListenDecodingError(.unknownTargetChangeType(9), at: 2)) { try Messages.decode(bytes) }
}

@Test func targetIDsPackedAndUnpackedBothDecode() throws {
    let bytes = Messages.bytes { r in
        r.message(2) { c in
            c.varint(1, 1)
            c.lengthDelimited(2, [0x01, 0x02, 0x96, 0x01])  // packed 1, 2, 150
            c.varint(2, 7)  // then one unpacked
            c.int64(2, -1)  // negative: ten bytes
        }
    }
    #expect(try Messages.decode(bytes) == .targetChange(TargetChange(kind: .add, targetIDs: [1, 2, 150, 7, -1])))
}

// MARK: Documents and values

/// A document with one field of every value type, and what it decodes to.
enum EveryValue {
    static func write(_ d: inout ProtobufWriter) {
        d.string(1, Messages.name("users/u1"))
        Messages.entry(&d, 2, "n") { $0.varint(11, 0) }
        Messages.entry(&d, 2, "b") { $0.bool(1, true) }
        Messages.entry(&d, 2, "i") { $0.int64(2, -5) }
        Messages.entry(&d, 2, "d") { $0.double(3, 1.5) }
        Messages.entry(&d, 2, "t") { Messages.timestamp(&$0, 10, 1_700_000_000, 5) }
        Messages.entry(&d, 2, "s") { $0.string(17, "hé") }
        Messages.entry(&d, 2, "y") { $0.lengthDelimited(18, [0xFF, 0x00, 0x01, 0x02]) }
        Messages.entry(&d, 2, "y1") { $0.lengthDelimited(18, [0xFB]) }
        Messages.entry(&d, 2, "y3") { $0.lengthDelimited(18, Array("abc".utf8)) }
        Messages.entry(&d, 2, "r") { $0.string(5, Messages.name("users/u2")) }
        Messages.entry(&d, 2, "g") { v in v.message(8) { $0.double(1, 1.5) } }  // longitude 0, left out
        Messages.entry(&d, 2, "a") { v in
            v.message(9) { a in
                a.message(1) { $0.int64(2, 1) }
                a.message(1) { $0.string(17, "x") }
            }
        }
        Messages.entry(&d, 2, "m") { v in
            v.message(6) { m in
                Messages.entry(&m, 1, "z") { $0.bool(1, false) }
                Messages.entry(&m, 1, "a") { $0.varint(11, 0) }
            }
        }
        Messages.entry(&d, 2, "ea") { $0.message(9) { _ in } }
        Messages.entry(&d, 2, "em") { $0.message(6) { _ in } }
        Messages.timestamp(&d, 3, 1, 0)  // create_time: not kept
        Messages.timestamp(&d, 4, 1_700_000_001, 7)
    }

    static let fields = Fields([
        ("n", .null), ("b", .bool(true)), ("i", .integer(-5)), ("d", .double(1.5)),
        ("t", .timestamp(Timestamp(seconds: 1_700_000_000, nanoseconds: 5))), ("s", .string("hé")),
        ("y", .bytes("/wABAg==")), ("y1", .bytes("+w==")), ("y3", .bytes("YWJj")), ("r", .reference("users/u2")),
        ("g", .geoPoint(latitude: 1.5, longitude: 0)), ("a", .array([.integer(1), .string("x")])),
        ("m", .map(Fields([("z", .bool(false)), ("a", .null)]))), ("ea", .array([])), ("em", .map(Fields())),
    ])
}

@Test func documentChangeDecodesEveryValueKind() throws {
    let bytes = Messages.bytes { r in
        r.message(3) { c in
            c.message(1, EveryValue.write)
            c.lengthDelimited(5, [4, 5])
            c.varint(6, 6)
        }
    }
    let document = Document(path: DocumentPath(["users", "u1"]), fields: EveryValue.fields, source: Messages.source)
    let expected = ListenResponse.documentChange(
        ListenDocument(document: document, updateTime: Timestamp(seconds: 1_700_000_001, nanoseconds: 7)),
        targetIDs: [4, 5], removedTargetIDs: [6])
    #expect(try Messages.decode(bytes) == expected)
}

@Test func documentDeleteAndRemoveDecode() throws {
    let delete = Messages.bytes { r in
        r.message(4) { d in
            d.string(1, Messages.name("users/u1/user-likes/t9"))
            Messages.timestamp(&d, 4, 3, 0)
            d.lengthDelimited(6, [1, 2])
        }
    }
    let path = DocumentPath(["users", "u1", "user-likes", "t9"])
    #expect(try Messages.decode(delete) == .documentDelete(path, removedTargetIDs: [1, 2]))
    let remove = Messages.bytes { r in
        r.message(6) { d in
            d.string(1, Messages.name("users/u1/user-likes/t9"))
            d.varint(2, 3)
            Messages.timestamp(&d, 4, 3, 0)
        }
    }
    #expect(try Messages.decode(remove) == .documentRemove(path, removedTargetIDs: [3]))
}

@Test func existenceFilterDecodes() throws {
    let bytes = Messages.bytes { r in
        r.message(5) { f in
            f.varint(1, 4)
            f.varint(2, 12)
            f.message(3) { $0.varint(2, 1) }  // unchanged_names: skipped
        }
    }
    #expect(try Messages.decode(bytes) == .filter(targetID: 4, count: 12))
}

// MARK: Unknown fields

@Test func unknownFieldsAreSkippedAtEveryLevel() throws {
    let bytes = Messages.bytes { r in
        r.fixed32(99, 1)
        r.message(3) { c in
            c.group(40) { $0.varint(1, 1) }
            c.message(1) { d in
                d.string(1, Messages.name("a/b"))
                d.fixed64(30, 0)
                Messages.entry(&d, 2, "k") { v in
                    v.varint(40, 3)  // a newer value type, then a known one
                    v.string(17, "v")
                }
            }
        }
        r.string(1000, "ignored")
    }
    let document = Document(
        path: DocumentPath(["a", "b"]), fields: Fields([("k", .string("v"))]), source: Messages.source)
    let expected = ListenResponse.documentChange(
        ListenDocument(document: document, updateTime: Timestamp(seconds: 0)), targetIDs: [], removedTargetIDs: [])
    #expect(try Messages.decode(bytes) == expected)
}

@Test func aResponseOfNoKnownFieldIsOther() throws {
    #expect(try Messages.decode([]) == .other)
    #expect(try Messages.decode(Messages.bytes { $0.string(7, "x") }) == .other)
}

@Test func decodeTakesAnyCollectionOfBytes() throws {
    let bytes = Messages.bytes { r in r.message(5) { $0.varint(1, 2) } }
    let framed = [0x00, 0x00, 0x00, 0x00, UInt8(bytes.count)] + bytes
    #expect(try ListenResponse.decode(framed.dropFirst(5), source: "x") == .filter(targetID: 2, count: 0))
    #expect(try ListenResponse.decode(AnyCollection(bytes), source: "x") == .filter(targetID: 2, count: 0))
}
