import Support
import Synchronization
import Testing

/// `Array.inParts`: a list made part by part on all cores, into one list, whole or not at all.
@Suite struct ArrayInPartsTests {
    /// An element that counts how many of its kind are alive.
    final class Counted: Sendable {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test func partsFillTheirPlacesAndGiveBackWhatTheyFound() throws {
        let made = [Int].inParts(3, stride: 4) { p, start in
            let n = p == 2 ? 2 : 4
            for k in 0..<n { (start + k).initialize(to: p * 4 + k) }
            return (n, "part \(p)")
        }
        let (list, extras) = try #require(made)
        #expect(list == Array(0..<10))
        #expect(extras == ["part 0", "part 1", "part 2"])
        #expect([Int].inParts(0, stride: 4) { _, _ in (0, ()) }.map(\.list) == [])
    }

    /// A part that fails, or one but the last that is short, gives no list, and every
    /// element any part made is let go.
    @Test func aPartNotWholeGivesNoListAndLetsGoOfWhatWasMade() {
        let before = Counted.alive.load(ordering: .relaxed)
        for (failing, short) in [(1, false), (0, true)] {
            let made = [Counted].inParts(3, stride: 4) { p, start in
                let n = p == failing && short ? 3 : 4
                for k in 0..<n { (start + k).initialize(to: Counted(p * 4 + k)) }
                return (n, p == failing && !short ? nil : ())
            }
            #expect(made == nil, "failing part \(failing), short: \(short)")
        }
        #expect(Counted.alive.load(ordering: .relaxed) == before, "elements made were not let go")
    }
}
