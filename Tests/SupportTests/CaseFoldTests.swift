import Support
import Testing

/// Names a case-insensitive (and normalization-insensitive) file system would take for one.
struct CaseFoldTests {
    @Test func groupsNamesThatDifferOnlyInCaseOrNormalization() {
        let names = ["Case", "x", "case", "Other", "CASE", "e\u{301}", "\u{E9}", "σοφία", "ΣΟΦΊΑ", "same", "same"]
        #expect(CaseFold.clashes(in: names) == [[0, 2, 4], [5, 6], [7, 8]])
    }

    @Test func distinctNamesDoNotClash() {
        #expect(CaseFold.clashes(in: ["a", "b", "a-b", "A_b", "서울", "부산"]).isEmpty)
    }
}
