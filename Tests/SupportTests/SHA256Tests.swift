import Support
import Testing

@Suite("SHA256: FIPS 180-4")
struct SHA256Tests {
    /// The examples of FIPS 180-4's appendix (one block, two blocks, a million a's).
    @Test func fipsVectors() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            ) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding's edges: 55 bytes fit one block with the length, 56 need two.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ])
    func paddingEdges(length: Int, expected: String) {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: length)) == expected)
    }

    /// Fed in pieces of any size, the digest is the one of the whole.
    @Test func incrementalMatchesOneShot() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hash(message)
        for split in [0, 1, 55, 63, 64, 65, 128, 200, 299, 300] {
            for second in [1, 7, 64, 1000] {
                var sha = SHA256()
                sha.update(message[0..<split])
                var at = split
                while at < message.count {
                    let end = min(message.count, at + second)
                    sha.update(message[at..<end])
                    at = end
                }
                #expect(sha.finalize() == whole, "split at \(split), then pieces of \(second)")
            }
        }
        #expect(SHA256.hexString([0x00, 0x0f, 0xf0, 0xff]) == "000ff0ff")
    }
}
