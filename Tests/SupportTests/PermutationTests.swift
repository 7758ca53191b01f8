import Support
import Testing

@Suite("Array.rearrange(takingFrom:): a permutation applied in place")
struct PermutationTests {
    @Test(arguments: [0, 1, 2, 3, 7, 100, 1000])
    func equalsMappingThroughTheOrder(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let values = (0..<count).map { "value \($0)" }
            let order = Array(0..<count).shuffled(using: &generator)
            var rearranged = values
            var used = order
            rearranged.rearrange(takingFrom: &used)
            #expect(rearranged == order.map { values[$0] })
            #expect(used == Array(0..<count))
        }
    }

    @Test func sortingByKeysThroughIndices() {
        var names = ["d", "b", "a", "c", "e"]
        var order = Array(names.indices).sorted { names[$0] < names[$1] }
        names.rearrange(takingFrom: &order)
        #expect(names == ["a", "b", "c", "d", "e"])
    }
}
