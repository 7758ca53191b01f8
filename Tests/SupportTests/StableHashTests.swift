import Support
import Testing

@Suite("StableHash: the same in every run")
struct StableHashTests {
    @Test func fnv1aKnownValues() {
        #expect(StableHash.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.hex(0xab) == "00000000000000ab")
    }

    @Test func hasherSeparatesNeighbouringValues() {
        func hash(_ parts: [String]) -> Int {
            var h = StableHasher()
            for part in parts { h.combine(part) }
            return h.finalize()
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash(["한강", "러너"]) == hash(["한강", "러너"]))
        #expect(hash([String(repeating: "x", count: 17)]) != hash([String(repeating: "x", count: 16)]))
        var a = StableHasher()
        var b = StableHasher()
        a.combine(nil as String?)
        b.combine("")
        #expect(a.finalize() != b.finalize())
    }

    /// Stored in manifests: a change of the function makes every page render once more.
    @Test func hasherValueIsFixed() {
        var h = StableHasher()
        h.combine("roost")
        h.combine(42)
        h.combine(true)
        #expect(h.finalize() == 864_184_716_033_905_192)
    }
}
