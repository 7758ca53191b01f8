import Support
import Testing

@testable import Output

@Suite("The table of the last build's paths by hash")
struct PathHashTableTests {
    /// Every hash recorded is found, with the first position it was given; hashes never
    /// recorded are not found, but for those that share a recorded one's top 32 bits (a
    /// candidate its caller checks against the path).
    @Test func hashesAreFoundByTheirFirstPosition() {
        var table = PathHashTable(capacity: 3000)
        var next: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hashes: [UInt64] = []
        for _ in 0..<3000 {
            next = next &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            hashes.append(next)
        }
        for (k, hash) in hashes.enumerated() { table.insert(hash, position: Int32(k)) }
        table.insert(hashes[7], position: 99_999)  // (already there: kept at 7)
        for (k, hash) in hashes.enumerated() { #expect(table[hash] == k) }
        #expect(table[0x1234_5678_0000_0001] == nil)

        let twin = hashes[42] ^ 0xFF  // the same top bits
        #expect(table[twin] == 42)
        table.insert(twin, position: 5000)
        #expect(table[twin] == 42, "a twin of a recorded hash is not recorded")
    }

    /// A manifest's every path is found, among more paths than the table has slots at first.
    @Test func everyPathOfAManifestIsFound() throws {
        let paths = (0..<5000).map { "t/\(String($0, radix: 36))/index.html" }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var text = Manifest.header
        for path in paths { text += "0000000000000001 1 0000000000000002 \(path)\n" }
        let manifest = PreviousManifest(decoding: Array(text.utf8))
        #expect(manifest.count == paths.count)
        for (k, path) in paths.enumerated() { #expect(manifest.position(of: path) == k) }
        #expect(manifest.position(of: "t/none/index.html") == nil)
    }

    /// Two paths whose hashes share their top 32 bits (FNV-1a 053f83ac…): the table records
    /// the first, and the second is found by its order.
    @Test func pathsWhoseHashesShareTheirTopBitsAreBothFound() {
        let twins = ["t/251715/index.html", "t/54257/index.html"]
        #expect(StableHash.fnv1a(twins[0]) >> 32 == StableHash.fnv1a(twins[1]) >> 32)
        let paths = twins + ["a.html", "z.html"]
        var text = Manifest.header
        for path in paths.sorted() { text += "0000000000000001 1 - \(path)\n" }
        let manifest = PreviousManifest(decoding: Array(text.utf8))
        for path in paths { #expect(manifest.position(of: path).map { manifest.paths[$0] } == path) }
        #expect(manifest.position(of: "t/3/index.html") == nil)
    }
}
