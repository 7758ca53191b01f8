import Support
import Testing

@Suite("SplitMix64: the reference generator's numbers")
struct SplitMix64Tests {
    @Test func firstNumbersFromZero() {
        // The reference implementation (Vigna's splitmix64.c) seeded with 0.
        var random = SplitMix64(state: 0)
        #expect(random.next() == 0xe220_a839_7b1d_cdaf)
        #expect(random.next() == 0x6e78_9e6a_a1b9_65f4)
        #expect(random.next() == 0x06c4_5d18_8009_454f)
    }

    @Test func stepIsTheNextNumber() {
        var random = SplitMix64(state: 12345)
        #expect(SplitMix64.step(12345) == random.next())
    }
}
