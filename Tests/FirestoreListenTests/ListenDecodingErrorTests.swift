import FirestoreListen
import Protobuf
import Store
import Testing

@Test func aTruncatedVarintNamesItsByte() {
    // A TargetChange of 2 bytes whose type varint never ends.
    let bytes: [UInt8] = [0x12, 0x02, 0x08, 0x80]
    let error = ListenDecodingError(.malformed(.truncated(what: "a varint")), at: 3)
    #expect(throws: error) { try Messages.decode(bytes) }
    #expect(error.description == "listen response: byte 3: the data ends inside a varint")
}

@Test func aNameThatIsNotADocumentPathIsAnError() {
    let bytes = Messages.bytes { r in r.message(4) { $0.string(1, Messages.name("users")) } }
    #expect(throws: ListenDecodingError(.notADocumentName(Messages.name("users")), at: 2)) {
        try Messages.decode(bytes)
    }
    let error = ListenDecodingError(.notADocumentName("x"), at: 14)
    #expect(error.description == "listen response: byte 14: document name \"x\" is not a document path")
}

@Test func aDocumentChangeWithoutItsDocumentIsAnError() {
    let bytes = Messages.bytes { r in r.message(3) { $0.varint(5, 1) } }
    #expect(throws: ListenDecodingError(.missingDocument, at: 0)) { try Messages.decode(bytes) }
}

@Test func aKnownFieldOfAnotherWireTypeIsAnError() {
    // ExistenceFilter.target_id as a string.
    let bytes = Messages.bytes { r in r.message(5) { $0.string(1, "1") } }
    let expected = ListenDecodingError(
        .malformed(.unexpectedWireType(field: 1, found: .lengthDelimited, expected: .varint)), at: 2)
    #expect(throws: expected) { try Messages.decode(bytes) }
}

@Test func anUntypedValueIsAnError() {
    let bytes = Messages.bytes { r in
        r.message(3) { c in
            c.message(1) { d in
                d.string(1, Messages.name("a/b"))
                Messages.entry(&d, 2, "k") { _ in }
            }
        }
    }
    #expect {
        try Messages.decode(bytes)
    } throws: { error in
        (error as? ListenDecodingError)?.reason == .untypedValue
    }
}

@Test func deepNestingIsAnErrorNotACrash() {
    // 2,000 arrays, each holding the next: far past the limit, little input.
    var value = Messages.bytes { $0.message(9) { _ in } }
    for _ in 0..<2_000 { value = Messages.bytes { w in w.message(9) { $0.lengthDelimited(1, value) } } }
    let bytes = Messages.bytes { r in
        r.message(3) { c in
            c.message(1) { d in
                d.string(1, Messages.name("a/b"))
                d.message(2) { e in
                    e.string(1, "k")
                    e.lengthDelimited(2, value)
                }
            }
        }
    }
    #expect {
        try Messages.decode(bytes)
    } throws: { error in
        (error as? ListenDecodingError)?.reason == .nestedTooDeeply
    }
}

/// Every prefix and every one-byte change of a message of every kind: an answer or the typed
/// error, never a crash.
@Test func damagedInputGivesAnErrorNeverACrash() {
    let whole = Messages.bytes { r in
        r.message(3) { c in
            c.message(1, EveryValue.write)
            c.lengthDelimited(5, [4, 5])
        }
    }
    var failures = 0
    for end in 0..<whole.count {
        do { _ = try Messages.decode(Array(whole[..<end])) } catch { failures += 1 }
    }
    #expect(failures > whole.count / 2)
    for k in whole.indices {
        for replacement: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
            var damaged = whole
            damaged[k] = replacement
            _ = try? Messages.decode(damaged)
        }
    }
}
